// Generates one report's content for a queue message: claim, AI call, validate, save; or retry, or template.
import { AiError, aiConfigured, billedOnFailure, chatCompletion, usageEvent } from "../../platform/providers/ai";
import { estimateTokens } from "../../domain/usage-cost";
import type { BatchItem } from "drizzle-orm/batch";
import { getDb } from "../../platform/db/client";
import { claim } from "../../platform/jobs/claim";
import type { ProspectRow } from "../prospects";
import {
  reportJob,
  type ReportRow,
  reportUnderClaim,
  getReportWithProspect,
  readReportJob,
  releaseForRetry,
  saveClaimedContentStatement,
  saveTemplateUnlessReady,
  requeueStale,
} from "./queries";
import type { NormalizedReportContent, ReportProspect } from "./rules/content";
import { parseReportContent, type ParseReportResult } from "./rules/parse";
import { REPORT_MAX_TOKENS, REPORT_TEMPERATURE, buildReportPrompt } from "./rules/prompt";
import { templateReportContent } from "./rules/template";
import type { Env, UsageEventMessage } from "../../platform/env";
import {
  AI_NOT_CONFIGURED_REASON,
  REPORT_MAX_ATTEMPTS,
  REPORT_TOOL_NAME,
  REPORT_TOOL_NAME_FAILED,
  STALE_GENERATING_MS,
  STALE_QUEUED_MS,
  reportModel,
  retryDelaySeconds,
} from "./config";
import { sendReportJobs } from "./enqueue";
import { purgeSharedReport } from "./shared-cache";
import { emitProspectEvent } from "../../platform/notifications/emit";
import { log } from "../../platform/log";
import { auditWait } from "../audits";
import { buildAuditView } from "../audits";
import { findingsFromAudit, type ReportFindings } from "./rules/findings";
import { listingsFromChecks } from "../citations";
import { reportAiVisibilityOf } from "../ai-visibility";
import { agencyPayer, type Payer } from "../../domain/metering";
import { reserveCall, reserveCallInBatch, userPayer, type ReserveResult } from "../../platform/metering/meter";
import { reportPayer as withWidgetCap } from "../widgets";

export type JobOutcome =
  | { kind: "skipped"; reason: "not_claimable" | "claim_lost" | "prospect_missing" }
  /** The prospect's audit is still running its fast steps: the job comes back after `delaySeconds` (issue 18). */
  | { kind: "wait"; delaySeconds: number }
  | { kind: "ready"; source: "ai" | "template"; version: number }
  | { kind: "retry"; delaySeconds: number; error: string };

/** Longest failure text kept in last_error. */
const MAX_ERROR_CHARS = 500;

export function toReportProspect(p: ProspectRow): ReportProspect {
  return {
    id: p.id,
    name: p.name,
    company_name: p.companyName,
    description: p.description,
    area: p.area,
    keyword: p.keyword,
    tag: p.tag,
  };
}

function clip(text: string): string {
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS - 1)}…` : text;
}

function parseFailure(result: Extract<ParseReportResult, { ok: false }>): string {
  switch (result.reason) {
    case "empty":
      return result.detail;
    case "malformed":
      return `The AI answered with malformed JSON: ${result.detail}`;
    case "schema":
      return `The AI answer did not match the report format: ${result.detail.replace(/\s+/g, " ")}`;
  }
}

/** Usage logging must never fail a generation: a lost event is logged, not retried. */
async function logUsage(env: Env, event: UsageEventMessage): Promise<void> {
  try {
    await env.USAGE_EVENTS.send(event);
  } catch (error) {
    log.error("usage-events send failed; usage event lost", { eventId: event.event_id, tool: event.tool_name }, error);
  }
}

/** Runs the save's statements with the meter's settle in one batch: answers their results. */
type SettleWithSave = (statements: readonly BatchItem<"sqlite">[]) => Promise<unknown[]>;

/**
 * An AI attempt's outcome. `bookkeeping` (the meter's settle and the usage row) runs beside the save that follows
 * and never rejects; a refusal made no call and has none.
 */
type AiAttempt = (
  | { ok: true; content: NormalizedReportContent; settle: SettleWithSave }
  | { ok: false; error: string }
) & { bookkeeping: Promise<unknown> };
type AiRefused = { ok: false; refused: string };

/** The audit's overall score is the report's SEO potential when the audit had data (issue 18). */
function withAuditScore(parsed: ParseReportResult, findings: ReportFindings | null): ParseReportResult {
  if (!parsed.ok || findings?.overall == null) return parsed;
  const score = Math.min(100, Math.max(1, findings.overall));
  return { ...parsed, content: { ...parsed.content, seoPotential: { ...parsed.content.seoPotential, score } } };
}

/** Reports started without a known admin (data from before reports kept their creator) are charged here. */
const UNKNOWN_ADMIN = "unknown-admin";

/**
 * The payer of a report's AI call: the admin who started it (their allowance read), or the unknown admin; a widget
 * lead's first report is held to its widget's daily cap too.
 */
function reportPayer(env: Env, userId: string | null, reportId: string): Promise<Payer> {
  const db = getDb(env);
  // Admin work on prospects is charged to the admin who started it.
  const base = userId ? userPayer(env, db, userId) : Promise.resolve(agencyPayer(UNKNOWN_ADMIN));
  return withWidgetCap(db, base, reportId);
}

/** The report's AI call, as the meter estimates it. */
function reportCall(env: Env, prompt: string) {
  return { kind: "ai" as const, model: reportModel(env), prompt, maxTokens: REPORT_MAX_TOKENS };
}

/** One metered AI call, validated; every call (success or failure) sends one usage event. Refused: no call at all. */
async function generateWithAi(
  env: Env,
  prospect: ReportProspect,
  userId: string | null,
  payer: Payer,
  findings: ReportFindings | null,
  prompt: string,
  batched: ReserveResult | null,
): Promise<AiAttempt | AiRefused> {
  const model = reportModel(env);
  // Reserved in the claim's batch for this payer and prompt; otherwise (the report changed hands since it was read) now.
  const reserved = batched ?? (await reserveCall(env, payer, reportCall(env, prompt)));
  if (!reserved.ok) return { ok: false, refused: reserved.refusal.message };
  const ticket = reserved.ticket;
  try {
    const result = await chatCompletion(env, {
      model,
      messages: [{ role: "user", content: prompt }],
      maxTokens: REPORT_MAX_TOKENS,
      temperature: REPORT_TEMPERATURE,
      json: true,
    });
    const parsed = withAuditScore(parseReportContent(result.content, prospect), findings);
    const failure = parsed.ok ? null : clip(parseFailure(parsed));
    const usage = { kind: "ai", model: result.model, inputTokens: result.usage.input_tokens, outputTokens: result.usage.output_tokens } as const;
    const bookkeeping = Promise.all([
      // Content to save: the settle goes into the save's batch (`settle`); otherwise it runs here.
      parsed.ok ? null : ticket.settle(usage),
      logUsage(
        env,
        usageEvent({
          userId,
          toolName: failure ? REPORT_TOOL_NAME_FAILED : REPORT_TOOL_NAME,
          model: result.model,
          prompt,
          response: result.content,
          usage: result.usage,
          ...(failure ? { responseData: { error: failure, response: result.content } } : {}),
        }),
      ),
    ]);
    return parsed.ok ? { ok: true, content: parsed.content, bookkeeping, settle: (statements) => ticket.settleWith(usage, statements) } : { ok: false, error: failure!, bookkeeping };
  } catch (error) {
    const aiError = error instanceof AiError ? error : new AiError("connection", String(error));
    // Possibly billed (time-out, dropped connection, empty answer): the prompt is settled; a refusal is released.
    const message = clip(aiError.message);
    const bookkeeping = Promise.all([
      billedOnFailure(aiError) ? ticket.settle({ kind: "ai", model, inputTokens: estimateTokens(prompt), outputTokens: 0 }) : ticket.release(),
      logUsage(
        env,
        usageEvent({
          userId,
          toolName: REPORT_TOOL_NAME_FAILED,
          model,
          prompt,
          response: "",
          responseData: { error: message, kind: aiError.kind, status: aiError.status ?? null },
        }),
      ),
    ]);
    return { ok: false, error: message, bookkeeping };
  }
}

/**
 * Handles one `report-jobs` delivery (`delivery` = message.attempts, 1-based). Idempotent: a report
 * that is ready, or being generated by a fresh claim, is left alone.
 */
export async function processReportJob(env: Env, reportId: string, delivery: number): Promise<JobOutcome> {
  const db = getDb(env);
  // One round trip before the claim: the report, its prospect and the prospect's latest audit with its steps.
  const read = await readReportJob(db, reportId);
  // Generation waits (up to a bound) for the prospect's audit's fast steps, then writes with what it has.
  if (read.report && read.prospect && read.report.status !== "ready") {
    const wait = auditWait(env, read.audit, read.steps);
    if (wait !== null) return { kind: "wait", delaySeconds: wait };
  }
  // The payer's allowance and the prompt come before the claim, so the claim and the AI call's reservation are one
  // round trip: the reservation is taken only when the claim succeeds, in the same transaction.
  const userId = read.report?.userId ?? null;
  const payer = aiConfigured(env) ? await reportPayer(env, userId, reportId) : null;
  const readProspect = read.prospect ? toReportProspect(read.prospect) : null;
  const findings = read.audit ? findingsFromAudit(buildAuditView(read.audit, read.steps, null)) : null;
  const listings = read.listingScan ? listingsFromChecks(read.listingScan.createdAt, read.listingChecks) : null;
  const aiVisibility = reportAiVisibilityOf(read.aiScan);
  const prompt = readProspect ? buildReportPrompt(readProspect, findings, listings, aiVisibility) : null;
  const now = Date.now();
  const claimedAtIso = new Date(now).toISOString();
  const batched = payer && prompt !== null ? reserveCallInBatch(env, db, payer, reportCall(env, prompt), reportUnderClaim(reportId, claimedAtIso)) : null;
  const [[claimed], ...then] = (await db.batch([
    claim(db, reportJob, [reportId], { now: claimedAtIso, staleBefore: new Date(now - STALE_GENERATING_MS).toISOString() }),
    ...((batched?.statements ?? []) as []),
  ])) as unknown as [ReportRow[], ...unknown[]];
  if (!claimed) return { kind: "skipped", reason: "not_claimable" };
  const claimedAt = claimed.claimedAt!;
  const reservedInClaim = batched ? batched.result(then) : null;
  // Reserved for another payer than the claim's (the report changed hands since it was read): given back.
  const samePayer = claimed.userId === userId;
  if (reservedInClaim?.ok && !samePayer) await reservedInClaim.ticket.release();

  try {
    const prospectRow = read.prospect?.id === claimed.prospectId ? read.prospect : null;
    if (!prospectRow || !readProspect || prompt === null) {
      if (reservedInClaim?.ok) await reservedInClaim.ticket.release();
      return { kind: "skipped", reason: "prospect_missing" };
    }
    const prospect = readProspect;

    const save = async (
      content: NormalizedReportContent,
      source: "ai" | "template",
      lastError: string | null,
      settle?: SettleWithSave,
    ): Promise<JobOutcome> => {
      // After an AI answer the meter's settle goes into the save's batch: the report is ready one round trip sooner.
      const saving = saveClaimedContentStatement(db, reportId, claimedAt, { content, source, lastError });
      const rows = settle ? ((await settle([saving]))[0] as { version: number }[]) : await saving;
      const version = rows[0]?.version ?? null;
      if (version == null) return { kind: "skipped", reason: "claim_lost" };
      await purgeSharedReport(env, reportId, version - 1);
      await emitReportReady(env, { reportId, prospectId: prospectRow.id, name: prospectRow.name, source, version });
      return { kind: "ready", source, version };
    };

    // No payer: AI is not configured.
    if (!payer) return await save(templateReportContent(prospect, findings), "template", AI_NOT_CONFIGURED_REASON);

    const attempt = samePayer
      ? await generateWithAi(env, prospect, claimed.userId, payer, findings, prompt, reservedInClaim)
      : await generateWithAi(env, prospect, claimed.userId, await reportPayer(env, claimed.userId, reportId), findings, prompt, null);
    // The meter refused (allowance or daily ceiling): template content now, with the reason; Regenerate later.
    if ("refused" in attempt) return await save(templateReportContent(prospect, findings), "template", clip(attempt.refused));
    // The usage row goes beside the save, the meter's settle inside its batch: the report is ready one round trip sooner.
    const finish = async (outcome: Promise<JobOutcome>): Promise<JobOutcome> => {
      try {
        return await outcome;
      } finally {
        await attempt.bookkeeping;
      }
    };
    if (attempt.ok) return await finish(save(attempt.content, "ai", null, attempt.settle));

    const attemptNumber = Math.max(delivery, claimed.attempts);
    if (attemptNumber >= REPORT_MAX_ATTEMPTS) {
      return await finish(
        save(templateReportContent(prospect, findings), "template", clip(`AI generation failed ${claimed.attempts} times; last error: ${attempt.error}`)),
      );
    }
    const delaySeconds = retryDelaySeconds(env, attemptNumber);
    const dueAt = new Date(Date.now() + delaySeconds * 1000).toISOString();
    await Promise.all([releaseForRetry(db, reportId, claimedAt, attempt.error, dueAt), attempt.bookkeeping]);
    return { kind: "retry", delaySeconds, error: attempt.error };
  } catch (error) {
    // Unexpected (the database, most likely): give the claim back so the retry can take it.
    await releaseForRetry(db, reportId, claimedAt, clip(`Internal error: ${String(error)}`), new Date().toISOString()).catch(
      () => undefined,
    );
    throw error;
  }
}

/** report.ready to the webhooks: once per version (a regeneration is a new version, so it is sent again). */
function emitReportReady(env: Env, r: { reportId: string; prospectId: string; name: string; source: "ai" | "template"; version: number }) {
  return emitProspectEvent(env, {
    prospectId: r.prospectId,
    reportId: r.reportId,
    alert: null,
    webhook: "report.ready",
    at: new Date().toISOString(),
    dedupeKey: `report_ready:${r.reportId}:${r.version}`,
    data: { name: r.name, source: r.source, version: r.version },
  });
}

/** The dead-letter path: whatever reaches it gets template content, unless it is ready already. */
export async function saveTemplateForDeadLetter(env: Env, reportId: string, deliveries: number): Promise<boolean> {
  const db = getDb(env);
  const found = await getReportWithProspect(db, reportId);
  if (!found || found.report.status === "ready") return false;
  const reason = clip(
    `Generation did not finish after ${deliveries} deliveries${found.report.lastError ? `; last error: ${found.report.lastError}` : ""}`,
  );
  const version = await saveTemplateUnlessReady(db, reportId, templateReportContent(toReportProspect(found.prospect)), reason);
  if (version != null) {
    await purgeSharedReport(env, reportId, version - 1);
    await emitReportReady(env, { reportId, prospectId: found.prospect.id, name: found.prospect.name, source: "template", version });
  }
  return version != null;
}

/** The cron sweep: re-queues stale `generating` claims and long-overdue `queued` reports. */
export async function sweepStaleReports(env: Env, now = Date.now()): Promise<{ generating: string[]; queued: string[] }> {
  const db = getDb(env);
  const stale = await requeueStale(
    db,
    new Date(now).toISOString(),
    new Date(now - STALE_GENERATING_MS).toISOString(),
    new Date(now - STALE_QUEUED_MS).toISOString(),
  );
  await sendReportJobs(env, [...stale.generating, ...stale.queued]);
  if (stale.generating.length || stale.queued.length) {
    log.info("report sweep", { staleClaims: stale.generating.length, overdueQueued: stale.queued.length });
  }
  return stale;
}
