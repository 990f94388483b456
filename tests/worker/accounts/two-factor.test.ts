// Two-factor sign-in (TOTP) and its recovery codes through the real @supabase/auth-js client (auth.test.ts has the
// rest of the auth service).
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, authClient, callWorker, claimsOf, GOOD_PASSWORD, signUp, signUpAdmin, signUpWithFactor, totpCode, uniqueEmail } from "../helpers";

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
