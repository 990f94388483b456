// The auth service through the real @supabase/auth-js client, plus the wire details it relies on.
import { env, SELF } from "cloudflare:test";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import app from "../../../worker/app";
import { PBKDF2_ITERATIONS, hashPassword, verifyPassword } from "../../../worker/platform/auth/password";
import { JWT_AUDIENCE, JWT_ISSUER, signAccessToken } from "../../../worker/platform/auth/tokens";
import { rateLimitAddress } from "../../../worker/platform/auth/session";
import { api, authClient, GOOD_PASSWORD, mailedLink, signUp, signUpAdmin, signUpUnconfirmed, signUpWithFactor, testIp, uniqueEmail } from "../helpers";

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
