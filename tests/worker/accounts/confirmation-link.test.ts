// Issue 39, item 17: a sign-up whose confirmation mail was lost can ask for the link again (auth-js `resend`,
// rate-limited, the same answer for every address); a password reset through its mailed link confirms the address;
// after `npm run admin:grant` the profile no longer says admin rights wait on the link.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, authClient, mailedLink, signUp, signUpUnconfirmed, uniqueEmail } from "../helpers";

const CONFIRM_SUBJECT = "Confirm your Porchlight email address";

async function confirmMails(email: string): Promise<number> {
  const row = await env.DB.prepare("select count(*) as n from outbox where to_email = ? and kind = 'confirm_signup'").bind(email.toLowerCase()).first<{ n: number }>();
  return row!.n;
}

async function confirmedAt(userId: string): Promise<string | null> {
  const row = await env.DB.prepare("select email_confirmed_at from users where id = ?").bind(userId).first<{ email_confirmed_at: string | null }>();
  return row!.email_confirmed_at;
}

describe("send the confirmation link again", () => {
  it("mails a new link to an unconfirmed account, which confirms it; a confirmed or unknown address gets the same answer and no mail", async () => {
    const { email, user } = await signUpUnconfirmed();
    expect(await confirmMails(email)).toBe(1);
    const client = authClient();
    const { error } = await client.resend({ type: "signup", email });
    expect(error).toBeNull();
    expect(await confirmMails(email)).toBe(2);
    const res = await SELF.fetch(await mailedLink(email, CONFIRM_SUBJECT), { redirect: "manual" });
    expect(res.status).toBe(303);
    expect(await confirmedAt(user.id)).not.toBeNull();

    // Confirmed now: asking again answers alike and mails nothing.
    expect((await authClient().resend({ type: "signup", email })).error).toBeNull();
    expect(await confirmMails(email)).toBe(2);
    const unknown = uniqueEmail("nobody");
    expect((await authClient().resend({ type: "signup", email: unknown })).error).toBeNull();
    expect(await confirmMails(unknown)).toBe(0);
  });

  it("is rate-limited per address (429 with Retry-After), and refuses a bad body with 400", async () => {
    const { email } = await signUpUnconfirmed();
    const client = authClient();
    for (let i = 0; i < 3; i++) expect((await client.resend({ type: "signup", email })).error).toBeNull();
    const limited = await SELF.fetch("http://localhost/auth/v1/resend", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ type: "signup", email }) });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await confirmMails(email)).toBe(4);
    const bad = await SELF.fetch("http://localhost/auth/v1/resend", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ type: "sms", email: "nope" }) });
    expect(bad.status).toBe(400);
  });

  it("after 'User already registered', the same address can get its link again", async () => {
    const { email } = await signUpUnconfirmed();
    const again = await authClient().signUp({ email, password: "another-Good-pass-9" });
    expect(again.error?.code).toBe("user_already_exists");
    expect((await authClient().resend({ type: "signup", email })).error).toBeNull();
    expect(await confirmMails(email)).toBe(2);
  });
});

describe("a password reset through its mailed link proves the mailbox", () => {
  it("confirms the address, and makes an ADMIN_EMAILS address admin as the confirmation link would", async () => {
    const listed = await signUpUnconfirmed("boss@agency.test");
    expect(await confirmedAt(listed.user.id)).toBeNull();
    const client = authClient();
    await client.resetPasswordForEmail(listed.email);
    const res = await SELF.fetch(await mailedLink(listed.email, "Reset your Porchlight password"), { redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toContain("type=recovery");
    expect(await confirmedAt(listed.user.id)).not.toBeNull();
    const profile = await api("/api/profile", { token: listed.session.access_token });
    expect(profile.body).toMatchObject({ emailUnconfirmed: false, adminAwaitsConfirmation: false, profile: { is_admin: true } });
  });

  it("a reset link that is never opened confirms nothing", async () => {
    const { email, user } = await signUpUnconfirmed();
    await authClient().resetPasswordForEmail(email);
    expect(await confirmedAt(user.id)).toBeNull();
  });
});

describe("the banners follow the account as the database has it", () => {
  it("after `npm run admin:grant`, an unconfirmed ADMIN_EMAILS account is not told admin rights wait on the link", async () => {
    const listed = await signUpUnconfirmed("second.admin@agency.test");
    const token = listed.session.access_token;
    expect((await api("/api/profile", { token })).body).toMatchObject({ emailUnconfirmed: true, adminAwaitsConfirmation: true });
    // What scripts/admin-grant does: the profile made admin in the database.
    await env.DB.prepare("update profiles set is_admin = 1 where id = ?").bind(listed.user.id).run();
    expect((await api("/api/profile", { token })).body).toMatchObject({ emailUnconfirmed: true, adminAwaitsConfirmation: false, profile: { is_admin: true } });
    // A confirmed account has no banner at all.
    const confirmed = await signUp();
    expect((await api("/api/profile", { token: confirmed.session.access_token })).body).toMatchObject({ emailUnconfirmed: false, adminAwaitsConfirmation: false });
  });
});
