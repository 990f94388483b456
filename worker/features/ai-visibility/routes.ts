// /api/ai-visibility (issue 29): questions (kept per business, suggested from its trade and city), scans (estimate,
// run, read, history) and one stored answer. Permissions are enforced here: a user asks about and reads their own
// business, admins prospects' too; viewing as someone is read-only (requireUser refuses writes). A scan past the
// allowance answers 402 before any call.
import { Hono, type Context } from "hono";
import { requireUser } from "../../platform/auth/middleware";
import { adminOnly } from "../../platform/auth/prospect-scope";
import { resolveAiBusiness, type ResolvedAiBusiness } from "./business";
import { AI_QUESTION_LIMITS } from "./config";
import { aiScanEstimate, startAiScan } from "./scan";
import { aiScanSummaryRow, answerView, buildAiScanView } from "./view";
import type { AppEnv } from "../../platform/context";
import {
  aiOwnerKey,
  countAiQuestions,
  deleteAiQuestion,
  getAiAnswer,
  getAiQuestion,
  getAiScanWithAnswers,
  getSharedReportAiAnswer,
  insertAiQuestions,
  listAiQuestions,
  listAiScans,
  updateAiQuestion,
  type AiAnswerRow,
  type AiQuestionRow,
  type AiScanRow,
} from "./queries";
import { readAllowance } from "../../platform/metering/budgets";
import { getDb, type Db } from "../../platform/db/client";
import { AI_DEFAULT_SAMPLES, AI_ENGINE_LABELS, AI_ENGINES, type EngineAvailability, AI_MAX_SAMPLES, AI_MIN_SAMPLES, type AiEngine, type TrackedQuestion } from "./rules/contract";
import { suggestQuestions } from "./rules/ai-visibility";
import { AiBusinessQuery, AiQuestionCreate, AiQuestionPatch, AiScanRequest, AiVisibilityErrorCode, isAiEngine, samplesValid } from "./rules/scans";
import { apiError, ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";
import { settingsOf } from "../../platform/metering/meter";
import { configuredEngines } from "../../platform/providers/ai-engines";
import { MAX_ID_LENGTH } from "../../domain/ids";
import { validate, validId } from "../../platform/validate";
import { z } from "zod";
import { paidFeature } from "../../platform/metering/guard";

export const AI_SCAN_NOT_FOUND = "Scan not found";
export const AI_ANSWER_NOT_FOUND = "Answer not found";
export const AI_QUESTION_NOT_FOUND = "Question not found";

/** Not asked yet (or being asked): there is nothing to show, and it is not a failure. */
function answerPending(answer: AiAnswerRow): boolean {
  return answer.status === "queued" || answer.status === "claimed";
}

function pending(c: Context) {
  return apiError(c, 409, AiVisibilityErrorCode.answerPending, "This answer has not come in yet. It shows here as soon as the assistant answers.");
}

const RunQuery = z.object({ estimate: z.literal("1").optional() });

/** Users read their own business's scans and questions; admins prospects' too. */
function mayRead(c: Context<AppEnv>, row: Pick<AiScanRow | AiQuestionRow, "kind" | "userId">): boolean {
  const subject = c.get("subject");
  return row.kind === "prospect" ? subject.isAdmin : row.userId === subject.id;
}

function ownerKeyOf(c: Context<AppEnv>, business: string): string {
  return aiOwnerKey(business === "own" ? { kind: "own", userId: c.get("subject").id } : { kind: "prospect", prospectId: business });
}

/** Questions a business may keep and ask at once: Free 3; Self Service and admins (prospects too) 10. */
async function questionLimit(c: Context<AppEnv>, db: Db): Promise<number> {
  const subject = c.get("subject");
  if (subject.isAdmin) return AI_QUESTION_LIMITS.paid;
  const read = await readAllowance(db, subject.id, settingsOf(c.env));
  return read.allowance.plan === "Free" ? AI_QUESTION_LIMITS.free : AI_QUESTION_LIMITS.paid;
}

/** A question the caller may change, or the refusal (another's is not found; a prospect's needs an admin). */
async function questionToChange(c: Context<AppEnv>, db: Db, id: string): Promise<AiQuestionRow | Response> {
  const found = await getAiQuestion(db, id);
  if (!found || !mayRead(c, found)) return apiError(c, 404, ErrorCode.notFound, AI_QUESTION_NOT_FOUND);
  return found.kind === "prospect" ? (adminOnly(c, "change the questions of") ?? found) : found;
}

function questionJson(q: AiQuestionRow): TrackedQuestion {
  return { id: q.id, text: q.text, tracked: q.tracked, createdAt: q.createdAt };
}

async function resolveFor(c: Context<AppEnv>, db: Db, business: string) {
  const subject = c.get("subject");
  return resolveAiBusiness(db, business === "own" ? { own: true, userId: subject.id, profile: subject.profile } : { prospectId: business });
}

function suggestedFor(resolved: ResolvedAiBusiness): string[] {
  const { business } = resolved;
  return suggestQuestions({ category: business.category, city: business.location.city, region: business.location.region, postalCode: business.location.postalCode });
}

export const aiVisibilityRoutes = new Hono<AppEnv>()
  .use(requireUser)

  .get("/questions", validate("query", AiBusinessQuery), async (c) => {
    const { business } = c.req.valid("query");
    if (business !== "own") {
      const refused = adminOnly(c, "read the questions of");
      if (refused) return refused;
    }
    const db = getDb(c.env);
    const [rows, limit] = await Promise.all([listAiQuestions(db, ownerKeyOf(c, business)), questionLimit(c, db)]);
    let suggested: string[] = [];
    if (rows.length === 0) {
      const resolved = await resolveFor(c, db, business);
      if (!resolved.ok && resolved.refusal.status === 404) return apiError(c, 404, resolved.refusal.code, resolved.refusal.message);
      if (resolved.ok) suggested = suggestedFor(resolved.value).slice(0, limit);
    }
    // The engines the page offers: those configured here; the others are listed as not available (in the customer's words).
    const configured = new Set(configuredEngines(c.env));
    const engines: EngineAvailability[] = AI_ENGINES.map((engine) => ({ engine, available: configured.has(engine), reason: configured.has(engine) ? null : "unavailable" }));
    return c.json({ questions: rows.map(questionJson), suggested, limit, engines });
  })

  .post("/questions", validate("json", AiQuestionCreate), async (c) => {
    const { business, text, tracked } = c.req.valid("json");
    if (business !== "own") {
      const refused = adminOnly(c, "keep questions for");
      if (refused) return refused;
    }
    const db = getDb(c.env);
    const subject = c.get("subject");
    const resolved = await resolveFor(c, db, business);
    if (!resolved.ok && resolved.refusal.status === 404) return apiError(c, 404, resolved.refusal.code, resolved.refusal.message);
    const ownerKey = ownerKeyOf(c, business);
    const [count, limit] = await Promise.all([countAiQuestions(db, ownerKey), questionLimit(c, db)]);
    if (count >= limit) return apiError(c, 400, AiVisibilityErrorCode.tooManyQuestions, `Your plan keeps up to ${limit} questions. Delete one to add another.`);
    const [row] = await insertAiQuestions(db, [
      { id: crypto.randomUUID(), ownerKey, kind: business === "own" ? "own" : "prospect", userId: subject.id, prospectId: business === "own" ? null : business, text, tracked: tracked ?? false },
    ]);
    return c.json(questionJson(row!), 201);
  })

  .patch("/questions/:id", validId(AI_QUESTION_NOT_FOUND), validate("json", AiQuestionPatch), async (c) => {
    const db = getDb(c.env);
    const found = await questionToChange(c, db, c.req.valid("param").id);
    if (found instanceof Response) return found;
    const updated = await updateAiQuestion(db, found.id, c.req.valid("json"));
    if (!updated) return apiError(c, 404, ErrorCode.notFound, AI_QUESTION_NOT_FOUND);
    return c.json(questionJson(updated));
  })

  .delete("/questions/:id", validId(AI_QUESTION_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const found = await questionToChange(c, db, c.req.valid("param").id);
    if (found instanceof Response) return found;
    await deleteAiQuestion(db, found.id);
    return c.body(null, 204);
  })

  .post("/scans", paidFeature, validate("query", RunQuery), validate("json", AiScanRequest), async (c) => {
    const body = c.req.valid("json");
    const { business } = body;
    const db = getDb(c.env);
    const subject = c.get("subject");
    if (business !== "own") {
      const refused = adminOnly(c, "scan");
      if (refused) return refused;
    }
    // Engines: known ids, each configured here; the default is every configured engine.
    const configured = configuredEngines(c.env);
    let engines: AiEngine[];
    if (body.engines) {
      const unknown = body.engines.filter((e) => !isAiEngine(e));
      if (unknown.length > 0) return apiError(c, 400, AiVisibilityErrorCode.unknownEngine, `Unknown engine: ${unknown.join(", ")}. Pick from ${Object.keys(AI_ENGINE_LABELS).join(", ")}.`, { engines: [`Unknown: ${unknown.join(", ")}`] });
      const missing = body.engines.filter((e) => !configured.includes(e as AiEngine));
      if (missing.length > 0)
        return apiError(c, 400, AiVisibilityErrorCode.engineNotConfigured, `${missing.map((e) => AI_ENGINE_LABELS[e as AiEngine]).join(", ")} cannot be asked yet. Pick from the engines listed on the page.`, { engines: [`Not available: ${missing.join(", ")}`] });
      engines = [...new Set(body.engines as AiEngine[])];
    } else {
      engines = configured;
    }
    if (engines.length === 0) return apiError(c, 503, AiVisibilityErrorCode.noEngines, "No AI assistant can be asked yet. Your agency has been told; please try again later.");
    const samples = body.samples ?? AI_DEFAULT_SAMPLES;
    if (!samplesValid(samples)) return apiError(c, 400, AiVisibilityErrorCode.samplesOutOfRange, `Ask each question ${AI_MIN_SAMPLES} to ${AI_MAX_SAMPLES} times per engine.`, { samples: [`Between ${AI_MIN_SAMPLES} and ${AI_MAX_SAMPLES}`] });
    const resolved = await resolveFor(c, db, business);
    if (!resolved.ok) return apiError(c, resolved.refusal.status, resolved.refusal.code, resolved.refusal.message);
    // Questions: those sent (kept ones keep their id), else the kept ones, else the suggested ones.
    const [saved, limit] = await Promise.all([listAiQuestions(db, resolved.value.ownerKey), questionLimit(c, db)]);
    const texts = body.questions ?? (saved.length > 0 ? saved.map((q) => q.text) : suggestedFor(resolved.value).slice(0, limit));
    const questions: { id: string; text: string }[] = [];
    for (const text of texts) {
      if (questions.some((q) => q.text.toLowerCase() === text.toLowerCase())) continue;
      const kept = saved.find((q) => q.text.trim().toLowerCase() === text.trim().toLowerCase());
      questions.push({ id: kept?.id ?? crypto.randomUUID(), text: kept?.text ?? text });
    }
    if (questions.length === 0) return apiError(c, 400, AiVisibilityErrorCode.noQuestions, "Add a question to ask first.");
    if (questions.length > limit) return apiError(c, 400, AiVisibilityErrorCode.tooManyQuestions, `Your plan asks up to ${limit} questions in a scan; this one has ${questions.length}.`, { questions: [`At most ${limit}`] });
    const estimate = await aiScanEstimate(c.env, db, subject.id, engines, questions.length, samples);
    if (c.req.valid("query").estimate) return c.json(estimate);
    // Refused before any call: the whole scan must fit what is left.
    if (!estimate.allowed) {
      return apiError(c, 402, AiVisibilityErrorCode.allowanceExceeded, `This scan needs ${estimate.calls} AI answers (about $${(estimate.costCents / 100).toFixed(2)}), more than is left of your allowance this month. Ask fewer questions, fewer times, or on fewer engines.`);
    }
    let scan: AiScanRow | null;
    try {
      scan = await startAiScan(c.env, { resolved: resolved.value, userId: subject.id, questions, engines, samples, trigger: "manual" });
    } catch (error) {
      log.error("ai-visibility: scan start failed", {}, error);
      return apiError(c, 503, ErrorCode.unavailable, "The scan could not be started. Please try again.");
    }
    const found = (await getAiScanWithAnswers(db, scan!.id))!;
    return c.json(buildAiScanView(found.scan, found.answers), 201);
  })

  .get("/scans", validate("query", AiBusinessQuery), async (c) => {
    const { business } = c.req.valid("query");
    if (business !== "own") {
      const refused = adminOnly(c, "read the scans of");
      if (refused) return refused;
    }
    const scans = await listAiScans(getDb(c.env), ownerKeyOf(c, business));
    return c.json({ scans: scans.map(aiScanSummaryRow) });
  })

  .get("/scans/:id", validId(AI_SCAN_NOT_FOUND), async (c) => {
    const found = await getAiScanWithAnswers(getDb(c.env), c.req.valid("param").id);
    if (!found || !mayRead(c, found.scan)) return apiError(c, 404, ErrorCode.notFound, AI_SCAN_NOT_FOUND);
    return c.json(buildAiScanView(found.scan, found.answers));
  })

  .get("/answers/:id", validId(AI_ANSWER_NOT_FOUND), async (c) => {
    const found = await getAiAnswer(getDb(c.env), c.req.valid("param").id);
    if (!found || !mayRead(c, found.scan)) return apiError(c, 404, ErrorCode.notFound, AI_ANSWER_NOT_FOUND);
    const { answer, scan } = found;
    if (answerPending(answer)) return pending(c);
    return c.json(await answerView(c.env, { answer, scan }));
  });

/**
 * GET /api/shared/reports/:id/ai-answers/:answerId: an answer behind a figure of the shared report, public as that
 * report is, and only one of the scan that report shows (another business's answer, or an old scan's, is a 404).
 */
export const sharedAiAnswerRoutes = new Hono<AppEnv>().get("/:id/ai-answers/:answerId", validId(AI_ANSWER_NOT_FOUND), async (c) => {
  const answerId = c.req.param("answerId");
  if (answerId.length > MAX_ID_LENGTH) return apiError(c, 404, ErrorCode.notFound, AI_ANSWER_NOT_FOUND);
  const found = await getSharedReportAiAnswer(getDb(c.env), c.req.valid("param").id, answerId);
  if (!found) return apiError(c, 404, ErrorCode.notFound, AI_ANSWER_NOT_FOUND);
  if (answerPending(found.answer)) return pending(c);
  return c.json(await answerView(c.env, found));
});
