// Mail through a provider: sign-up and recovery mail queued on mail-out, delivered once by the real consumer to the fake
// Resend/Postmark APIs, retried after a 5xx, recorded as failed on a permanent refusal, and the delivered link works.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import wranglerToml from "../../../wrangler.toml?raw";
import app from "../../../worker/app";
import { MAIL_DLQ_MAX_RETRIES } from "../../../worker/platform/mail/queue";
import type { Env, MailOutMessage } from "../../../worker/platform/env";
import { classifyResponse, mailConfig, mailRequest } from "../../../worker/platform/providers/mail";
import { renderMail } from "../../../worker/platform/mail/templates";
import { GOOD_PASSWORD, testIp, uniqueEmail } from "../helpers";
import { deliver, recorder } from "../reports/reports-fixtures";

type Delivered = { api: string; id: string; from: string; to: string; subject: string; text: string; html: string; idempotencyKey: string | null };
type FakeRequest = { api: string; to: string; status: number; idempotencyKey: string | null };

/** The app configured with a mail provider pointed at the fake, recording what it puts on mail-out. */
function mailEnv(provider: "resend" | "postmark" = "resend", overrides: Partial<Env> = {}) {
  const queue = recorder<MailOutMessage>();
  const e: Env = {
    ...env,
    MAIL_PROVIDER: provider,
    MAIL_API_KEY: "test-mail-key",
    MAIL_FROM: "Porchlight <hello@porchlight.test>",
    MAIL_BASE_URL: env.TEST_MAIL_BASE_URL,
    MAIL_OUT: queue.queue,
    ...overrides,
  };
  return { env: e, sent: queue.sent };
}

async function call(e: Env, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("CF-Connecting-IP", testIp());
  if (init.body) headers.set("Content-Type", "application/json");
  return app.request(path, { ...init, headers }, e);
}

async function fakeMessages(to: string): Promise<Delivered[]> {
  const res = await fetch(`${env.TEST_MAIL_BASE_URL}/__messages?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as { messages: Delivered[] }).messages;
}

async function fakeRequests(to: string): Promise<FakeRequest[]> {
  const res = await fetch(`${env.TEST_MAIL_BASE_URL}/__requests?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as { requests: FakeRequest[] }).requests;
}

async function outboxRows(to: string) {
  const { results } = await env.DB.prepare(
    "select id, kind, status, attempts, last_error, provider_message_id, body, html, sent_at from outbox where to_email = ? order by created_at",
  )
    .bind(to)
    .all<{ id: string; kind: string; status: string; attempts: number; last_error: string | null; provider_message_id: string | null; body: string; html: string | null; sent_at: string | null }>();
  return results;
}

/** The link in a delivered message, opened on the test worker (links are built on APP_ORIGIN). */
function linkIn(text: string): string {
  return /(http\S+)/.exec(text)![1]!.replace("http://localhost:8787", "http://localhost");
}

async function signUpWithMail(e: Env, email: string) {
  const res = await call(e, "/auth/v1/signup", { method: "POST", body: JSON.stringify({ email, password: GOOD_PASSWORD }) });
  expect(res.status).toBe(200);
}

/** A new user's confirmation mail, delivered once through the mail-out consumer (as its `attempts`th try). */
async function signUpDelivered(mail: ReturnType<typeof mailEnv>, prefix: string, attempts = 1) {
  const email = uniqueEmail(prefix);
  await signUpWithMail(mail.env, email);
  const out = await deliver("mail-out", [{ body: mail.sent[0], attempts }], mail.env);
  return { email, out };
}

describe("mail through a provider", () => {
  it("sign-up: queued, delivered once with HTML and text parts, and the delivered link confirms the address", async () => {
    const mail = mailEnv("resend");
    const email = uniqueEmail("welcome");
    await signUpWithMail(mail.env, email);

    // Queued: the row holds the message, the queue only its id; nothing reached the provider yet.
    const [queued] = await outboxRows(email);
    expect(queued).toMatchObject({ kind: "confirm_signup", status: "queued", attempts: 0 });
    expect(mail.sent).toEqual([{ mailId: queued!.id }]);
    expect(await fakeMessages(email)).toEqual([]);

    const first = await deliver("mail-out", [{ body: mail.sent[0] }], mail.env);
    expect(first.result.explicitAcks).toEqual(first.ids);
    // A redelivery of the same queue message sends nothing more.
    const again = await deliver("mail-out", [{ body: mail.sent[0], attempts: 2 }], mail.env);
    expect(again.result.explicitAcks).toEqual(again.ids);

    const delivered = await fakeMessages(email);
    expect(delivered).toHaveLength(1);
    const [message] = delivered;
    expect(message).toMatchObject({ api: "resend", from: "Porchlight <hello@porchlight.test>", subject: "Confirm your Porchlight email address", idempotencyKey: queued!.id });
    expect(message!.text).toContain("expires in 24 hours");
    expect(message!.text).toContain("If you did not sign up");
    expect(message!.html).toContain("<a href=\"http://localhost:8787/auth/v1/verify?token=");
    expect(message!.html).toContain("Porchlight");

    // The row is sent, with the provider's id, and its links no longer readable.
    const [sent] = await outboxRows(email);
    expect(sent).toMatchObject({ status: "sent", attempts: 1, provider_message_id: message!.id });
    expect(sent!.body).toContain("token=[redacted]");
    expect(sent!.html).toContain("token=[redacted]");

    const confirm = await app.request(linkIn(message!.text), { redirect: "manual" }, mail.env);
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get("Location")).toContain("access_token=");
    const user = await env.DB.prepare("select email_confirmed_at from users where email = ?").bind(email).first<{ email_confirmed_at: string | null }>();
    expect(user?.email_confirmed_at).toBeTruthy();
  });

  it("recovery after a 5xx: retried with backoff, then delivered once, and its link signs in to set a new password", async () => {
    const mail = mailEnv("resend");
    const email = uniqueEmail("flaky");
    await signUpWithMail(mailEnv("resend").env, email);
    const recover = await call(mail.env, "/auth/v1/recover", { method: "POST", body: JSON.stringify({ email }) });
    expect(recover.status).toBe(200);
    expect(mail.sent).toHaveLength(1);

    const first = await deliver("mail-out", [{ body: mail.sent[0], attempts: 1 }], mail.env);
    expect(first.result.explicitAcks).toEqual([]);
    expect(first.delays).toEqual([{ msgId: first.ids[0], delaySeconds: 10 }]);
    const afterFirst = (await outboxRows(email)).find((r) => r.kind === "reset_password")!;
    expect(afterFirst).toMatchObject({ status: "queued", attempts: 1 });
    expect(afterFirst.last_error).toMatch(/^resend 503/);

    const second = await deliver("mail-out", [{ body: mail.sent[0], attempts: 2 }], mail.env);
    expect(second.result.explicitAcks).toEqual(second.ids);

    const requests = (await fakeRequests(email)).filter((r) => r.idempotencyKey === afterFirst.id);
    const delivered = (await fakeMessages(email)).filter((m) => m.subject === "Reset your Porchlight password");
    const row = (await outboxRows(email)).find((r) => r.kind === "reset_password")!;
    console.log("evidence: recovery mail after a forced 5xx", JSON.stringify({ requests: requests.map((r) => r.status), delivered: delivered.length, row: { status: row.status, attempts: row.attempts, sent_at: row.sent_at } }));
    expect(requests.map((r) => r.status)).toEqual([503, 200]);
    expect(delivered).toHaveLength(1);
    expect(row).toMatchObject({ status: "sent", attempts: 2, last_error: null });
    expect(delivered[0]!.text).toContain("expires in 1 hour");

    const open = await app.request(linkIn(delivered[0]!.text), { redirect: "manual" }, mail.env);
    expect(open.status).toBe(303);
    const fragment = new URLSearchParams(new URL(open.headers.get("Location")!).hash.slice(1));
    expect(fragment.get("type")).toBe("recovery");
    const reset = await call(mail.env, "/auth/v1/user", {
      method: "PUT",
      headers: { Authorization: `Bearer ${fragment.get("access_token")}` },
      body: JSON.stringify({ password: "a-new-good-password-7" }),
    });
    expect(reset.status).toBe(200);
    const signIn = await call(mail.env, "/auth/v1/token?grant_type=password", { method: "POST", body: JSON.stringify({ email, password: "a-new-good-password-7" }) });
    expect(signIn.status).toBe(200);
  });

  it("Postmark: the same path in its request shape; a suppressed recipient is recorded as failed and never retried", async () => {
    const { email, out: sent } = await signUpDelivered(mailEnv("postmark"), "pm");
    expect(sent.result.explicitAcks).toHaveLength(1);
    const [message] = await fakeMessages(email);
    expect(message).toMatchObject({ api: "postmark", subject: "Confirm your Porchlight email address" });
    expect((await outboxRows(email))[0]).toMatchObject({ status: "sent", provider_message_id: message!.id });

    const refused = mailEnv("postmark");
    const { email: suppressed, out } = await signUpDelivered(refused, "suppressed");
    expect(out.result.explicitAcks).toEqual(out.ids);
    expect(out.delays).toEqual([]);
    const [row] = await outboxRows(suppressed);
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
    expect(row!.last_error).toMatch(/^postmark 422 ErrorCode 406/);
    expect(row!.body).toContain("token=[redacted]");
    // Delivered again by the queue (at-least-once): still nothing sent.
    await deliver("mail-out", [{ body: refused.sent[0], attempts: 2 }], refused.env);
    expect((await fakeRequests(suppressed)).map((r) => r.status)).toEqual([422]);
    expect(await fakeMessages(suppressed)).toEqual([]);
  });

  it("a bad address on Resend is permanent; a time-out retries", async () => {
    const { email: badEmail, out } = await signUpDelivered(mailEnv("resend"), "badaddress");
    expect(out.result.explicitAcks).toHaveLength(1);
    expect((await outboxRows(badEmail))[0]).toMatchObject({ status: "failed" });

    const { email: slowEmail, out: timedOut } = await signUpDelivered(mailEnv("resend", { MAIL_TIMEOUT_MS: "300" }), "slow", 3);
    expect(timedOut.result.explicitAcks).toEqual([]);
    expect(timedOut.delays[0]?.delaySeconds).toBe(40);
    expect((await outboxRows(slowEmail))[0]!.last_error).toMatch(/no answer within 300 ms/);
  });

  it("the dead-letter queue tries again, and after its last try marks the message failed", async () => {
    const mail = mailEnv("resend");
    const email = uniqueEmail("fail5xx");
    await signUpWithMail(mail.env, email);
    const early = await deliver("mail-out-dlq", [{ body: mail.sent[0], attempts: 1 }], mail.env);
    expect(early.delays).toEqual([{ msgId: early.ids[0], delaySeconds: 600 }]);
    expect((await outboxRows(email))[0]).toMatchObject({ status: "queued" });
    const last = await deliver("mail-out-dlq", [{ body: mail.sent[0], attempts: MAIL_DLQ_MAX_RETRIES + 1 }], mail.env);
    expect(last.result.explicitAcks).toEqual(last.ids);
    const [row] = await outboxRows(email);
    expect(row!.status).toBe("failed");
    expect(row!.last_error).toMatch(/^gave up: resend 500/);
    expect(await fakeMessages(email)).toEqual([]);
  });

  it("without MAIL_PROVIDER the mail stays in the outbox and nothing is queued", async () => {
    const queue = recorder<MailOutMessage>();
    const email = uniqueEmail("kept");
    await signUpWithMail({ ...env, MAIL_PROVIDER: "", MAIL_OUT: queue.queue }, email);
    expect(queue.sent).toEqual([]);
    expect((await outboxRows(email))[0]).toMatchObject({ status: "kept", kind: "confirm_signup" });
    expect(await fakeMessages(email)).toEqual([]);
  });

  it("drops a malformed queue message and keeps MAIL_DLQ_MAX_RETRIES equal to wrangler.toml's", async () => {
    const out = await deliver("mail-out", [{ body: { nope: true } }], mailEnv().env);
    expect(out.result.explicitAcks).toEqual(out.ids);
    const block = wranglerToml.split("[[queues.consumers]]").find((b) => /^queue = "mail-out-dlq"/m.test(b))!;
    expect(Number(/^max_retries = (\d+)/m.exec(block)?.[1])).toBe(MAIL_DLQ_MAX_RETRIES);
  });
});

describe("the mail provider client", () => {
  const config = (provider: "resend" | "postmark") => mailConfig({ ...env, MAIL_PROVIDER: provider, MAIL_API_KEY: "k", MAIL_FROM: "A <a@b.test>", MAIL_BASE_URL: "http://127.0.0.1:1/" })!;
  const mail = { to: "x@y.test", subject: "S", text: "T", html: "<p>H</p>", idempotencyKey: "key-1" };

  it("builds Resend's request with the idempotency key header, and Postmark's with the key as metadata", () => {
    const resend = mailRequest(config("resend"), mail);
    expect(resend.url).toBe("http://127.0.0.1:1/emails");
    expect(new Headers(resend.init.headers).get("Idempotency-Key")).toBe("key-1");
    expect(new Headers(resend.init.headers).get("Authorization")).toBe("Bearer k");
    expect(JSON.parse(resend.init.body as string)).toEqual({ from: "A <a@b.test>", to: ["x@y.test"], subject: "S", html: "<p>H</p>", text: "T" });
    const postmark = mailRequest(config("postmark"), mail);
    expect(postmark.url).toBe("http://127.0.0.1:1/email");
    expect(new Headers(postmark.init.headers).get("X-Postmark-Server-Token")).toBe("k");
    expect(JSON.parse(postmark.init.body as string)).toMatchObject({ From: "A <a@b.test>", To: "x@y.test", HtmlBody: "<p>H</p>", TextBody: "T", MessageStream: "outbound", Metadata: { idempotency_key: "key-1" } });
  });

  it("passes a message's own headers on (List-Unsubscribe on report mail, issue 39): Resend's object, Postmark's list", () => {
    const headers = { "List-Unsubscribe": "<https://app.test/u/t>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
    expect(JSON.parse(mailRequest(config("resend"), { ...mail, headers }).init.body as string).headers).toEqual(headers);
    expect(JSON.parse(mailRequest(config("postmark"), { ...mail, headers }).init.body as string).Headers).toEqual([
      { Name: "X-Porchlight-Message-Id", Value: "key-1" },
      { Name: "List-Unsubscribe", Value: "<https://app.test/u/t>" },
      { Name: "List-Unsubscribe-Post", Value: "List-Unsubscribe=One-Click" },
    ]);
  });

  it("maps answers: 2xx sent, 5xx/429/401 retry, other 4xx permanent", () => {
    expect(classifyResponse("resend", 200, { id: "r1" })).toEqual({ ok: true, providerMessageId: "r1" });
    expect(classifyResponse("postmark", 200, { MessageID: "p1", ErrorCode: 0 })).toEqual({ ok: true, providerMessageId: "p1" });
    for (const status of [500, 502, 503, 429, 408, 409, 401, 403]) expect(classifyResponse("resend", status, {})).toMatchObject({ ok: false, permanent: false });
    for (const status of [400, 404, 422]) expect(classifyResponse("postmark", status, { ErrorCode: 300, Message: "bad" })).toMatchObject({ ok: false, permanent: true });
  });

  it("is off without a known MAIL_PROVIDER", () => {
    expect(mailConfig({ ...env, MAIL_PROVIDER: "" })).toBeNull();
    expect(mailConfig({ ...env, MAIL_PROVIDER: "smtp" })).toBeNull();
  });
});

describe("mail templates", () => {
  it("give every kind both parts with the product, the link, its expiry and what to do if it was not you", () => {
    for (const kind of ["confirm_signup", "reset_password", "email_change"] as const) {
      const m = renderMail(kind, { to: "a@b.test", link: "https://app.test/auth/v1/verify?token=abc&type=x" });
      for (const part of [m.text, m.html]) {
        expect(part, kind).toContain("Porchlight");
        expect(part, kind).toMatch(/expires in/);
        expect(part, kind).toMatch(/ignore this message/);
      }
      expect(m.text).toContain("https://app.test/auth/v1/verify?token=abc&type=x");
      expect(m.html).toContain('href="https://app.test/auth/v1/verify?token=abc&amp;type=x"');
    }
  });

  it("escapes what the user typed in the HTML part", () => {
    const m = renderMail("email_change", { to: "<img src=x onerror=alert(1)>@b.test", link: "https://app.test/x" });
    expect(m.html).not.toContain("<img");
    expect(m.html).toContain("&lt;img");
  });
});
