// Audit test fixtures: an env whose AUDITS queue records what is sent, and a drain that delivers those messages through
// the worker's real queue handler (retries re-delivered with the next attempt number) until none are left.
import { env } from "cloudflare:test";
import { expect } from "vitest";
import type { AuditStepMessage, Env } from "../../../worker/platform/env";
import { deliver, recorder, type Recorder } from "../reports/reports-fixtures";
import { callWorker, forgetEachFile, signUpAdmin } from "../helpers";

export type AuditEnv = { env: Env; sent: AuditStepMessage[] };

export function auditEnv(overrides: Partial<Env> = {}): AuditEnv {
  const audits: Recorder<AuditStepMessage> = recorder<AuditStepMessage>();
  return { env: { ...env, AUDITS: audits.queue, ...overrides } as Env, sent: audits.sent };
}

/** The env as extra bindings for callWorker. */
export function bindings(t: AuditEnv): Record<string, unknown> {
  return t.env as unknown as Record<string, unknown>;
}

export type Delivery = { message: AuditStepMessage; attempts: number; outcome: "ack" | "retry" };

/**
 * Delivers every recorded message (and what those send) through the real consumer; a retried message comes back
 * with attempts + 1, as the queue would after its delay. `hold` keeps matching messages back (returned, undelivered).
 */
export async function drain(t: AuditEnv, opts: { hold?: (m: AuditStepMessage) => boolean; dlq?: boolean } = {}) {
  const log: Delivery[] = [];
  const held: AuditStepMessage[] = [];
  let queue: { body: AuditStepMessage; attempts: number }[] = t.sent.splice(0).map((body) => ({ body, attempts: 1 }));
  for (let round = 0; queue.length > 0 && round < 50; round++) {
    const now = queue.filter((m) => !opts.hold?.(m.body));
    held.push(...queue.filter((m) => opts.hold?.(m.body)).map((m) => m.body));
    queue = [];
    if (now.length === 0) break;
    const { result, ids } = await deliver("audits", now.map((m) => ({ body: m.body, attempts: m.attempts })), t.env);
    const retried = new Set(result.retryMessages.map((r: { msgId: string }) => r.msgId));
    now.forEach((m, i) => {
      const again = retried.has(ids[i]!);
      log.push({ message: m.body, attempts: m.attempts, outcome: again ? "retry" : "ack" });
      if (again) {
        if (m.attempts >= 5) {
          if (opts.dlq !== false) queue.push({ body: m.body, attempts: -1 });
        } else queue.push({ body: m.body, attempts: m.attempts + 1 });
      }
    });
    // Dead-lettered ones go to the DLQ consumer.
    const dead = queue.filter((m) => m.attempts === -1);
    queue = queue.filter((m) => m.attempts !== -1);
    if (dead.length > 0) await deliver("audits-dlq", dead.map((m) => ({ body: m.body, attempts: 5 })), t.env);
    queue.push(...t.sent.splice(0).map((body) => ({ body, attempts: 1 })));
  }
  return { log, held };
}

let admin: Promise<Awaited<ReturnType<typeof signUpAdmin>>> | undefined;
forgetEachFile(() => (admin = undefined));
export function auditAdmin() {
  admin ??= signUpAdmin();
  return admin;
}

/** A prospect made through POST /api/reports (Save Only: no report job), answering its id. */
export async function makeProspect(t: AuditEnv, fields: { name: string; website?: string; keyword?: string; phone?: string; area?: string }) {
  const a = await auditAdmin();
  const res = await callWorker(
    "/api/reports",
    {
      method: "POST",
      token: a.session.access_token,
      json: { name: fields.name, area: fields.area ?? "Austin, TX", keyword: fields.keyword ?? "plumber austin", phone: fields.phone ?? "", website: fields.website ?? "", generate: false },
    },
    bindings(t),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.prospect.id as string;
}

export async function startProspectAudit(t: AuditEnv, prospectId: string) {
  const a = await auditAdmin();
  const res = await callWorker("/api/audits", { method: "POST", token: a.session.access_token, json: { prospectId } }, bindings(t));
  // A prospect saved with a website was audited already (POST /api/reports starts it): that audit is the one.
  if (res.status === 409) return readAudit(t, res.body.auditId as string);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as import("../../../worker/features/audits/rules/view").AuditView;
}

export async function readAudit(t: AuditEnv, id: string) {
  const a = await auditAdmin();
  const res = await callWorker(`/api/audits/${id}`, { token: a.session.access_token }, bindings(t));
  expect(res.status).toBe(200);
  return res.body as import("../../../worker/features/audits/rules/view").AuditView;
}

export function checkOf(view: import("../../../worker/features/audits/rules/view").AuditView, id: string) {
  const c = view.checks.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
}

/** The requests the fake website received (it runs in another process). */
export async function siteRequests(): Promise<{ path: string; host: string }[]> {
  return ((await (await fetch(`${env.TEST_WEBSITE_URL}/__requests`)).json()) as { requests: { path: string; host: string }[] }).requests;
}

export async function searchRequests(): Promise<{ q: string; engine?: string }[]> {
  return ((await (await fetch(`${env.SERPAPI_BASE_URL}/__requests`)).json()) as { requests: { q: string; engine?: string }[] }).requests;
}
