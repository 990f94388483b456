// /api/reports/jobs and regeneration: the admin Jobs panel (reports queued, generating, failed or on template content). Admin only.
import { Hono } from "hono";
import { aiConfigured } from "../../platform/providers/ai";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { getReportJob, listReportJobs, markAllForRegeneration, markForRegeneration, type ReportJobRow } from "./jobs-queries";
import { GENERATION_DEFERRED_MESSAGE } from "./rules/new-report";
import {
  AI_OFF_MESSAGE,
  ALREADY_AI_MESSAGE,
  JOBS_LIST_LIMIT,
  jobKind,
  type JobKind,
  type RegenerateAllResponse,
  type RegenerateResponse,
  type ReportJob,
  type ReportJobsResponse,
} from "./rules/jobs";
import { apiError, ErrorCode } from "../../platform/errors";
import { validId } from "../../platform/validate";
import { REPORT_MAX_ATTEMPTS } from "./config";
import { sendReportJobs } from "./enqueue";
import { REPORT_NOT_FOUND } from "./rules/status";
import { log } from "../../platform/log";

function jobJson(row: ReportJobRow): ReportJob | null {
  const kind = jobKind(row.status, row.source);
  if (!kind) return null;
  return {
    id: row.id,
    kind,
    status: row.status,
    source: row.source,
    attempts: row.attempts,
    max_attempts: REPORT_MAX_ATTEMPTS,
    last_error: row.lastError,
    claimed_at: row.claimedAt,
    created_at: row.createdAt,
    generated_at: row.generatedAt,
    prospect: { id: row.prospectId, name: row.name, company_name: row.companyName },
  };
}

/** Sends the messages; a failed send leaves the reports queued for the sweep and says so. */
async function send(env: AppEnv["Bindings"], ids: string[]): Promise<string | undefined> {
  try {
    await sendReportJobs(env, ids);
    return undefined;
  } catch (error) {
    log.error("report-jobs send failed; the sweep sends them later", { reports: ids.length }, error);
    return GENERATION_DEFERRED_MESSAGE;
  }
}

// Each route carries its own guards: this sub-app shares the /api/reports prefix with reportRoutes.
export const reportJobRoutes = new Hono<AppEnv>()
  .get("/jobs", requireUser, requireAdmin, async (c) => {
    const { rows, counts } = await listReportJobs(getDb(c.env), JOBS_LIST_LIMIT);
    const totals: Record<JobKind, number> = { generating: 0, queued: 0, failed: 0, template: 0 };
    for (const row of counts) {
      const kind = jobKind(row.status, row.source);
      if (kind) totals[kind] += row.n;
    }
    const all = Object.values(totals).reduce((a, b) => a + b, 0);
    const body: ReportJobsResponse = {
      jobs: rows.flatMap((r) => jobJson(r) ?? []),
      counts: totals,
      truncated: all > rows.length,
      ai_configured: aiConfigured(c.env),
    };
    return c.json(body);
  })

  .post("/regenerate-template", requireUser, requireAdmin, async (c) => {
    if (!aiConfigured(c.env)) return apiError(c, 409, ErrorCode.notConfigured, AI_OFF_MESSAGE);
    const ids = await markAllForRegeneration(getDb(c.env));
    const warning = ids.length ? await send(c.env, ids) : undefined;
    const body: RegenerateAllResponse = { queued: ids.length, ...(warning ? { warning } : {}) };
    return c.json(body, 202);
  })

  .post("/:id/regenerate", requireUser, requireAdmin, validId(REPORT_NOT_FOUND), async (c) => {
    const { id } = c.req.valid("param");
    const db = getDb(c.env);
    const before = await getReportJob(db, id);
    if (!before) return apiError(c, 404, ErrorCode.notFound, REPORT_NOT_FOUND);
    if (before.status === "ready" && before.source === "ai") return apiError(c, 409, ErrorCode.conflict, ALREADY_AI_MESSAGE);
    if (!aiConfigured(c.env)) return apiError(c, 409, ErrorCode.notConfigured, AI_OFF_MESSAGE);
    // Compare-and-set: a second click (or a report already queued or generating) sends nothing more.
    const enqueued = await markForRegeneration(db, id);
    const warning = enqueued ? await send(c.env, [id]) : undefined;
    const after = enqueued ? ((await getReportJob(db, id)) ?? before) : before;
    const job = jobJson(after);
    if (!job) return apiError(c, 409, ErrorCode.conflict, ALREADY_AI_MESSAGE);
    const body: RegenerateResponse = { job, enqueued, ...(warning ? { warning } : {}) };
    return c.json(body, 202);
  });
