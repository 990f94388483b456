// Puts reports on the report-jobs queue: one message, or many with sendBatch in chunks of 100.
import { getDb } from "../../platform/db/client";
import { markAllQueued, markQueued } from "./queries";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";

/** Cloudflare Queues accept at most 100 messages per sendBatch call. */
export const SEND_BATCH_LIMIT = 100;

export async function sendReportJobs(env: Env, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += SEND_BATCH_LIMIT) {
    await env.REPORT_JOBS.sendBatch(ids.slice(i, i + SEND_BATCH_LIMIT).map((reportId) => ({ body: { reportId } })));
  }
}

export type EnqueueResult = { enqueued: boolean; sendFailed?: boolean };

/**
 * draft/failed → queued (compare-and-set), then one message. A report in any other state is left
 * alone. When the send fails the report stays queued and the sweep sends it later.
 */
export async function enqueueReport(env: Env, id: string): Promise<EnqueueResult> {
  const db = getDb(env);
  if (!(await markQueued(db, id))) return { enqueued: false };
  try {
    await env.REPORT_JOBS.send({ reportId: id });
    return { enqueued: true };
  } catch (error) {
    log.error("report-jobs send failed; the sweep sends it later", { reportId: id }, error);
    return { enqueued: true, sendFailed: true };
  }
}

/** Every draft/failed report → queued and sent. */
export async function enqueueAllUngenerated(env: Env, beforeSend?: (ids: string[]) => Promise<unknown>): Promise<{ ids: string[]; sendFailed: boolean }> {
  const ids = await markAllQueued(getDb(env));
  // The reports' audits start before their jobs are sent, so each job finds its audit and waits for it.
  if (beforeSend) await beforeSend(ids).catch((error: unknown) => log.error("before-send hook failed", { reports: ids.length }, error));
  try {
    await sendReportJobs(env, ids);
    return { ids, sendFailed: false };
  } catch (error) {
    log.error("report-jobs sendBatch failed; the sweep sends them later", { reports: ids.length }, error);
    return { ids, sendFailed: true };
  }
}
