// The auth service through the real @supabase/auth-js client, plus the wire details it relies on.
import { env, SELF } from "cloudflare:test";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import app from "../../../worker/app";
import { PBKDF2_ITERATIONS, hashPassword, verifyPassword } from "../../../worker/platform/auth/password";
import { JWT_AUDIENCE, JWT_ISSUER, signAccessToken } from "../../../worker/platform/auth/tokens";
import { rateLimitAddress } from "../../../worker/platform/auth/session";
import { api, authClient, callWorker, claimsOf, GOOD_PASSWORD, mailedLink, signUp, signUpAdmin, signUpUnconfirmed, signUpWithFactor, testIp, totpCode, uniqueEmail } from "../helpers";

const enc = new TextEncoder();

describe("passwords", () => {
  it("are hashed with PBKDF2-SHA256 at exactly 100,000 iterations (the Workers production cap)", async () => {
    expect(PBKDF2_ITERATIONS).toBe(100_000);
    const stored = await hashPassword("a-long-enough-password");
    const [scheme, iterations, salt, hash] = stored.split("$");
    expect(scheme).toBe("pbkdf2-sha256");
    expect(Number(iterations)).toBe(100_000);
    expect(salt).toHaveLength(24);
    expect(hash).toHaveLength(44);
    expect(await verifyPassword("a-long-enough-password", stored)).toBe(true);
    expect(await verifyPassword("a-long-enough-passworD", stored)).toBe(false);
  });

  it("use a fresh salt each time", async () => {
    expect(await hashPassword("same-password-1")).not.toBe(await hashPassword("same-password-1"));
  });
});

describe("sign-up", () => {
  it("returns a session for a new email and creates the profile", async () => {
    const client = authClient();
    const email = uniqueEmail();
    const { data, error } = await client.signUp({ email, password: GOOD_PASSWORD });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.session?.refresh_token).toBeTruthy();
    expect(data.user?.email).toBe(email);
    const profile = await env.DB.prepare("select email, is_admin from profiles where id = ?")
      .bind(data.user!.id)
      .first();
    expect(profile).toEqual({ email, is_admin: 0 });
  });

  it("ignores is_admin sent by the client", async () => {
    const client = authClient();
    const { data } = await client.signUp({
      email: uniqueEmail(),
      password: GOOD_PASSWORD,
      options: { data: { is_admin: true, full_name: "Pat" } },
    });
    const profile = await api("/api/profile", { token: data.session!.access_token });
    expect(profile.body.profile.is_admin).toBe(false);
    expect(data.user?.user_metadata).toEqual({ full_name: "Pat" });
  });

  it("makes addresses in ADMIN_EMAILS admins, case-insensitively, only once the emailed link confirms them", async () => {
    const { session, user } = await signUpUnconfirmed("second.admin@agency.test");
    expect(user.email_confirmed_at ?? null).toBeNull();
    expect((await api("/api/profile", { token: session.access_token })).body.profile.is_admin).toBe(false);

    const link = await mailedLink("second.admin@agency.test", "Confirm your Porchlight email address");
    const res = await SELF.fetch(link, { redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toMatch(/^http:\/\/localhost:8787\/dashboard#.*type=signup/);
    expect((await api("/api/profile", { token: session.access_token })).body.profile.is_admin).toBe(true);
    const confirmed = await env.DB.prepare("select email_confirmed_at from users where id = ?").bind(user.id).first<{ email_confirmed_at: string }>();
    expect(confirmed!.email_confirmed_at).toBeTruthy();
    // A link works once.
    const again = await SELF.fetch(link, { redirect: "manual" });
    expect(again.headers.get("Location")).toContain("error_code=otp_expired");
  });

  it("confirms an unlisted address without making it admin", async () => {
    const { session, email } = await signUp();
    const res = await SELF.fetch(await mailedLink(email, "Confirm your Porchlight email address"), { redirect: "manual" });
    expect(res.status).toBe(303);
    expect((await api("/api/profile", { token: session.access_token })).body.profile.is_admin).toBe(false);
  });

  it("refuses passwords shorter than 8 characters at sign-up, reset and change (issue 26 raised the spec's 6)", async () => {
    const { error } = await authClient().signUp({ email: uniqueEmail(), password: "abc1234" });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe("weak_password");
    expect(error?.message).toContain("at least 8 characters");
    // A change (current password given) and a recovery session's new password are held to the same rule.
    const made = await signUp();
    const change = await made.client.updateUser({ password: "x7k2q9z", current_password: GOOD_PASSWORD });
    expect(change.error?.code).toBe("weak_password");
    const recovering = authClient();
    await recovering.resetPasswordForEmail(made.email);
    const mail = await env.DB.prepare("select body from outbox where to_email = ? order by created_at desc").bind(made.email).first<{ body: string }>();
    const token = /token=([^&\s]+)/.exec(mail!.body)![1]!;
    expect((await recovering.verifyOtp({ token_hash: token, type: "recovery" })).error).toBeNull();
    const reset = await recovering.updateUser({ password: "x7k2q9z" });
    expect(reset.error?.code).toBe("weak_password");
    expect((await recovering.updateUser({ password: "x7k2q9zw" })).error).toBeNull();
  });

  it("refuses passwords from the common-password list", async () => {
    const { error } = await authClient().signUp({ email: uniqueEmail(), password: "Password123" });
    expect(error?.code).toBe("weak_password");
    expect(error?.message).toBe("This password is too common and easy to guess. Please choose a different one.");
  });

  it("refuses an address that is already registered", async () => {
    const { email } = await signUp();
    const { error } = await authClient().signUp({ email: email.toUpperCase(), password: GOOD_PASSWORD });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe("user_already_exists");
    expect(error?.message).toBe("User already registered");
  });

  it("is rate-limited per client address", async () => {
    const ip = testIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await SELF.fetch("http://localhost/auth/v1/signup", {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
        body: JSON.stringify({ email: "not-an-email", password: "x" }),
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it("answers a malformed body with 400, not 500", async () => {
    const res = await SELF.fetch("http://localhost/auth/v1/signup", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": testIp() },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error_code: "validation_failed" });
  });
});

describe("sign-in", () => {
  it("returns a session for the right password", async () => {
    const { email } = await signUp();
    const client = authClient();
    const { data, error } = await client.signInWithPassword({ email, password: GOOD_PASSWORD });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    expect(data.session!.expires_in).toBe(3600);
  });

  it("answers a wrong password and an unknown email with the same 400 invalid_credentials", async () => {
    const { email } = await signUp();
    const wrong = await authClient().signInWithPassword({ email, password: "wrong-password-1" });
    const unknown = await authClient().signInWithPassword({ email: uniqueEmail(), password: "wrong-password-1" });
    for (const r of [wrong, unknown]) {
      expect(r.error?.status).toBe(400);
      expect(r.error?.code).toBe("invalid_credentials");
      expect(r.error?.message).toBe("Invalid login credentials");
    }
  });

  it("sends the GoTrue legacy error shape when no API version header is sent", async () => {
    const res = await SELF.fetch("http://localhost/auth/v1/token?grant_type=password", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": testIp() },
      body: JSON.stringify({ email: uniqueEmail(), password: "whatever-1" }),
    });
    expect(res.status).toBe(400);
    const requestId = res.headers.get("X-Request-Id");
    expect(requestId).toBeTruthy();
    expect(await res.json()).toEqual({ code: 400, error_code: "invalid_credentials", msg: "Invalid login credentials", request_id: requestId });
  });

  it("names the request in the versioned error shape too, as the API errors do", async () => {
    const res = await SELF.fetch("http://localhost/auth/v1/user", { headers: { "X-Supabase-Api-Version": "2024-01-01" } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      code: "no_authorization",
      message: "This endpoint requires a Bearer token",
      msg: "This endpoint requires a Bearer token",
      request_id: res.headers.get("X-Request-Id"),
    });
  });

  it("locks an email after 10 failures with 429 over_request_rate_limit, even for the right password", async () => {
    const { email } = await signUp();
    for (let i = 0; i < 10; i++) {
      const r = await authClient().signInWithPassword({ email, password: `wrong-password-${i}` });
      expect(r.error?.code).toBe("invalid_credentials");
    }
    const locked = await authClient().signInWithPassword({ email, password: GOOD_PASSWORD });
    expect(locked.error?.status).toBe(429);
    expect(locked.error?.code).toBe("over_request_rate_limit");
    expect(locked.error?.message).toBe("Too many attempts. Please wait a few minutes and try again.");
  });
});

describe("sign-in under a parallel burst", () => {
  it("counts each attempt before hashing: 15 at once try at most 10 passwords", async () => {
    const { email } = await signUp();
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) => authClient().signInWithPassword({ email, password: `wrong-password-${i}` })),
    );
    const codes = results.map((r) => r.error?.code);
    expect(codes.filter((c) => c === "invalid_credentials").length).toBeLessThanOrEqual(10);
    expect(codes.filter((c) => c === "over_request_rate_limit").length).toBeGreaterThanOrEqual(5);
  });

  it("limits IPv6 clients per /64", () => {
    expect(rateLimitAddress("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(rateLimitAddress("2001:0db8:0001:0002::9")).toBe("2001:db8:1:2::/64");
    expect(rateLimitAddress("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(rateLimitAddress("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(rateLimitAddress("203.0.113.9")).toBe("203.0.113.9");
  });
});

describe("refresh tokens", () => {
  it("rotate on use: the new token works and the session stays signed in", async () => {
    const { client } = await signUp();
    const before = (await client.getSession()).data.session!;
    const { data, error } = await client.refreshSession();
    expect(error).toBeNull();
    expect(data.session!.refresh_token).not.toBe(before.refresh_token);
    const again = await client.refreshSession();
    expect(again.error).toBeNull();
  });

  it("give two tabs refreshing with the same token at once the same child", async () => {
    const { session } = await signUp();
    const [a, b] = await Promise.all([
      authClient().refreshSession({ refresh_token: session.refresh_token }),
      authClient().refreshSession({ refresh_token: session.refresh_token }),
    ]);
    expect(a.error).toBeNull();
    expect(b.error).toBeNull();
    expect(a.data.session!.refresh_token).toBe(b.data.session!.refresh_token);
  });

  it("detect reuse of a spent token after the grace window and revoke the whole family", async () => {
    const { session } = await signUp();
    const first = await authClient().refreshSession({ refresh_token: session.refresh_token });
    const child = first.data.session!;
    // Age the parent's revocation past the 10-second grace window.
    await env.DB.prepare("update refresh_tokens set revoked_at = ? where revoked_at is not null")
      .bind(new Date(Date.now() - 60_000).toISOString())
      .run();
    const reuse = await authClient().refreshSession({ refresh_token: session.refresh_token });
    expect(reuse.error?.code).toBe("refresh_token_already_used");
    // The child, and the access token of that session, are now dead too.
    const childRefresh = await authClient().refreshSession({ refresh_token: child.refresh_token });
    expect(childRefresh.error?.code).toBe("refresh_token_not_found");
    const me = await api("/api/profile", { token: child.access_token });
    expect(me.status).toBe(401);
  });

  it("answers 503 (which auth-js retries) instead of 500 when the database fails during refresh", async () => {
    const brokenDb = {
      prepare() {
        throw new Error("D1_ERROR: Network connection lost.");
      },
      batch() {
        throw new Error("D1_ERROR: Network connection lost.");
      },
    } as unknown as D1Database;
    const res = await app.request(
      "/auth/v1/token?grant_type=refresh_token",
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ refresh_token: "x" }) },
      { ...env, DB: brokenDb },
    );
    expect(res.status).toBe(503);
  });
});

describe("sign-out", () => {
  /** A user signed in twice: this client's access token and another client's. */
  async function twoSessions() {
    const { email, client } = await signUp();
    const other = authClient();
    await other.signInWithPassword({ email, password: GOOD_PASSWORD });
    const mine = (await client.getSession()).data.session!.access_token;
    const theirs = (await other.getSession()).data.session!.access_token;
    return { client, mine, theirs };
  }

  it("scope local ends only this session, at once", async () => {
    const { client, mine, theirs } = await twoSessions();
    const { error } = await client.signOut({ scope: "local" });
    expect(error).toBeNull();
    expect((await api("/api/profile", { token: mine })).status).toBe(401);
    expect((await api("/api/profile", { token: theirs })).status).toBe(200);
  });

  it("scope others ends the other sessions and keeps this one", async () => {
    const { client, mine, theirs } = await twoSessions();
    await client.signOut({ scope: "others" });
    expect((await api("/api/profile", { token: mine })).status).toBe(200);
    expect((await api("/api/profile", { token: theirs })).status).toBe(401);
  });

  it("scope global ends every session of the user", async () => {
    const { client, mine, theirs } = await twoSessions();
    const res = await SELF.fetch("http://localhost/auth/v1/logout?scope=global", {
      method: "POST",
      headers: { Authorization: `Bearer ${mine}` },
    });
    expect(res.status).toBe(204);
    expect((await api("/api/profile", { token: mine })).status).toBe(401);
    expect((await api("/api/profile", { token: theirs })).status).toBe(401);
    expect((await client.getSession()).data.session).not.toBeNull(); // the server ended it, not the client
    const { error } = await client.getUser();
    expect(error).not.toBeNull();
  });
});

describe("sign-out with two-factor sign-in on (issue 26)", () => {
  it("a password-only session cannot sign the others out (others: 422 insufficient_aal; global: only itself); aal2 can", async () => {
    const secured = await signUpWithFactor();
    const phone = secured.session!.access_token;
    const thief = authClient();
    await thief.signInWithPassword({ email: secured.email, password: GOOD_PASSWORD });
    const aal1 = (await thief.getSession()).data.session!.access_token;
    const logout = (scope: string, token: string) =>
      SELF.fetch(`http://localhost/auth/v1/logout?scope=${scope}`, { method: "POST", headers: { Authorization: `Bearer ${token}` } });

    const others = await logout("others", aal1);
    expect(others.status).toBe(422);
    expect(((await others.json()) as { error_code: string }).error_code).toBe("insufficient_aal");
    expect((await api("/api/profile", { token: phone })).status).toBe(200);
    // Global from a password-only session ends that session alone.
    expect((await logout("global", aal1)).status).toBe(204);
    expect((await api("/api/profile", { token: phone })).status).toBe(200);
    expect((await SELF.fetch("http://localhost/auth/v1/user", { headers: { Authorization: `Bearer ${aal1}` } })).status).toBe(403);

    // From the aal2 session, others go.
    const again = authClient();
    await again.signInWithPassword({ email: secured.email, password: GOOD_PASSWORD });
    const second = (await again.getSession()).data.session!.access_token;
    expect((await logout("others", phone)).status).toBe(204);
    expect((await SELF.fetch("http://localhost/auth/v1/user", { headers: { Authorization: `Bearer ${second}` } })).status).toBe(403);
    expect((await api("/api/profile", { token: phone })).status).toBe(200);
  });
});

describe("user", () => {
  it("getUser returns the user for a live session", async () => {
    const { client, email } = await signUp();
    const { data, error } = await client.getUser();
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
  });

  it("updateUser changes metadata but never admin fields, and changes the password", async () => {
    const { client, email } = await signUp();
    const upd = await client.updateUser({ data: { company: "Acme Roofing", is_admin: true } });
    expect(upd.error).toBeNull();
    expect(upd.data.user?.user_metadata).toEqual({ company: "Acme Roofing" });
    const token = (await client.getSession()).data.session!.access_token;
    expect((await api("/api/profile", { token })).body.profile.is_admin).toBe(false);

    const pw = await client.updateUser({ password: "a-brand-new-secret", current_password: GOOD_PASSWORD });
    expect(pw.error).toBeNull();
    expect((await authClient().signInWithPassword({ email, password: GOOD_PASSWORD })).error?.code).toBe(
      "invalid_credentials",
    );
    expect((await authClient().signInWithPassword({ email, password: "a-brand-new-secret" })).error).toBeNull();
  });
});

describe("timestamps", () => {
  it("an update moves updated_at and keeps the sign-up date", async () => {
    const { client, user } = await signUp();
    const before = await env.DB.prepare("select created_at, updated_at from users where id = ?").bind(user.id).first<{
      created_at: string;
      updated_at: string;
    }>();
    await new Promise((r) => setTimeout(r, 5));
    await client.updateUser({ data: { company: "Later Co" } });
    const after = await env.DB.prepare("select created_at, updated_at from users where id = ?").bind(user.id).first<{
      created_at: string;
      updated_at: string;
    }>();
    expect(after!.created_at).toBe(before!.created_at);
    expect(after!.updated_at > before!.updated_at).toBe(true);
  });
});

describe("password recovery", () => {
  it("mails a one-time link whose token signs in once and allows a new password", async () => {
    const { email } = await signUp();
    const client = authClient();
    const { error } = await client.resetPasswordForEmail(email);
    expect(error).toBeNull();
    const mail = await env.DB.prepare("select body from outbox where to_email = ? order by created_at desc")
      .bind(email)
      .first<{ body: string }>();
    const token = /token=([^&\s]+)/.exec(mail!.body)![1]!;
    const verified = await client.verifyOtp({ token_hash: token, type: "recovery" });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
    expect((await client.updateUser({ password: "recovered-secret-9" })).error).toBeNull();
    expect((await authClient().signInWithPassword({ email, password: "recovered-secret-9" })).error).toBeNull();
    const second = await authClient().verifyOtp({ token_hash: token, type: "recovery" });
    expect(second.error?.code).toBe("otp_expired");
  });

  it("answers 200 {} for an unknown email and sends nothing", async () => {
    const email = uniqueEmail();
    const { error } = await authClient().resetPasswordForEmail(email);
    expect(error).toBeNull();
    const count = await env.DB.prepare("select count(*) as n from outbox where to_email = ?").bind(email).first();
    expect(count).toEqual({ n: 0 });
  });

  it("the emailed GET link redirects to the app with the session in the fragment", async () => {
    const { email } = await signUp();
    await authClient().resetPasswordForEmail(email);
    const mail = await env.DB.prepare("select body from outbox where to_email = ? and subject like 'Reset%'").bind(email).first<{ body: string }>();
    const link = /(http\S+)/.exec(mail!.body)![1]!;
    const res = await SELF.fetch(link.replace("http://localhost:8787", "http://localhost"), { redirect: "manual" });
    expect(res.status).toBe(303);
    const location = res.headers.get("Location")!;
    expect(location.startsWith("http://localhost:8787/reset-password#")).toBe(true);
    expect(location).toContain("type=recovery");
    expect(location).toContain("access_token=");
  });
});

describe("access tokens on the API", () => {
  it("are required", async () => {
    expect((await api("/api/profile")).status).toBe(401);
  });

  it("reject alg none, a wrong key, an expired token, a wrong audience and a logged-out session", async () => {
    const { user, session, client } = await signUp();
    const claims = { sub: user.id, email: user.email, session_id: (JSON.parse(atob(session.access_token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as any).session_id };
    const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    const now = Math.floor(Date.now() / 1000);
    const algNone = `${b64({ alg: "none", typ: "JWT" })}.${b64({ ...claims, iss: JWT_ISSUER, aud: JWT_AUDIENCE, exp: now + 600 })}.`;
    const wrongKey = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setExpirationTime(now + 600)
      .sign(enc.encode("another-secret-another-secret-another-secret"));
    const expired = (await signAccessToken(env, { id: user.id, email: user.email! }, claims.session_id, { aal: "aal1", amr: [] }, now - 7200)).token;
    const wrongAud = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(JWT_ISSUER)
      .setAudience("someone-else")
      .setExpirationTime(now + 600)
      .sign(enc.encode(env.JWT_SECRET!));
    for (const token of [algNone, wrongKey, expired, wrongAud]) {
      const res = await api("/api/profile", { token });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
    }
    expect((await api("/api/profile", { token: session.access_token })).status).toBe(200);
    await client.signOut();
    expect((await api("/api/profile", { token: session.access_token })).status).toBe(401);
  });
});

describe("settings and health", () => {
  it("serve what auth-js may ask", async () => {
    const settings = await (await SELF.fetch("http://localhost/auth/v1/settings")).json();
    expect(settings).toMatchObject({ mailer_autoconfirm: true, disable_signup: false });
    const health = await SELF.fetch("http://localhost/auth/v1/health");
    expect(health.status).toBe(200);
  });
});

describe("the mail outbox", () => {
  it("keeps links readable only for local development on a loopback host", async () => {
    const email = uniqueEmail();
    const remote = { ...env, ENVIRONMENT: "development" };
    const signup = await app.request(
      "http://porchlight.example/auth/v1/signup",
      { method: "POST", headers: { "Content-Type": "application/json", "CF-Connecting-IP": testIp() }, body: JSON.stringify({ email, password: GOOD_PASSWORD }) },
      remote,
    );
    expect(signup.status).toBe(200);
    const stored = await env.DB.prepare("select body from outbox where to_email = ?").bind(email).first<{ body: string }>();
    expect(stored!.body).toContain("verify?token=[redacted]&type=signup");
    expect((await app.request(`http://porchlight.example/auth/v1/outbox?email=${email}`, {}, remote)).status).toBe(404);
    expect((await app.request(`http://localhost/auth/v1/outbox?email=${email}`, {}, { ...env, ENVIRONMENT: "production" })).status).toBe(404);
  });

  it("revokes a user's other recovery links when one is used", async () => {
    const { email } = await signUp();
    await authClient().resetPasswordForEmail(email);
    await authClient().resetPasswordForEmail(email);
    const { results } = await env.DB.prepare("select body from outbox where to_email = ? and subject like 'Reset%' order by created_at")
      .bind(email)
      .all<{ body: string }>();
    const [first, second] = results.map((m) => /(http\S+)/.exec(m.body)![1]!.replace("http://localhost:8787", "http://localhost"));
    expect((await SELF.fetch(second!, { redirect: "manual" })).headers.get("Location")).toContain("access_token=");
    expect((await SELF.fetch(first!, { redirect: "manual" })).headers.get("Location")).toContain("error_code=otp_expired");
  });

  it("is readable by admins through the API, and refused to everyone else", async () => {
    const { email } = await signUp();
    await authClient().resetPasswordForEmail(email);
    const admin = await signUpAdmin();
    const user = await signUp();
    expect((await api(`/api/admin/outbox?email=${encodeURIComponent(email)}`)).status).toBe(401);
    const refused = await api(`/api/admin/outbox?email=${encodeURIComponent(email)}`, { token: user.session.access_token });
    expect(refused.status).toBe(403);
    const res = await api(`/api/admin/outbox?email=${encodeURIComponent(email)}`, { token: admin.session.access_token });
    expect(res.status).toBe(200);
    const reset = res.body.messages.filter((m: { subject: string }) => m.subject === "Reset your Porchlight password");
    expect(reset).toHaveLength(1);
    expect(reset[0]).toMatchObject({ to: email });
    // An admin never reads a usable link: that would take over the account around the audited view-as.
    expect(reset[0].body).toContain("/auth/v1/verify?token=[redacted]&type=recovery");
    const bad = await api("/api/admin/outbox?limit=9999", { token: admin.session.access_token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("validation_failed");
  });
});


describe("two-factor sign-in (TOTP) through auth-js mfa.*", () => {
  it("enrolls with a QR code and a secret, verifies a code, and the session becomes aal2", async () => {
    const { client, user } = await signUp(uniqueEmail("mfa"));
    const before = await client.mfa.getAuthenticatorAssuranceLevel();
    expect(before.data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal1" });

    const { data: factor, error } = await client.mfa.enroll({ factorType: "totp", friendlyName: "Work phone" });
    expect(error).toBeNull();
    if (!factor || factor.type !== "totp") throw new Error("no totp factor");
    expect(factor.friendly_name).toBe("Work phone");
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(factor.totp.uri).toMatch(/^otpauth:\/\/totp\/Porchlight:.+\?.*secret=/);
    // auth-js turns GoTrue's SVG markup into an image address.
    expect(factor.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg /);

    // The secret is stored encrypted, never as it was shown.
    const row = await env.DB.prepare("select secret_ciphertext, status from mfa_factors where id = ?").bind(factor.id).first<{ secret_ciphertext: string; status: string }>();
    expect(row?.status).toBe("unverified");
    expect(row?.secret_ciphertext).toMatch(/^v1\./);
    expect(row?.secret_ciphertext).not.toContain(factor.totp.secret);

    const { data: challenge, error: challengeError } = await client.mfa.challenge({ factorId: factor.id });
    expect(challengeError).toBeNull();
    expect(challenge).toMatchObject({ type: "totp" });
    expect(challenge!.expires_at).toBeGreaterThan(Date.now() / 1000);
    const { data: verified, error: verifyError } = await client.mfa.verify({
      factorId: factor.id,
      challengeId: challenge!.id,
      code: await totpCode(factor.totp.secret),
    });
    expect(verifyError).toBeNull();
    const claims = claimsOf(verified!.access_token);
    expect(claims.aal).toBe("aal2");
    expect(claims.amr.map((m: { method: string }) => m.method)).toEqual(["totp", "password"]);
    expect((await client.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal2", nextLevel: "aal2" });
    const listed = await client.mfa.listFactors();
    expect(listed.data?.totp.map((f) => [f.id, f.status])).toEqual([[factor.id, "verified"]]);
    expect((await client.getUser()).data.user?.factors?.[0]).toMatchObject({ id: factor.id, factor_type: "totp", status: "verified" });
    // The session keeps aal2 across a refresh.
    const refreshed = await client.refreshSession();
    expect(claimsOf(refreshed.data.session!.access_token).aal).toBe("aal2");
    expect(user.id).toBe(claims.sub);
  });

  it("signs in at aal1 with the password; the API asks for the code until a verified code raises the session to aal2", async () => {
    const { email, secret, factorId } = await signUpWithFactor();
    const client = authClient();
    const { data, error } = await client.signInWithPassword({ email, password: GOOD_PASSWORD });
    expect(error).toBeNull();
    expect(claimsOf(data.session!.access_token).aal).toBe("aal1");
    expect((await client.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });

    const blocked = await api("/api/profile", { token: data.session!.access_token });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe("mfa_required");

    const { data: verified, error: verifyError } = await client.mfa.challengeAndVerify({ factorId, code: await totpCode(secret, 1) });
    expect(verifyError).toBeNull();
    expect((await client.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal2", nextLevel: "aal2" });
    expect((await api("/api/profile", { token: verified!.access_token })).status).toBe(200);
  });

  it("refuses a wrong code and a code that was already used", async () => {
    const { email, secret, factorId, usedCode } = await signUpWithFactor();
    const client = authClient();
    await client.signInWithPassword({ email, password: GOOD_PASSWORD });
    const valid = new Set([await totpCode(secret, -1), await totpCode(secret), await totpCode(secret, 1)]);
    const wrong = ["000000", "111111", "222222", "333333"].find((c) => !valid.has(c))!;
    const bad = await client.mfa.challengeAndVerify({ factorId, code: wrong });
    expect(bad.error?.code).toBe("mfa_verification_failed");
    // The code the enrolment used never works again (still inside the ±1 step window here).
    const reused = await client.mfa.challengeAndVerify({ factorId, code: usedCode });
    expect(reused.error?.code).toBe("mfa_code_reused");
    expect(reused.error?.message).toMatch(/already been used/);
    expect((await client.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe("aal1");
  });

  it("limits codes per user: the 11th try in 15 minutes is 429 even when right", async () => {
    const { email, secret, factorId } = await signUpWithFactor();
    const client = authClient();
    await client.signInWithPassword({ email, password: GOOD_PASSWORD });
    for (let i = 0; i < 10; i++) {
      const r = await client.mfa.challengeAndVerify({ factorId, code: "000000" === (await totpCode(secret, 1)) ? "111111" : "000000" });
      expect(r.error?.code).toBe("mfa_verification_failed");
    }
    const limited = await client.mfa.challengeAndVerify({ factorId, code: await totpCode(secret, 1) });
    expect(limited.error?.status).toBe(429);
  });

  it("removes a verified factor only from an aal2 session; afterwards the password is enough again", async () => {
    const { email, factorId, client: enrolledClient } = await signUpWithFactor();
    const aal1 = authClient();
    await aal1.signInWithPassword({ email, password: GOOD_PASSWORD });
    const refused = await aal1.mfa.unenroll({ factorId });
    expect(refused.error?.code).toBe("insufficient_aal");
    // Nor does a password alone change the password or the email.
    const pw = await aal1.updateUser({ password: "another-good-password-1", current_password: GOOD_PASSWORD } as never);
    expect(pw.error?.code).toBe("insufficient_aal");

    const removed = await enrolledClient.mfa.unenroll({ factorId });
    expect(removed.error).toBeNull();
    expect(removed.data).toMatchObject({ id: factorId });
    const again = authClient();
    const { data } = await again.signInWithPassword({ email, password: GOOD_PASSWORD });
    expect((await again.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal1" });
    expect((await api("/api/profile", { token: data.session!.access_token })).status).toBe(200);
  });

  it("answers GoTrue's errors for unknown factors and challenges, other factor types, and no session", async () => {
    const { client, session } = await signUp(uniqueEmail("mfa"));
    const unknown = await client.mfa.challenge({ factorId: crypto.randomUUID() });
    expect(unknown.error?.code).toBe("mfa_factor_not_found");
    const phone = await client.mfa.enroll({ factorType: "phone", phone: "+15555550100" });
    expect(phone.error?.code).toBe("mfa_phone_enroll_not_enabled");
    const { data: factor } = await client.mfa.enroll({ factorType: "totp" });
    const noChallenge = await client.mfa.verify({ factorId: factor!.id, challengeId: crypto.randomUUID(), code: "123456" });
    expect(noChallenge.error?.code).toBe("mfa_challenge_not_found");
    const anonymous = await SELF.fetch("http://localhost/auth/v1/factors", { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } });
    expect(anonymous.status).toBe(401);
    // Another user's factor is not found for this one.
    const other = await signUp(uniqueEmail("mfa"));
    const theirs = await other.client.mfa.challenge({ factorId: factor!.id });
    expect(theirs.error?.code).toBe("mfa_factor_not_found");
    expect(session.access_token).toBeTruthy();
  });

  it("in production without ENCRYPTION_KEY refuses enrolment in the customer's terms and tells the agency (issue 26)", async () => {
    await signUpAdmin();
    const { session } = await signUp(uniqueEmail("mfa"));
    const res = await callWorker("/auth/v1/factors", { method: "POST", token: session.access_token, json: { factor_type: "totp" } }, { ENCRYPTION_KEY: "", ENVIRONMENT: "production" });
    expect(res.status).toBe(503);
    expect(res.body.error_code).toBe("server_misconfigured");
    expect(res.body.msg).toBe("Two-factor sign-in isn't available yet; your agency has been told.");
    expect(res.text).not.toMatch(/ENCRYPTION_KEY|wrangler|\.dev\.vars/);
    const told = await env.DB.prepare("select count(*) as n from notifications where kind = 'provider_missing' and data like '%encryption%'").first<{ n: number }>();
    expect(told!.n).toBeGreaterThan(0);
  });
});

describe("two-factor recovery codes (issue 26)", () => {
  const factorsApi = (path: string, token: string, body?: unknown) =>
    SELF.fetch(`http://localhost/auth/v1/factors/${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  async function passwordOnly(email: string) {
    const client = authClient();
    await client.signInWithPassword({ email, password: GOOD_PASSWORD });
    return { client, token: (await client.getSession()).data.session!.access_token };
  }

  it("made with aal2 and shown once, stored hashed; each one raises one password-only session to aal2, once", async () => {
    const secured = await signUpWithFactor();
    const aal2 = secured.session!.access_token;
    expect((await factorsApi("recovery-codes", aal2)).body).toEqual({ total: 0, remaining: 0, created_at: null });
    const made = await factorsApi("recovery-codes", aal2, {});
    expect(made.status).toBe(200);
    const codes = made.body.codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    // Only keyed hashes are kept; the codes are never answered again.
    const stored = await env.DB.prepare("select code_hash from mfa_recovery_codes where user_id = ?").bind(secured.user.id).all<{ code_hash: string }>();
    expect(stored.results).toHaveLength(10);
    for (const row of stored.results) for (const code of codes) expect(row.code_hash).not.toContain(code.replace("-", ""));
    expect((await factorsApi("recovery-codes", aal2)).body).toMatchObject({ total: 10, remaining: 10 });

    // Lost phone: the password gives an aal1 session, which can neither use the API nor make codes for itself.
    const lost = await passwordOnly(secured.email);
    expect((await api("/api/profile", { token: lost.token })).body.error.code).toBe("mfa_required");
    expect((await factorsApi("recovery-codes", lost.token, {})).body.error_code).toBe("insufficient_aal");
    expect((await factorsApi("recovery-codes/verify", lost.token, { code: "ZZZZZ-ZZZZZ" })).body.error_code).toBe("mfa_verification_failed");
    // Typed in lower case without the dash, it still counts.
    const used = await factorsApi("recovery-codes/verify", lost.token, { code: codes[0]!.replace("-", "").toLowerCase() });
    expect(used.status).toBe(200);
    expect(claimsOf(used.body.access_token)).toMatchObject({ aal: "aal2", session_id: claimsOf(lost.token).session_id });
    expect(claimsOf(used.body.access_token).amr[0].method).toBe("recovery_code");
    expect((await api("/api/profile", { token: used.body.access_token })).status).toBe(200);
    // auth-js takes the new tokens as its session and reads aal2 from them.
    await lost.client.setSession({ access_token: used.body.access_token, refresh_token: used.body.refresh_token });
    expect((await lost.client.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe("aal2");
    expect((await factorsApi("recovery-codes", aal2)).body).toMatchObject({ total: 10, remaining: 9 });

    // The same code never works twice.
    const again = await passwordOnly(secured.email);
    expect((await factorsApi("recovery-codes/verify", again.token, { code: codes[0] })).status).toBe(422);

    // A new set replaces the old one: the old codes stop working.
    const fresh = await factorsApi("recovery-codes", used.body.access_token, {});
    expect(fresh.status).toBe(200);
    expect((await factorsApi("recovery-codes/verify", again.token, { code: codes[1] })).status).toBe(422);
    expect((await factorsApi("recovery-codes/verify", again.token, { code: fresh.body.codes[1] })).status).toBe(200);

    // With the last authenticator app removed, the codes go too.
    await lost.client.mfa.unenroll({ factorId: secured.factorId });
    expect((await factorsApi("recovery-codes", aal2)).body).toMatchObject({ total: 0, remaining: 0 });
  });

  it("a burst of guesses is counted with the authenticator codes: 429 after 10", async () => {
    const secured = await signUpWithFactor();
    const lost = await passwordOnly(secured.email);
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push((await factorsApi("recovery-codes/verify", lost.token, { code: `AAAAA-${String(i).padStart(5, "2")}` })).status);
    expect(answers.slice(0, 10).every((s) => s === 422)).toBe(true);
    expect(answers[10]).toBe(429);
  });
});
