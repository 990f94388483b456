// Reports use the audit (issue 18): creating or generating a report starts an audit of its prospect (unless one from
// the last 7 days exists), and generation waits for the audit's fast steps (find, fetch, rank) up to a bound.
import { inArray } from "drizzle-orm";
import { getDb } from "../../platform/db/client";
import { latestAudit, type AuditRow, type AuditStepRow } from "./queries";
import { prospects } from "../prospects/tables";
import { seoReports } from "../reports/tables";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { FAST_STEPS, REPORT_WAIT_POLL_SECONDS, reportWaitMs } from "./config";
import { auditCanCheck, startAudit } from "./run";
import { prospectSubject } from "./subject";
import { rerunAfter } from "./view";

/** Starts an audit of each prospect that has none from the last 7 days. Never throws: a report never fails for it. */
export async function ensureProspectAudits(env: Env, prospectIds: readonly string[], userId: string): Promise<number> {
  const db = getDb(env);
  let started = 0;
  for (let i = 0; i < prospectIds.length; i += 90) {
    const rows = await db.select().from(prospects).where(inArray(prospects.id, prospectIds.slice(i, i + 90)));
    for (const prospect of rows) {
      try {
        const latest = await latestAudit(db, { prospectId: prospect.id });
        if (latest && rerunAfter(latest)) continue;
        const subject = prospectSubject(prospect);
        // An audit that could check nothing is not run: the report says what it has instead of "No data" everywhere.
        if (!auditCanCheck(env, subject)) continue;
        await startAudit(env, { kind: "prospect", prospectId: prospect.id, userId, subject });
        started++;
      } catch (error) {
        log.error("audits: could not start the audit of a report's prospect", { prospectId: prospect.id }, error);
      }
    }
  }
  return started;
}

/** The same, for reports by id (Generate All). */
export async function ensureReportAudits(env: Env, reportIds: readonly string[], userId: string): Promise<number> {
  const db = getDb(env);
  const ids: string[] = [];
  for (let i = 0; i < reportIds.length; i += 90) {
    const rows = await db.select({ prospectId: seoReports.prospectId }).from(seoReports).where(inArray(seoReports.id, reportIds.slice(i, i + 90)));
    ids.push(...rows.map((r) => r.prospectId));
  }
  return ensureProspectAudits(env, ids, userId);
}

/**
 * Whether the report's generation should wait: its prospect's latest audit (with its steps) still runs a fast step
 * and started less than the bound ago. The job comes back after a short delay (re-sent, not retried, so no try is
 * used up).
 */
export function auditWait(env: Env, latest: AuditRow | null, steps: readonly AuditStepRow[], now = Date.now()): number | null {
  if (!latest || latest.status === "done") return null;
  if (now - Date.parse(latest.createdAt) >= reportWaitMs(env)) return null;
  const busy = steps.some((s) => FAST_STEPS.includes(s.step) && (s.status === "pending" || s.status === "running"));
  return busy ? REPORT_WAIT_POLL_SECONDS : null;
}
