// Report test fixtures: seeded prospects/reports (no queue message sent); and the queues every capability's tests
// share: recording queues, deliveries through the real consumer, the consumer settings in wrangler.toml.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { expect } from "vitest";
import wranglerToml from "../../../wrangler.toml?raw";
import worker from "../../../worker/index";
import { getDb } from "../../../worker/platform/db/client";
import { createProspectWithReport } from "../../../worker/features/reports/queries";
import { prospectFromForm } from "../../../worker/features/reports/rules/new-report";
import { NewReportInput } from "../../../worker/features/reports/rules/new-report";
import type { Env, ReportJobMessage, UsageEventMessage } from "../../../worker/platform/env";
import { forgetEachFile, signUp } from "../helpers";

export type Recorder<T> = { sent: T[]; queue: Queue<T> };

/** A Queue binding that only records what was sent. */
export function recorder<T>(): Recorder<T> {
  const sent: T[] = [];
  const queue = {
    async send(body: T) {
      sent.push(body);
    },
    async sendBatch(messages: Iterable<MessageSendRequest<T>>) {
      for (const m of messages) sent.push(m.body);
    },
  } as unknown as Queue<T>;
  return { sent, queue };
}

let owner: Promise<string> | undefined;
forgetEachFile(() => (owner = undefined));
/** One user per test file owns the seeded reports (the foreign key wants a real one). */
export function ownerId() {
  owner ??= signUp().then((u) => u.user.id);
  return owner;
}

/**
 * A prospect + report written straight to the database, queued but with no message on the real
 * queue (so the background consumer of the test runtime never races the test).
 * `marker` (e.g. "[fake:500]") goes into the description, which the prompt carries.
 */
export async function seedReport(
  marker = "",
  opts: { queued?: boolean; name?: string; companyName?: string; phone?: string } = {},
) {
  const unique = crypto.randomUUID().slice(0, 8);
  const input = NewReportInput.parse({
    name: opts.name ?? `Ridge Roofing ${unique}`,
    company_name: opts.companyName ?? `Ridge Roofing LLC ${unique}`,
    phone: opts.phone ?? "(512) 555-0142",
    description: `Roof repair and replacement ${marker}`.trim(),
    area: "Austin, TX",
    keyword: "roofer in austin",
  });
  const { prospect, questions } = prospectFromForm(input);
  const created = await createProspectWithReport(getDb(env), {
    prospect,
    questions,
    userId: await ownerId(),
    queued: opts.queued ?? true,
  });
  return { id: created.report.id, prospect: created.prospect, report: created.report };
}

export type ReportDbRow = {
  id: string;
  status: string;
  source: string | null;
  attempts: number;
  last_error: string | null;
  claimed_at: string | null;
  generated_at: string | null;
  version: number;
  content_generated: number;
  meta_seo: string | null;
  perfect_ad: string | null;
  potential: string | null;
  gmb_articles: string | null;
  blog_structures: string | null;
  facebook_posts: string | null;
  seo_potential: number | null;
};

export async function readReport(id: string): Promise<ReportDbRow> {
  const row = await env.DB.prepare("select * from seo_reports where id = ?").bind(id).first<ReportDbRow>();
  if (!row) throw new Error(`report ${id} not found`);
  return row;
}

/**
 * Runs the worker's queue handler on one batch and returns workerd's ack/retry result plus the
 * delays passed to `retry()`: workerd's test result lists retried messages without their delay.
 */
export async function deliver(
  queueName: string,
  messages: { body: unknown; attempts?: number; id?: string }[],
  testEnv: Env,
) {
  const batch = createMessageBatch(
    queueName,
    messages.map((m) => ({ id: m.id ?? crypto.randomUUID(), timestamp: new Date(), attempts: m.attempts ?? 1, body: m.body })),
  );
  const delays: { msgId: string; delaySeconds: number | undefined }[] = [];
  const observed = {
    queue: batch.queue,
    messages: batch.messages.map((m) => ({
      id: m.id,
      timestamp: m.timestamp,
      body: m.body,
      attempts: m.attempts,
      ack: () => m.ack(),
      retry: (options?: QueueRetryOptions) => {
        delays.push({ msgId: m.id, delaySeconds: options?.delaySeconds });
        m.retry(options);
      },
    })),
    ackAll: () => batch.ackAll(),
    retryAll: (options?: QueueRetryOptions) => batch.retryAll(options),
  } as unknown as MessageBatch<unknown>;
  const ctx = createExecutionContext();
  await worker.queue(observed, testEnv, ctx);
  const result = await getQueueResult(batch, ctx);
  return { batch, result, delays, ids: batch.messages.map((m) => m.id) };
}

/**
 * The settings of `queue`'s consumer in wrangler.toml, checked for the retries the code counts on and for its
 * dead-letter queue; each test checks its own further settings on what this returns.
 */
export function consumerSettings(queue: string, maxRetries: number): string {
  const block = new RegExp(`\\[\\[queues\\.consumers\\]\\]\\s*\\nqueue = "${queue}"\\n([\\s\\S]*?)(?:\\n\\[|$)`).exec(wranglerToml);
  expect(block).not.toBeNull();
  expect(/max_retries = (\d+)/.exec(block![1]!)?.[1]).toBe(String(maxRetries));
  expect(block![1]).toContain(`dead_letter_queue = "${queue}-dlq"`);
  return block![1]!;
}

/** The test env with `binding` replaced by a recording queue: what the code sends waits in `sent` for `drainQueue`. */
export function queueEnv<M>(binding: keyof Env, overrides: Partial<Env> = {}): { env: Env; sent: M[] } {
  const q = recorder<M>();
  return { env: { ...env, [binding]: q.queue, ...overrides } as Env, sent: q.sent };
}

export type Delivery<M> = { message: M; attempts: number; outcome: "ack" | "retry" };

/**
 * Delivers what was sent (and what those send) through the real consumer of `queueName`, `batch` messages a batch;
 * a retried message comes back with attempts + 1, as the queue would after its delay, and past `maxRetries` goes to
 * the `<queueName>-dlq` consumer. Stops when nothing is left or after `rounds`; `left` is what was still queued then.
 */
export async function drainQueue<M>(
  queueName: string,
  t: { env: Env; sent: M[] },
  opts: { maxRetries: number; rounds?: number; batch?: number },
) {
  const log: Delivery<M>[] = [];
  let queue = t.sent.splice(0).map((body) => ({ body, attempts: 1 }));
  for (let round = 0; queue.length > 0 && round < (opts.rounds ?? 50); round++) {
    const now = queue;
    queue = [];
    const size = opts.batch ?? now.length;
    for (let i = 0; i < now.length; i += size) {
      const part = now.slice(i, i + size);
      const { result, ids } = await deliver(queueName, part, t.env);
      const retried = new Set(result.retryMessages.map((r: { msgId: string }) => r.msgId));
      const dead: typeof queue = [];
      part.forEach((m, j) => {
        const again = retried.has(ids[j]!);
        log.push({ message: m.body, attempts: m.attempts, outcome: again ? "retry" : "ack" });
        if (!again) return;
        if (m.attempts >= opts.maxRetries + 1) dead.push(m);
        else queue.push({ body: m.body, attempts: m.attempts + 1 });
      });
      if (dead.length > 0) await deliver(`${queueName}-dlq`, dead, t.env);
    }
    queue.push(...t.sent.splice(0).map((body) => ({ body, attempts: 1 })));
  }
  return { log, left: queue };
}

/** The test env with an AI key and recording queues (the fake AI answers per the description's marker). */
export function aiEnv(): Env {
  return {
    ...env,
    AI_API_KEY: "test",
    USAGE_EVENTS: recorder<UsageEventMessage>().queue,
    REPORT_JOBS: recorder<ReportJobMessage>().queue,
  };
}

/** Runs `fn` with the worker's app while there is no Cache API (a runtime without it), then puts the API back. */
export async function withoutCacheApi(fn: (app: (typeof import("../../../worker/app"))["default"]) => Promise<void>) {
  const saved = (globalThis as { caches?: CacheStorage }).caches;
  Object.defineProperty(globalThis, "caches", { value: undefined, configurable: true });
  try {
    const { default: app } = await import("../../../worker/app");
    await fn(app);
  } finally {
    Object.defineProperty(globalThis, "caches", { value: saved, configurable: true });
  }
}

/** A report generated by the real consumer against the fake AI: ready, AI content, version 2. */
export async function readyReport(opts: { phone?: string; name?: string } = {}) {
  const seeded = await seedReport("[fake:ok]", opts);
  const { result } = await deliver("report-jobs", [{ body: { reportId: seeded.id } }], aiEnv());
  expect(result.explicitAcks).toHaveLength(1);
  return seeded;
}
