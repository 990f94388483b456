// Outgoing webhooks (issue 21): endpoints (admins only, the URL rule, the secret shown once and sealed), deliveries signed
// the Stripe way and checked here with node:crypto's own HMAC, one send per delivery however often its message arrives,
// retries with backoff, the pause after a day of failures (owner alerted in the app and by mail), replay, test events,
// and the dead-letter consumer. Every request goes to the loopback receiver (tests/fakes/webhook-receiver-fake.ts).
import { createHmac } from "node:crypto";
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import wranglerToml from "../../../wrangler.toml?raw";
import app from "../../../worker/app";
import type { Env, MailOutMessage, WebhooksOutMessage } from "../../../worker/platform/env";
import { emitProspectEvent } from "../../../worker/platform/notifications/emit";
import { processDelivery } from "../../../worker/platform/notifications/webhooks";
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_MAX_SECONDS, webhookRetryDelaySeconds } from "../../../worker/platform/notifications/rules/lead-alerts";
import { signUp, signUpAdmin, testIp } from "../helpers";
import { deliver, recorder, seedReport } from "../reports/reports-fixtures";

type Received = { path: string; headers: Record<string, string>; body: string; status: number };

/** A queue binding that records bodies and the delay each was sent with. */
function delayRecorder() {
  const sent: { body: WebhooksOutMessage; delaySeconds?: number }[] = [];
  const queue = {
    async send(body: WebhooksOutMessage, opts?: { delaySeconds?: number }) {
      sent.push({ body, delaySeconds: opts?.delaySeconds });
    },
    async sendBatch(messages: Iterable<MessageSendRequest<WebhooksOutMessage>>) {
      for (const m of messages) sent.push({ body: m.body, delaySeconds: m.delaySeconds });
    },
  } as unknown as Queue<WebhooksOutMessage>;
  return { sent, queue };
}

function hookEnv(overrides: Partial<Env> = {}) {
  const out = delayRecorder();
  return { env: { ...env, WEBHOOKS_OUT: out.queue, ...overrides } as Env, sent: out.sent };
}

async function call(e: Env, path: string, init: RequestInit & { token?: string; json?: unknown; viewAs?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set("CF-Connecting-IP", testIp());
  if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
  if (init.viewAs) headers.set("X-View-As", init.viewAs);
  if (init.json !== undefined) headers.set("Content-Type", "application/json");
  const res = await app.request(path, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body }, e);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function received(path: string): Promise<Received[]> {
  const res = await fetch(`${env.TEST_WEBHOOKS_URL}/__requests?path=${encodeURIComponent(path)}`);
  return ((await res.json()) as { requests: Received[] }).requests;
}

function hookPath(word = "ok") {
  return `/hooks/${word}-${crypto.randomUUID().slice(0, 8)}`;
}

async function addEndpoint(e: Env, token: string, path: string, events = ["report.opened", "chat.lead_captured"]) {
  const res = await call(e, "/api/webhooks", { method: "POST", token, json: { url: `${env.TEST_WEBHOOKS_URL}${path}`, events } });
  expect(res.status).toBe(201);
  return res.body as { endpoint: { id: string; status: string }; secret: string };
}

/** An admin's endpoint at the receiver's `word` path (how it answers), and one event for it: its message in `sent`. */
async function eventTo(word: string) {
  const admin = await signUpAdmin();
  const { env: e, sent } = hookEnv();
  const path = hookPath(word);
  await addEndpoint(e, admin.session.access_token, path);
  await openEvent(e);
  return { e, sent, path };
}

async function deliveryRow(id: string) {
  return env.DB.prepare("select * from webhook_deliveries where id = ?").bind(id).first<{
    id: string;
    status: string;
    attempts: number;
    response_code: number | null;
    last_error: string | null;
    event_id: string;
    body: string;
    replay_of: string | null;
  }>();
}

async function endpointDeliveries(endpointId: string) {
  const { results } = await env.DB.prepare("select id, status, event_type, event_id from webhook_deliveries where endpoint_id = ? order by created_at").bind(endpointId).all<{ id: string; status: string; event_type: string; event_id: string }>();
  return results;
}

async function openEvent(e: Env, key = crypto.randomUUID()) {
  const seeded = await seedReport("", { queued: false });
  await emitProspectEvent(e, {
    prospectId: seeded.prospect.id,
    reportId: seeded.id,
    alert: null,
    webhook: "report.opened",
    at: new Date().toISOString(),
    dedupeKey: key,
    data: { first: true },
  });
  return seeded;
}

describe("webhook endpoints", () => {
  it("are for admins only; a user gets 403 and view-as cannot write", async () => {
    const user = await signUp();
    const admin = await signUpAdmin();
    const { env: e } = hookEnv();
    expect((await call(e, "/api/webhooks", { token: user.session.access_token })).status).toBe(403);
    expect((await call(e, "/api/webhooks", { method: "POST", token: user.session.access_token, json: { url: "https://hooks.example.com/x", events: ["report.ready"] } })).status).toBe(403);
    const viewAs = await call(e, "/api/webhooks", { method: "POST", token: admin.session.access_token, viewAs: user.user.id, json: { url: "https://hooks.example.com/x", events: ["report.ready"] } });
    expect(viewAs.status).toBe(403);
    expect(viewAs.body.error.code).toBe("view_as_read_only");
  });

  it("take https on public hosts only; loopback (over http too) only with WEBHOOKS_ALLOW_LOOPBACK", async () => {
    const admin = await signUpAdmin();
    const token = admin.session.access_token;
    const { env: prod } = hookEnv({ WEBHOOKS_ALLOW_LOOPBACK: "" });
    for (const url of ["http://hooks.example.com/x", "https://10.0.0.5/x", "https://169.254.169.254/latest", `${env.TEST_WEBHOOKS_URL}/hooks/x`, "https://localhost/x", "ftp://example.com/x"]) {
      const res = await call(prod, "/api/webhooks", { method: "POST", token, json: { url, events: ["report.ready"] } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
      expect(res.body.error.fields.url).toHaveLength(1);
    }
    expect((await call(prod, "/api/webhooks", { method: "POST", token, json: { url: "https://hooks.example.com/porchlight", events: ["report.ready"] } })).status).toBe(201);
    const { env: test } = hookEnv();
    expect((await call(test, "/api/webhooks", { method: "POST", token, json: { url: "http://10.0.0.5/x", events: ["report.ready"] } })).status).toBe(400);
    expect((await call(test, "/api/webhooks", { method: "POST", token, json: { url: `${env.TEST_WEBHOOKS_URL}/hooks/ok`, events: ["report.ready"] } })).status).toBe(201);
    expect((await call(test, "/api/webhooks", { method: "POST", token, json: { url: "https://hooks.example.com/x", events: ["nope"] } })).status).toBe(400);
  });

  it("refuse a host name that resolves to a private address (looked up over DNS); a name not resolving yet can be saved", async () => {
    const admin = await signUpAdmin();
    const token = admin.session.access_token;
    const { env: e } = hookEnv();
    for (const [url, ip] of [["https://169.254.169.254.nip.io/latest", "169.254.169.254"], ["https://mixed.rebind.example/hook", "fd00::1"], ["https://127.0.0.1.nip.io/hook", "127.0.0.1"]] as const) {
      const res = await call(e, "/api/webhooks", { method: "POST", token, json: { url, events: ["report.ready"] } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.fields.url[0]).toContain(`resolves to ${ip}`);
    }
    expect((await call(e, "/api/webhooks", { method: "POST", token, json: { url: "https://not-live-yet.example/hook", events: ["report.ready"] } })).status).toBe(201);
  });

  it("show the secret once, keep it sealed, and rotate it", async () => {
    const admin = await signUpAdmin();
    const { env: e } = hookEnv();
    const created = await addEndpoint(e, admin.session.access_token, hookPath());
    expect(created.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const row = await env.DB.prepare("select secret_ciphertext from webhook_endpoints where id = ?").bind(created.endpoint.id).first<{ secret_ciphertext: string }>();
    expect(row!.secret_ciphertext).not.toContain(created.secret.slice(6, 20));
    const list = await call(e, "/api/webhooks", { token: admin.session.access_token });
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    const rotated = await call(e, `/api/webhooks/${created.endpoint.id}`, { method: "PATCH", token: admin.session.access_token, json: { rotateSecret: true } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
  });
});

describe("webhook deliveries", () => {
  // Each test's event goes to its own endpoint only: the endpoints of earlier tests (same database) are paused.
  beforeEach(async () => {
    await env.DB.prepare("update webhook_endpoints set status = 'paused'").run();
  });

  it("are signed with HMAC-SHA256 over `t.body` (checked with node:crypto) and carry the delivery id", async () => {
    const admin = await signUpAdmin();
    const { env: e, sent } = hookEnv();
    const path = hookPath();
    const { endpoint, secret } = await addEndpoint(e, admin.session.access_token, path);
    const seeded = await openEvent(e);
    expect(sent).toHaveLength(1);
    const { result } = await deliver("webhooks-out", [{ body: sent[0]!.body }], e);
    expect(result.explicitAcks).toHaveLength(1);

    const [got] = await received(path);
    expect(got).toBeDefined();
    const signature = got!.headers["porchlight-signature"]!;
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature)!;
    expect(v1).toBe(createHmac("sha256", secret).update(`${t}.${got!.body}`).digest("hex"));
    expect(createHmac("sha256", "whsec_wrong").update(`${t}.${got!.body}`).digest("hex")).not.toBe(v1);
    expect(got!.headers["porchlight-delivery"]).toBe(sent[0]!.body.deliveryId);
    expect(got!.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(got!.body);
    expect(Object.keys(body)).toEqual(["id", "type", "created_at", "data"]);
    expect(body).toMatchObject({ type: "report.opened", data: { prospect_id: seeded.prospect.id, report_id: seeded.id, first: true } });
    expect(body.id).toMatch(/^evt_/);

    const row = await deliveryRow(sent[0]!.body.deliveryId);
    expect(row).toMatchObject({ status: "succeeded", attempts: 1, response_code: 200 });
    const log = await call(e, `/api/webhooks/${endpoint.id}/deliveries`, { token: admin.session.access_token });
    expect(log.body.deliveries[0]).toMatchObject({ id: row!.id, status: "succeeded", responseCode: 200, body: got!.body });
  });

  it("send once when the message arrives twice, and an event emitted twice is one delivery", async () => {
    const admin = await signUpAdmin();
    const { env: e, sent } = hookEnv();
    const path = hookPath();
    const { endpoint } = await addEndpoint(e, admin.session.access_token, path);
    const key = crypto.randomUUID();
    const seeded = await openEvent(e, key);
    await emitProspectEvent(e, { prospectId: seeded.prospect.id, reportId: seeded.id, alert: null, webhook: "report.opened", at: new Date().toISOString(), dedupeKey: key, data: {} });
    expect(sent).toHaveLength(1);
    expect(await endpointDeliveries(endpoint.id)).toHaveLength(1);
    const message = sent[0]!.body;
    await deliver("webhooks-out", [{ body: message }, { body: message }], e);
    await deliver("webhooks-out", [{ body: message, attempts: 2 }], e);
    expect(await received(path)).toHaveLength(1);
  });

  it("retry a failing endpoint with backoff (new delayed messages), then succeed", async () => {
    const { e, sent, path } = await eventTo("flaky");
    const first = sent.splice(0);
    const { result } = await deliver("webhooks-out", [{ body: first[0]!.body }], e);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await deliveryRow(first[0]!.body.deliveryId)).toMatchObject({ status: "retrying", attempts: 1, response_code: 500, last_error: "answered 500" });
    expect(sent).toEqual([{ body: first[0]!.body, delaySeconds: webhookRetryDelaySeconds(1) }]);
    await deliver("webhooks-out", [{ body: sent[0]!.body }], e);
    expect(await deliveryRow(first[0]!.body.deliveryId)).toMatchObject({ status: "succeeded", attempts: 2, response_code: 200 });
    const hits = await received(path);
    expect(hits.map((h) => h.status)).toEqual([500, 200]);
    expect(new Set(hits.map((h) => h.headers["porchlight-delivery"])).size).toBe(1);
  });

  it("back off from 30 s doubling to 12 h, over more than a day in all", () => {
    expect([1, 2, 3, 4].map(webhookRetryDelaySeconds)).toEqual([30, 60, 120, 240]);
    expect(webhookRetryDelaySeconds(20)).toBe(WEBHOOK_RETRY_MAX_SECONDS);
    let total = 0;
    for (let n = 1; n < WEBHOOK_MAX_ATTEMPTS; n++) total += webhookRetryDelaySeconds(n);
    expect(total).toBeGreaterThan(86_400);
    expect(WEBHOOK_RETRY_MAX_SECONDS).toBeLessThanOrEqual(43_200);
  });

  it("record a time-out as a failure to retry", async () => {
    const { e, sent } = await eventTo("timeout");
    const id = sent[0]!.body.deliveryId;
    expect(await processDelivery(e, id)).toBe("retrying");
    expect(await deliveryRow(id)).toMatchObject({ status: "retrying", response_code: null, last_error: "no answer within 1 s" });
  });

  it("guard every delivery: a name that now resolves to a private address is never posted to (failed, not retried); a resolver that is down is retried", async () => {
    const admin = await signUpAdmin();
    const { env: e, sent } = hookEnv();
    const made = await addEndpoint(e, admin.session.access_token, hookPath("rebind"));
    // The endpoint's name later points at the metadata address (DNS rebinding after it was saved).
    await env.DB.prepare("update webhook_endpoints set url = ? where id = ?").bind("https://metadata.rebind.example/hook", made.endpoint.id).run();
    await openEvent(e);
    const id = sent[0]!.body.deliveryId;
    expect(await processDelivery(e, id)).toBe("failed");
    expect(await deliveryRow(id)).toMatchObject({
      status: "failed",
      response_code: null,
      last_error: "address refused: metadata.rebind.example resolves to 169.254.169.254, which is a link-local address.",
    });

    const down = hookEnv({ DNS_RESOLVER_URL: "http://127.0.0.1:9/dns-query" });
    await env.DB.prepare("update webhook_endpoints set url = ? where id = ?").bind("https://hooks.example.com/hook", made.endpoint.id).run();
    await openEvent(down.env);
    const retried = down.sent[0]!.body.deliveryId;
    expect(await processDelivery(down.env, retried)).toBe("retrying");
    expect((await deliveryRow(retried))!.last_error).toBe("address refused: hooks.example.com could not be looked up just now; try again later.");
  });

  it("pause an endpoint failing for a day and alert its owner in the app and by mail; resume works", async () => {
    const admin = await signUpAdmin();
    const mail = recorder<MailOutMessage>();
    const { env: e, sent } = hookEnv({ MAIL_PROVIDER: "resend", MAIL_API_KEY: "k", MAIL_BASE_URL: env.TEST_MAIL_BASE_URL, MAIL_OUT: mail.queue });
    const path = hookPath("fail500");
    const { endpoint } = await addEndpoint(e, admin.session.access_token, path);
    await openEvent(e);
    const id = sent.splice(0)[0]!.body.deliveryId;
    expect(await processDelivery(e, id)).toBe("retrying");
    // 23 hours later it still fails: retried, not paused.
    await env.DB.prepare("update webhook_endpoints set failing_since = ? where id = ?").bind(new Date(Date.now() - 23 * 3_600_000).toISOString(), endpoint.id).run();
    expect(await processDelivery(e, id)).toBe("retrying");
    await env.DB.prepare("update webhook_endpoints set failing_since = ? where id = ?").bind(new Date(Date.now() - 25 * 3_600_000).toISOString(), endpoint.id).run();
    expect(await processDelivery(e, id)).toBe("paused");
    expect(await deliveryRow(id)).toMatchObject({ status: "failed" });

    const list = await call(e, "/api/webhooks", { token: admin.session.access_token });
    expect(list.body.endpoints.find((x: { id: string }) => x.id === endpoint.id)).toMatchObject({ status: "paused", lastStatusCode: 500 });
    const bell = await call(e, "/api/notifications", { token: admin.session.access_token });
    expect(bell.body.notifications[0]).toMatchObject({ kind: "webhook_paused", read: false });
    expect(mail.sent).toHaveLength(1);
    const mailRow = await env.DB.prepare("select subject, to_email from outbox where id = ?").bind(mail.sent[0]!.mailId).first<{ subject: string; to_email: string }>();
    expect(mailRow).toEqual({ subject: "A webhook endpoint was paused", to_email: admin.email.toLowerCase() });

    // A paused endpoint gets no new events and refuses tests; resumed, it is active with a clean slate.
    expect(sent.splice(0).map((m) => m.delaySeconds)).toEqual([webhookRetryDelaySeconds(1), webhookRetryDelaySeconds(2)]);
    await openEvent(e);
    expect(sent).toHaveLength(0);
    expect((await call(e, `/api/webhooks/${endpoint.id}/test`, { method: "POST", token: admin.session.access_token, json: {} })).status).toBe(409);
    const resumed = await call(e, `/api/webhooks/${endpoint.id}`, { method: "PATCH", token: admin.session.access_token, json: { status: "active" } });
    expect(resumed.body.endpoint).toMatchObject({ status: "active", failingSince: null });
  });

  it("replay a delivery as a new delivery of the same event, and send a test event", async () => {
    const admin = await signUpAdmin();
    const token = admin.session.access_token;
    const { env: e, sent } = hookEnv();
    const path = hookPath();
    const { endpoint } = await addEndpoint(e, token, path);
    await openEvent(e);
    const original = sent.splice(0)[0]!.body.deliveryId;
    await deliver("webhooks-out", [{ body: { deliveryId: original } }], e);

    const replay = await call(e, `/api/webhooks/${endpoint.id}/deliveries/${original}/replay`, { method: "POST", token });
    expect(replay.status).toBe(202);
    expect(replay.body.deliveryId).not.toBe(original);
    await deliver("webhooks-out", [{ body: sent.splice(0)[0]!.body }], e);
    const hits = await received(path);
    expect(hits).toHaveLength(2);
    expect(JSON.parse(hits[1]!.body).id).toBe(JSON.parse(hits[0]!.body).id);
    expect(hits[1]!.headers["porchlight-delivery"]).toBe(replay.body.deliveryId);
    expect(await deliveryRow(replay.body.deliveryId)).toMatchObject({ status: "succeeded", replay_of: original });

    const test = await call(e, `/api/webhooks/${endpoint.id}/test`, { method: "POST", token, json: { event: "chat.lead_captured" } });
    expect(test.status).toBe(202);
    await deliver("webhooks-out", [{ body: sent.splice(0)[0]!.body }], e);
    const last = JSON.parse((await received(path))[2]!.body);
    expect(last).toMatchObject({ type: "chat.lead_captured", data: { test: true } });

    expect((await call(e, `/api/webhooks/${endpoint.id}/deliveries/${crypto.randomUUID()}/replay`, { method: "POST", token })).status).toBe(404);
    const other = await addEndpoint(e, token, hookPath());
    expect((await call(e, `/api/webhooks/${other.endpoint.id}/deliveries/${original}/replay`, { method: "POST", token })).status).toBe(404);
  });

  it("are marked failed by the dead-letter consumer, never left sending", async () => {
    const admin = await signUpAdmin();
    const { env: e, sent } = hookEnv();
    await addEndpoint(e, admin.session.access_token, hookPath());
    await openEvent(e);
    const id = sent[0]!.body.deliveryId;
    const { result } = await deliver("webhooks-out-dlq", [{ body: { deliveryId: id } }, { body: { nonsense: true } }], e);
    expect(result.explicitAcks).toHaveLength(2);
    expect(await deliveryRow(id)).toMatchObject({ status: "failed" });
  });

  it("go through webhooks-out whose settings are all written in wrangler.toml", () => {
    const block = (queue: string) => new RegExp(`\\[\\[queues\\.consumers\\]\\]\\nqueue = "${queue}"\\n([^[]*)`).exec(wranglerToml)?.[1] ?? "";
    for (const setting of ["max_batch_size", "max_batch_timeout", "max_retries", "max_concurrency", "retry_delay", "dead_letter_queue"]) {
      expect(block("webhooks-out"), setting).toMatch(new RegExp(`^${setting} = `, "m"));
    }
    expect(block("webhooks-out-dlq")).toMatch(/^max_retries = /m);
    expect(wranglerToml).toMatch(/binding = "WEBHOOKS_OUT"\nqueue = "webhooks-out"/);
    expect(wranglerToml).toMatch(/^WEBHOOKS_ALLOW_LOOPBACK = ""$/m);
  });
});
