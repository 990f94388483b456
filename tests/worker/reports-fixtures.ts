// Report test fixtures: seeded prospects/reports (no queue message sent), recording queues, one-message deliveries.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import worker from "../../worker/index";
import { getDb } from "../../worker/db/client";
import { createProspectWithReport } from "../../worker/db/reports";
import { prospectFromForm } from "../../worker/domain/new-report";
import { NewReportInput } from "../../worker/domain/new-report";
import type { Env } from "../../worker/env";
import { signUp } from "./helpers";

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
  const created = await createProspectWithReport(getDb(env.DB), {
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
