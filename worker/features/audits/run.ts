// Runs audits through the `audits` queue (issue 18): starting one (its rows, then its first messages), one step per
// delivery under a claim (a redelivered message never does a step twice), the steps that wait for the listing sent once
// it is known, the audit's summary and the report's version kept current as each step lands.
import { keepGoodResult } from "./rules/checks";
import type { AuditStepId } from "./rules/view";
import { agencyPayer, type Payer } from "../../domain/metering";
import { getDb, type Db } from "../../platform/db/client";
import { claim } from "../../platform/jobs/claim";
import {
  auditRunning,
  auditStepJob,
  createAudit,
  failUnfinishedStep,
  finishStep,
  getAudit,
  releaseStep,
  staleSteps,
  updateAuditSummary,
  type AuditRow,
  type AuditSubjectRecord,
} from "./queries";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { userPayer } from "../../platform/metering/meter";
import { auditPayer } from "../widgets";
import { searchConfigured } from "../../platform/providers/local-search";
import { announce } from "../../platform/events";
import { AUDIT_STEP_MAX_ATTEMPTS, STALE_CLAIM_MARGIN_MS, STEP_DEADLINE_MS, TIMED_OUT_REASON, stepRetryDelaySeconds, stepTimeoutMs } from "./config";
import { SEARCH_UNAVAILABLE, runStep } from "./steps";
import { tellAgency } from "../../platform/notifications/tell-agency";
import { auditChecks, subjectOf } from "./view";
import { scoreAudit } from "./rules/score";

async function send(env: Env, auditId: string, steps: AuditStepId[]): Promise<void> {
  if (steps.length === 0) return;
  await env.AUDITS.sendBatch(steps.map((step) => ({ body: { auditId, step } })));
}

/** Whether an audit could check anything (issue 39): Google's steps need search; without it, only a website can be read. */
export function auditCanCheck(env: Env, subject: Pick<AuditSubjectRecord, "website">): boolean {
  return searchConfigured(env) || Boolean(subject.website);
}

/** Creates the audit and sends its first steps: find, and the website steps at once when the website is known. */
export async function startAudit(
  env: Env,
  input: { kind: "prospect" | "own"; prospectId: string | null; userId: string; subject: AuditSubjectRecord },
): Promise<AuditRow> {
  const db = getDb(env);
  const skipped: Partial<Record<AuditStepId, string>> = {};
  if (!searchConfigured(env)) {
    skipped.find = SEARCH_UNAVAILABLE;
    skipped.rank = SEARCH_UNAVAILABLE;
    // The customer reads "your agency has been told": make it so (one alert a day per missing service).
    await tellAgency(env, "search");
  }
  const audit = await createAudit(db, { ...input, skipped });
  const first: AuditStepId[] = skipped.find ? ["fetch", "speed"] : input.subject.website ? ["find", "fetch", "speed"] : ["find"];
  try {
    await send(env, audit.id, first);
  } catch (error) {
    // Not lost: the cron sends the unfinished steps of audits older than 10 minutes again.
    log.error("audits: send failed; the sweep sends it later", { auditId: audit.id }, error);
  }
  return audit;
}

/** The steps that wait for the find step: rank always, the website steps when no website was given. */
function dependents(subject: AuditSubjectRecord): AuditStepId[] {
  return subject.website ? ["rank"] : ["fetch", "speed", "rank"];
}

function needsFind(step: AuditStepId, subject: AuditSubjectRecord): boolean {
  return step !== "find" && dependents(subject).includes(step);
}

export type StepJobOutcome = { kind: "ack"; note?: string } | { kind: "retry"; delaySeconds: number; reason: string };

const UNKNOWN_PAYER = "unknown-admin";

async function payerOf(env: Env, db: Db, audit: AuditRow): Promise<Payer> {
  const payer: Payer = audit.userId ? await userPayer(env, db, audit.userId) : agencyPayer(UNKNOWN_PAYER);
  // A widget lead's audit counts against its widget's daily cap too (issue 26).
  return auditPayer(db, payer, audit);
}

/** Handles one `audits` delivery (`delivery` = message.attempts, 1-based). */
export async function processAuditStep(env: Env, auditId: string, step: AuditStepId, delivery: number): Promise<StepJobOutcome> {
  const db = getDb(env);
  const found = await getAudit(db, auditId);
  if (!found) return { kind: "ack", note: "audit missing" };
  const subject = subjectOf(found.audit);
  const findRow = found.steps.find((r) => r.step === "find");
  if (needsFind(step, subject) && (findRow?.status === "pending" || findRow?.status === "running")) {
    // Sent early (a re-run): the step comes back once the listing is known, without using up a try.
    return { kind: "ack", note: "waits for find" };
  }
  const now = Date.now();
  // One round trip: the claim, and the audit marked running.
  const [[taken]] = await db.batch([
    claim(db, auditStepJob, [auditId, step], { now: new Date(now).toISOString(), staleBefore: new Date(now - stepTimeoutMs(env, step) - STALE_CLAIM_MARGIN_MS).toISOString() }),
    auditRunning(db, auditId),
  ]);
  if (!taken) return { kind: "ack", note: "not claimable" };
  const claimedAt = taken.claimedAt!;
  const stored = found.steps.find((r) => r.step === step);

  let outcome;
  try {
    outcome = await runStep(env, step, found.audit, found.steps, await payerOf(env, db, found.audit));
  } catch (error) {
    await releaseStep(db, auditId, step, claimedAt, "an unexpected error; trying again").catch(() => undefined);
    throw error;
  }

  if (outcome.kind === "failed" && outcome.retryable && Math.max(delivery, taken.attempts) < AUDIT_STEP_MAX_ATTEMPTS) {
    await releaseStep(db, auditId, step, claimedAt, `${outcome.reason}; trying again`);
    return { kind: "retry", delaySeconds: stepRetryDelaySeconds(taken.attempts), reason: outcome.reason };
  }

  let status: "done" | "failed" | "skipped";
  let reason: string | null = null;
  let result: unknown = null;
  if (outcome.kind === "done") {
    status = "done";
    result = outcome.result;
  } else if (outcome.kind === "skipped") {
    status = "skipped";
    reason = outcome.reason;
  } else {
    // A failed call never overwrites an earlier good result (a re-run after the listing was picked).
    // A step being run again keeps its earlier result in the row until it is replaced.
    const earlier = stored?.result ? { status: "done" as const, result: stored.result } : null;
    const kept = keepGoodResult<{ status: "done" | "failed"; result?: string }>(earlier, { status: "failed" });
    if (kept.status === "done") {
      status = "done";
      result = JSON.parse(kept.result!);
      reason = `The latest try failed (${outcome.reason}); the earlier result is kept.`;
    } else {
      status = "failed";
      reason = outcome.reason;
    }
  }
  if (!(await finishStep(db, auditId, step, claimedAt, { status, reason, result }))) return { kind: "ack", note: "claim lost" };
  await afterStep(env, db, found.audit, step === "find");
  return { kind: "ack" };
}

/** After a step is stored: the waiting steps go out, the summary is updated, a written report shows the news. */
async function afterStep(env: Env, db: Db, audit: AuditRow, findFinished: boolean): Promise<void> {
  const [fresh] = await Promise.all([getAudit(db, audit.id), findFinished ? send(env, audit.id, dependents(subjectOf(audit))) : null]);
  if (!fresh) return;
  const done = fresh.steps.length === 4 && fresh.steps.every((s) => s.status !== "pending" && s.status !== "running");
  await updateAuditSummary(db, audit.id, done, scoreAudit(auditChecks(fresh.steps)).overall);
  if (audit.prospectId) await announce("prospect.findings-changed", { env, db, prospectId: audit.prospectId });
}

/** The dead-letter path: a step that never finished is failed with the reason, so the audit ends and says so. */
export async function failStepForDeadLetter(env: Env, auditId: string, step: AuditStepId, deliveries: number): Promise<void> {
  const db = getDb(env);
  const found = await getAudit(db, auditId);
  if (!found) return;
  const changed = await failUnfinishedStep(db, auditId, step, `the step did not finish after ${deliveries} tries`);
  if (changed) await afterStep(env, db, found.audit, step === "find");
}

/** When the audit last moved: its start, a step claimed or finished (a reopened step is stamped when reopened). */
function lastProgress(audit: AuditRow, steps: readonly { claimedAt: string | null; finishedAt: string | null }[]): number {
  const times = [audit.createdAt, ...steps.flatMap((s) => [s.claimedAt, s.finishedAt])].filter((t): t is string => Boolean(t)).map((t) => Date.parse(t));
  return Math.max(...times.filter(Number.isFinite));
}

/**
 * Ends the steps that have waited past their deadline as unavailable, with the reason, and updates the audit (it
 * finishes, its score is final, it may run again). Called when an audit is read and by the cron. Answers how many.
 */
export async function expireOverdueSteps(env: Env, auditId: string, now = Date.now()): Promise<number> {
  const db = getDb(env);
  const found = await getAudit(db, auditId);
  if (!found) return 0;
  const waiting = found.steps.filter((s) => s.status === "pending" || s.status === "running");
  if (waiting.length === 0 || now - lastProgress(found.audit, found.steps) < STEP_DEADLINE_MS) return 0;
  let ended = 0;
  for (const step of waiting) if (await failUnfinishedStep(db, auditId, step.step, TIMED_OUT_REASON)) ended++;
  if (ended > 0) await afterStep(env, db, found.audit, false);
  return ended;
}

/** The cron: steps of audits older than 10 minutes that never finished are sent again (claims keep them single). */
export async function sweepStaleAudits(env: Env, now = Date.now()): Promise<number> {
  const stale = await staleSteps(getDb(env), new Date(now - 10 * 60_000).toISOString());
  if (stale.length === 0) return 0;
  // Steps past their deadline end as unavailable; the rest are sent again.
  const ended = new Set<string>();
  for (const auditId of [...new Set(stale.map((s) => s.auditId))].slice(0, 25)) if ((await expireOverdueSteps(env, auditId, now)) > 0) ended.add(auditId);
  const steps = stale.filter((s) => !ended.has(s.auditId));
  if (steps.length === 0) return 0;
  await env.AUDITS.sendBatch(steps.map((body) => ({ body })));
  log.info("audit sweep", { steps: steps.length });
  return steps.length;
}
