// AI Visibility's engine (issue 29): a scan is questions × engines × samples answer rows, sent on `ai-visibility` a few
// answers a message. Each answer is claimed (compare-and-set) before its call, reserves from the meter first (a refusal
// fails it with the reason), asks its engine through worker/platform/providers/ai-engines.ts, and stores the whole answer in R2
// with its figures in D1; an engine that fails is stored failed, never "not mentioned". The last answer in computes the
// figures, the cited domains (flagged where the Citation Tracker did not find the business) and "What to do".
import { getDb, type Db } from "../../platform/db/client";
import { claim } from "../../platform/jobs/claim";
import { resendStale } from "../../platform/jobs/sweep";
import {
  aiAnswerJob,
  aiScanRunning,
  createAiScan,
  failUnfinishedAiAnswers,
  getAiScan,
  getAiScanAndEngines,
  releaseAiAnswer,
  storeAiAnswer,
  storeAiAnswerStatements,
  underClaim,
  updateAiScanCompetitors,
  type AiAnswerRow,
  type AiScanRow,
} from "./queries";
import { AI_ENGINE_USD_PER_CALL, type AiEngine, type EngineOutcome, type EstimateView } from "./rules/contract";
import { findNamedBusinesses, questionEngineFigure, sourceDomain } from "./rules/ai-visibility";
import { SEARCH_USD_PER_CALL, toMicro, type Payer } from "../../domain/metering";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { fitsAllowance, userPayer, type ReserveResult } from "../../platform/metering/meter";
import { reserveLoggedCall, reserveLoggedCallsInBatch } from "../../platform/metering/usage-log";
import { askEngine } from "../../platform/providers/ai-engines";
import { searchConfigured, searchMaps } from "../../platform/providers/local-search";
import { rankSearchTimeoutMs } from "../rank";
import type { AiBusiness, AiParty, ResolvedAiBusiness } from "./business";
import { AI_ANSWERS_PER_MESSAGE, AI_VISIBILITY_MAX_ATTEMPTS, AI_VISIBILITY_TOOL, aiRetryDelaySeconds, aiStaleClaimMs } from "./config";
import { finishAiScanIfComplete } from "./finish";
import { businessOfScan, parseList, scanQuestions, type StoredAnswerJson } from "./view";

/** What a scan costs: each engine's calls at its flat price, plus the one Maps search for the local competitor set. */
export function aiScanCost(engines: readonly AiEngine[], questions: number, samples: number): { calls: number; micro: number; perEngine: EstimateView["perEngine"] } {
  const perEngine = engines.map((engine) => {
    const calls = questions * samples;
    return { engine, calls, costCents: Math.ceil((toMicro(AI_ENGINE_USD_PER_CALL[engine]) * calls) / 10_000) };
  });
  const calls = perEngine.reduce((s, e) => s + e.calls, 0);
  const micro = engines.reduce((s, e) => s + toMicro(AI_ENGINE_USD_PER_CALL[e]) * questions * samples, 0) + toMicro(SEARCH_USD_PER_CALL);
  return { calls, micro, perEngine };
}

/** The estimate shown before a scan, and whether the payer's allowance covers it (POST answers 402 when not). */
export async function aiScanEstimate(env: Env, db: Db, userId: string, engines: readonly AiEngine[], questions: number, samples: number, now = new Date()): Promise<EstimateView> {
  const cost = aiScanCost(engines, questions, samples);
  const fits = await fitsAllowance(env, db, userId, cost.micro, now);
  return { calls: cost.calls, costCents: Math.ceil(cost.micro / 10_000), perEngine: cost.perEngine, allowed: fits.allowed };
}

function sameName(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
  return norm(a) === norm(b);
}

/** The local competitor set: the businesses Google Maps shows for the trade in the city (one metered search), plus the audit's. */
async function competitorSet(env: Env, payer: Payer, business: AiBusiness, fromAudit: AiParty[]): Promise<AiParty[]> {
  const out: AiParty[] = [];
  const add = (p: AiParty) => {
    if (!p.name || sameName(p.name, business.name) || out.some((o) => sameName(o.name, p.name))) return;
    out.push(p);
  };
  // Locally a provider without a key is not called: the audit's competitors only.
  const reserved = searchConfigured(env) ? await reserveLoggedCall(env, payer, { kind: "search" }, AI_VISIBILITY_TOOL) : null;
  if (reserved === null) {
    log.info("ai-visibility: no search provider; the audit's competitors only");
  } else if (reserved.ok) {
    const got = await searchMaps(env, { q: business.category, location: business.area }, rankSearchTimeoutMs(env)).catch((error: unknown) => {
      log.error("ai-visibility: maps search threw", {}, error);
      return { ok: false as const, reason: "unexpected", retryable: false };
    });
    if (got.ok) {
      await reserved.ticket.settle({ kind: "search", calls: 1 });
      for (const p of got.places.slice(0, 20)) add({ name: p.name, website: p.website, phone: p.phone, reviewCount: p.reviewCount });
    } else {
      await reserved.ticket.release();
      log.warn("ai-visibility: maps search failed; the audit's competitors only", { reason: got.reason });
    }
  } else {
    log.info("ai-visibility: maps search refused by the meter", { code: reserved.refusal.code });
  }
  for (const p of fromAudit) add(p);
  return out;
}

async function sendAnswers(env: Env, scanId: string, answerIds: string[]): Promise<void> {
  const messages: { body: { scanId: string; answerIds: string[] } }[] = [];
  for (let i = 0; i < answerIds.length; i += AI_ANSWERS_PER_MESSAGE) messages.push({ body: { scanId, answerIds: answerIds.slice(i, i + AI_ANSWERS_PER_MESSAGE) } });
  for (let i = 0; i < messages.length; i += 100) await env.AI_VISIBILITY.sendBatch(messages.slice(i, i + 100));
}

/** The cron: unfinished answers of old scans sent again (claims keep them single). */
export async function resendAiAnswers(env: Env, stale: { scanId: string; id: string }[]): Promise<number> {
  return resendStale(stale, (a) => a.id, (ids, scanId) => sendAnswers(env, scanId, ids), (a) => a.scanId);
}

/**
 * Stores the scan and its answer rows (a weekly scan only if that week's was not made: null then), finds the local
 * competitor set and sends the answers. A failed send is not lost: the cron sends unfinished answers again.
 */
export async function startAiScan(
  env: Env,
  input: { resolved: ResolvedAiBusiness; userId: string; questions: { id: string; text: string }[]; engines: AiEngine[]; samples: number; trigger: "manual" | "weekly"; week?: string; now?: Date },
): Promise<AiScanRow | null> {
  const db = getDb(env);
  const { resolved } = input;
  const answers: { id: string; questionId: string; engine: string; sample: number }[] = [];
  for (const q of input.questions) for (const engine of input.engines) for (let sample = 1; sample <= input.samples; sample++) answers.push({ id: crypto.randomUUID(), questionId: q.id, engine, sample });
  const scan = await createAiScan(
    db,
    {
      id: crypto.randomUUID(),
      ownerKey: resolved.ownerKey,
      kind: resolved.owner.kind,
      userId: input.userId,
      prospectId: resolved.owner.kind === "prospect" ? resolved.owner.prospectId : null,
      business: JSON.stringify(resolved.business),
      trigger: input.trigger,
      week: input.week ?? null,
      samples: input.samples,
      engines: JSON.stringify(input.engines),
      questions: JSON.stringify(input.questions),
      total: answers.length,
      createdAt: (input.now ?? new Date()).toISOString(),
    },
    answers,
  );
  if (!scan) return null;
  const payer = await userPayer(env, db, input.userId);
  const competitors = await competitorSet(env, payer, resolved.business, resolved.auditCompetitors);
  await updateAiScanCompetitors(db, scan.id, JSON.stringify(competitors));
  try {
    await sendAnswers(
      env,
      scan.id,
      answers.map((a) => a.id),
    );
  } catch (error) {
    log.error("ai-visibility: send failed; the sweep sends it later", { scanId: scan.id }, error);
  }
  return (await getAiScan(db, scan.id))!;
}

export type AiJobOutcome = { kind: "ack" } | { kind: "retry"; delaySeconds: number; reason: string };

/** Engine failures worth asking again later; the others are stored failed at once. */
const RETRYABLE: ReadonlySet<string> = new Set(["timeout", "rate_limited", "connection"]);
/** Engine failures the provider may have billed: the request reached it and no answer came back. */
const POSSIBLY_BILLED: ReadonlySet<string> = new Set(["timeout", "connection"]);

export function answerKey(scanId: string, answerId: string): string {
  return `ai-visibility/${scanId}/${answerId}.json`;
}

/**
 * Handles a message's answers side by side (`delivery` = message.attempts, 1-based). One round trip claims them
 * (compare-and-set) and takes each claimed answer's reservation; each answer then asks its engine, puts the whole
 * answer in R2, and stores its figures beside the meter's settle in one more (so an answer costs two D1 writes and one
 * R2 put beyond its call).
 */
export async function processAiAnswers(env: Env, scanId: string, answerIds: string[], delivery: number): Promise<AiJobOutcome> {
  const db = getDb(env);
  const { scan, engines } = await getAiScanAndEngines(db, scanId, answerIds);
  if (!scan) return { kind: "ack" };
  const payer = await userPayer(env, db, scan.userId);
  const now = Date.now();
  const claimedAt = new Date(now).toISOString();
  const ids = answerIds.filter((id) => engines.has(id));
  const reservations = reserveLoggedCallsInBatch(
    env,
    db,
    payer,
    ids.map((id) => ({ call: { kind: "ai_engine" as const, engine: engines.get(id) as AiEngine }, onlyIf: underClaim(id, claimedAt) })),
    AI_VISIBILITY_TOOL,
  );
  const [claimed, , ...then] = (await db.batch([
    claim(db, aiAnswerJob, [scanId, ids], { now: claimedAt, staleBefore: new Date(now - aiStaleClaimMs(env)).toISOString() }),
    aiScanRunning(db, scanId),
    ...(reservations.statements as []),
  ])) as unknown as [AiAnswerRow[], unknown, ...unknown[]];
  const business = businessOfScan(scan);
  const competitors = parseList<AiParty>(scan.competitors);

  /** One claimed answer with its reservation: ask, store. Answers the reason to retry, or null. */
  const runAnswer = async (claim: AiAnswerRow, reserved: ReserveResult): Promise<string | null> => {
    const engine = claim.engine as AiEngine;
    const question = scanQuestions(scan).find((q) => q.id === claim.questionId);
    if (!reserved.ok) {
      await storeAiAnswer(db, scan.id, claim.id, claimedAt, { status: "failed", error: reserved.refusal.message });
      return null;
    }
    if (!question) {
      await reserved.ticket.release();
      await storeAiAnswer(db, scan.id, claim.id, claimedAt, { status: "failed", error: "the question is no longer part of the scan" });
      return null;
    }
    const reservedAt = Date.now();
    let outcome: EngineOutcome;
    try {
      outcome = await askEngine(env, engine, { question: question.text, location: business.location });
    } catch (error) {
      log.error("ai-visibility: engine threw", { engine }, error);
      outcome = { ok: false, kind: "connection", error: "the engine could not be reached" };
    }
    if (!outcome.ok) {
      // Possibly billed (no answer within the time-out, the connection dropped mid-call): the call is settled at its
      // price, as the chat settles its prompt (issue 39); an explicit refusal (an HTTP error, a 429, no text) is released.
      await (POSSIBLY_BILLED.has(outcome.kind) ? reserved.ticket.settle({ kind: "ai_engine", engine, calls: 1 }) : reserved.ticket.release());
      if (RETRYABLE.has(outcome.kind) && Math.max(delivery, claim.attempts) < AI_VISIBILITY_MAX_ATTEMPTS) {
        await releaseAiAnswer(db, claim.id, claimedAt);
        return outcome.error;
      }
      await storeAiAnswer(db, scan.id, claim.id, claimedAt, { status: "failed", error: outcome.error });
      return null;
    }
    const asked = Date.now();
    const answer = outcome.answer;
    const key = answerKey(scan.id, claim.id);
    const whole: StoredAnswerJson = { id: claim.id, scanId: scan.id, question: question.text, engine, sample: claim.sample, askedAt: new Date(asked).toISOString(), model: answer.model ?? null, text: answer.text, sources: answer.sources };
    const self = { name: business.name, website: business.website, phone: business.phone };
    const named = findNamedBusinesses(answer.text, competitors, self, answer.sources);
    const domains = [...new Set(answer.sources.map(sourceDomain).filter((d): d is string => d !== null))].slice(0, 40);
    const ownCited = questionEngineFigure([{ id: claim.id, ok: true, named, sources: answer.sources }], { website: business.website, gbpUrl: business.gbpUrl }).own_site_cited > 0;
    const usage = { kind: "ai_engine", engine, calls: 1 } as const;
    try {
      await env.FILES.put(key, JSON.stringify(whole), { httpMetadata: { contentType: "application/json" } });
    } catch (error) {
      // The call was made (and billed): settled, and the answer failed with the reason, in one round trip.
      log.error("ai-visibility: answer not stored in R2", { scanId: scan.id }, error);
      await reserved.ticket.settleWith(usage, storeAiAnswerStatements(db, scan.id, claim.id, claimedAt, { status: "failed", error: "the answer could not be stored" }));
      return null;
    }
    // The answer's figures and the meter's settle (and its usage row): one batch after the R2 put.
    await reserved.ticket.settleWith(usage, storeAiAnswerStatements(db, scan.id, claim.id, claimedAt, { status: "ok", model: answer.model ?? null, r2Key: key, named, domains, ownCited }));
    log.debug("ai-visibility: answer stored", { engine, claimToReserveMs: reservedAt - now, engineMs: asked - reservedAt, storeMs: Date.now() - asked });
    return null;
  };

  if (claimed.length > 0) {
    const reasons = await Promise.all(claimed.map((claim) => runAnswer(claim, reservations.resultAt(then, ids.indexOf(claim.id)))));
    const reason = reasons.find((r) => r !== null);
    if (reason) {
      await finishAiScanIfComplete(env, scanId);
      return { kind: "retry", delaySeconds: aiRetryDelaySeconds(delivery), reason };
    }
  }
  await finishAiScanIfComplete(env, scanId);
  return { kind: "ack" };
}

/** Dead letters: the message's answers that never finished are failed with the reason, so the scan finishes. */
export async function failAiAnswersForDeadLetter(env: Env, scanId: string, answerIds: string[], deliveries: number): Promise<void> {
  const db = getDb(env);
  const changed = await failUnfinishedAiAnswers(db, scanId, answerIds, `the engine did not answer after ${deliveries} tries`);
  if (changed > 0) await finishAiScanIfComplete(env, scanId);
}
