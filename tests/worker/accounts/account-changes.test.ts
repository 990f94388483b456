// PUT /auth/v1/user: the current password guards password and email changes, a new email waits for its link,
// a recovery session sets one password without it; sessions end after their absolute and idle lifetimes.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SESSION_IDLE_MS, SESSION_MAX_AGE_MS } from "../../../worker/platform/auth/sessions";
import { api, authClient, GOOD_PASSWORD, mailedLink, signUp, uniqueEmail } from "../helpers";

/** PUT /auth/v1/user with a raw body, the way any GoTrue client may send it. */
async function putUser(token: string, body: unknown) {
  return api("/auth/v1/user", { method: "PUT", token, body: JSON.stringify(body) });
}

const NEW_EMAIL_SUBJECT = "Confirm your new Porchlight email address";

describe("changing the password", () => {
  it("needs the current password: without it 400 reauthentication_needed, wrong 400 invalid_credentials", async () => {
    const { client, session, email } = await signUp();
    const missing = await putUser(session.access_token, { password: "stolen-token-secret" });
    expect(missing.status).toBe(400);
    expect(missing.body.error_code).toBe("reauthentication_needed");
    const wrong = await client.updateUser({ password: "stolen-token-secret", current_password: "not-the-password" });
    expect(wrong.error?.code).toBe("invalid_credentials");
    expect((await authClient().signInWithPassword({ email, password: GOOD_PASSWORD })).error).toBeNull();

    const right = await client.updateUser({ password: "owner-new-secret-1", current_password: GOOD_PASSWORD });
    expect(right.error).toBeNull();
    expect((await authClient().signInWithPassword({ email, password: "owner-new-secret-1" })).error).toBeNull();
  });

  it("a session from a recovery link sets a new password once without the current one", async () => {
    const { email } = await signUp();
    const client = authClient();
    await client.resetPasswordForEmail(email);
    const link = await mailedLink(email, "Reset your Porchlight password");
    const res = await SELF.fetch(link, { redirect: "manual" });
    const fragment = new URLSearchParams(new URL(res.headers.get("Location")!).hash.slice(1));
    const token = fragment.get("access_token")!;

    const first = await putUser(token, { password: "recovered-secret-1" });
    expect(first.status).toBe(200);
    expect((await authClient().signInWithPassword({ email, password: "recovered-secret-1" })).error).toBeNull();
    // Once only: the same session now has to prove the password it just set.
    const second = await putUser(token, { password: "recovered-secret-2" });
    expect(second.status).toBe(400);
    expect(second.body.error_code).toBe("reauthentication_needed");
    // And a recovery session cannot move the email without the password.
    const moved = await putUser(token, { email: uniqueEmail("thief") });
    expect(moved.body.error_code).toBe("reauthentication_needed");
  });

  it("an ordinary sign-in session has no password reset to use", async () => {
    const { email } = await signUp();
    const signedIn = await authClient().signInWithPassword({ email, password: GOOD_PASSWORD });
    const res = await putUser(signedIn.data.session!.access_token, { password: "no-reset-for-you-1" });
    expect(res.body.error_code).toBe("reauthentication_needed");
  });
});

describe("changing the email", () => {
  it("needs the current password and takes effect only through the link mailed to the new address", async () => {
    const { client, session, email, user } = await signUp();
    const next = uniqueEmail("moved");
    expect((await putUser(session.access_token, { email: next })).body.error_code).toBe("reauthentication_needed");

    const asked = await client.updateUser({ email: next, current_password: GOOD_PASSWORD });
    expect(asked.error).toBeNull();
    expect(asked.data.user?.email).toBe(email);
    expect((asked.data.user as unknown as { new_email?: string }).new_email).toBe(next);
    // Not yet: the old address still signs in, the new one does not.
    expect((await authClient().signInWithPassword({ email: next, password: GOOD_PASSWORD })).error?.code).toBe("invalid_credentials");

    const res = await SELF.fetch(await mailedLink(next, NEW_EMAIL_SUBJECT), { redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toContain("type=email_change");
    const row = await env.DB.prepare("select email, email_confirmed_at from users where id = ?").bind(user.id).first<{
      email: string;
      email_confirmed_at: string | null;
    }>();
    expect(row!.email).toBe(next);
    expect(row!.email_confirmed_at).not.toBeNull();
    expect((await authClient().signInWithPassword({ email: next, password: GOOD_PASSWORD })).error).toBeNull();
  });

  it("answers 422 email_exists (not 500) when the address is taken, before and at confirmation", async () => {
    const other = await signUp();
    const { session } = await signUp();
    const taken = await putUser(session.access_token, { email: other.email, current_password: GOOD_PASSWORD });
    expect(taken.status).toBe(422);
    expect(taken.body.error_code).toBe("email_exists");

    // Someone signs up with the new address while the link is on its way: the link no longer changes anything.
    const next = uniqueEmail("race");
    expect((await putUser(session.access_token, { email: next, current_password: GOOD_PASSWORD })).status).toBe(200);
    const link = await mailedLink(next, NEW_EMAIL_SUBJECT);
    await signUp(next);
    const res = await SELF.fetch(link, { redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toContain("error_code=otp_expired");
  });

  it("only the latest requested address can be confirmed", async () => {
    const { session, user } = await signUp();
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    await putUser(session.access_token, { email: first, current_password: GOOD_PASSWORD });
    const firstLink = await mailedLink(first, NEW_EMAIL_SUBJECT);
    await putUser(session.access_token, { email: second, current_password: GOOD_PASSWORD });
    const stale = await SELF.fetch(firstLink, { redirect: "manual" });
    expect(stale.headers.get("Location")).toContain("error_code=otp_expired");
    const row = await env.DB.prepare("select email from users where id = ?").bind(user.id).first<{ email: string }>();
    expect(row!.email).not.toBe(first);
  });
});

describe("session lifetimes", () => {
  async function ageSession(accessToken: string, column: "created_at" | "refreshed_at", ms: number) {
    const sessionId = JSON.parse(atob(accessToken.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).session_id;
    await env.DB.prepare(`update sessions set ${column} = ? where id = ?`).bind(new Date(Date.now() - ms).toISOString(), sessionId).run();
  }

  it("a session older than its absolute lifetime cannot refresh (session_expired) and its access token is refused", async () => {
    const { session } = await signUp();
    await ageSession(session.access_token, "created_at", SESSION_MAX_AGE_MS + 60_000);
    await ageSession(session.access_token, "refreshed_at", 60_000);
    expect((await api("/api/profile", { token: session.access_token })).status).toBe(401);
    const refreshed = await authClient().refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error?.status).toBe(400);
    expect(refreshed.error?.code).toBe("session_expired");
    expect((await api("/auth/v1/user", { token: session.access_token })).status).toBe(403);
  });

  it("a session idle past its idle lifetime cannot refresh, an active one can", async () => {
    const idle = await signUp();
    await ageSession(idle.session.access_token, "created_at", SESSION_IDLE_MS + 60_000);
    const refused = await authClient().refreshSession({ refresh_token: idle.session.refresh_token });
    expect(refused.error?.code).toBe("session_expired");
    expect((await api("/api/profile", { token: idle.session.access_token })).status).toBe(401);

    const active = await signUp();
    await ageSession(active.session.access_token, "created_at", SESSION_IDLE_MS + 60_000);
    await ageSession(active.session.access_token, "refreshed_at", SESSION_IDLE_MS - 60_000);
    expect((await authClient().refreshSession({ refresh_token: active.session.refresh_token })).error).toBeNull();
  });
});
