// /api/ai-visibility (issue 29): questions (kept per business, suggested from its trade and city), scans (estimate,
// run, read, history) and one stored answer. Permissions are enforced here: a user asks about and reads their own
// business, admins prospects' too; viewing as someone is read-only (requireUser refuses writes). A scan past the
// allowance answers 402 before any call.
import { Hono, type Context } from "hono";
import { requireUser } from "../../platform/auth/middleware";
import { businessScope, mayReadBusinessRow, prospectRefusal, scopeOwner, scopeTarget, type BusinessScope } from "../../platform/http/business-scope";
import { estimateOrRefusal, estimateQuery, refusalResponse } from "../../platform/http/paid-run";
import { resolveAiBusiness } from "./business";
import { aiScanEstimate } from "./scan";
import { aiAllowanceRefusal, engineAvailability, questionLimit, scanEngines, scanQuestions, startManualAiScan, suggestedFor } from "./service";
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
} from "./queries";
import { getDb, type Db } from "../../platform/db/client";
import type { TrackedQuestion } from "./rules/contract";
import { AiBusinessQuery, AiQuestionCreate, AiQuestionPatch, AiScanRequest, AiVisibilityErrorCode } from "./rules/scans";
import { apiError, ErrorCode } from "../../platform/errors";
import { MAX_ID_LENGTH } from "../../domain/ids";
import { validate, validId } from "../../platform/validate";
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

/** `business`: own, or a prospect's (admins'). Users read their own business's scans and questions; admins (the flag) prospects' too. */
const scope = (from: "json" | "query", what: string) => businessScope({ from, field: "business", what, wording: "short" });
const mayRead = (c: Context<AppEnv>, row: { kind: string; userId: string | null }) => mayReadBusinessRow(c, row, "admin-flag");
const ownerKeyOf = (business: BusinessScope) => aiOwnerKey(scopeOwner(business));

/** A question the caller may change, or the refusal (another's is not found; a prospect's needs an admin). */
async function questionToChange(c: Context<AppEnv>, db: Db, id: string): Promise<AiQuestionRow | Response> {
  const found = await getAiQuestion(db, id);
  if (!found || !mayRead(c, found)) return apiError(c, 404, ErrorCode.notFound, AI_QUESTION_NOT_FOUND);
  return found.kind === "prospect" ? (prospectRefusal(c, "change the questions of", "short") ?? found) : found;
}

function questionJson(q: AiQuestionRow): TrackedQuestion {
  return { id: q.id, text: q.text, tracked: q.tracked, createdAt: q.createdAt };
}

export const aiVisibilityRoutes = new Hono<AppEnv>()
  .use(requireUser)

  .get("/questions", validate("query", AiBusinessQuery), scope("query", "read the questions of"), async (c) => {
    const business = c.get("business");
    const db = getDb(c.env);
    const [rows, limit] = await Promise.all([listAiQuestions(db, ownerKeyOf(business)), questionLimit(c.env, db, c.get("subject"))]);
    let suggested: string[] = [];
    if (rows.length === 0) {
      const resolved = await resolveAiBusiness(db, scopeTarget(business));
      if (!resolved.ok && resolved.refusal.status === 404) return apiError(c, 404, resolved.refusal.code, resolved.refusal.message);
      if (resolved.ok) suggested = suggestedFor(resolved.value).slice(0, limit);
    }
    return c.json({ questions: rows.map(questionJson), suggested, limit, engines: engineAvailability(c.env) });
  })

  .post("/questions", validate("json", AiQuestionCreate), scope("json", "keep questions for"), async (c) => {
    const { text, tracked } = c.req.valid("json");
    const business = c.get("business");
    const db = getDb(c.env);
    const subject = c.get("subject");
    const resolved = await resolveAiBusiness(db, scopeTarget(business));
    if (!resolved.ok && resolved.refusal.status === 404) return apiError(c, 404, resolved.refusal.code, resolved.refusal.message);
    const ownerKey = ownerKeyOf(business);
    const [count, limit] = await Promise.all([countAiQuestions(db, ownerKey), questionLimit(c.env, db, subject)]);
    if (count >= limit) return apiError(c, 400, AiVisibilityErrorCode.tooManyQuestions, `Your plan keeps up to ${limit} questions. Delete one to add another.`);
    const prospectId = business.kind === "prospect" ? business.prospectId : null;
    const [row] = await insertAiQuestions(db, [{ id: crypto.randomUUID(), ownerKey, kind: business.kind, userId: subject.id, prospectId, text, tracked: tracked ?? false }]);
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

  .post("/scans", paidFeature, estimateQuery, validate("json", AiScanRequest), scope("json", "scan"), async (c) => {
    const body = c.req.valid("json");
    const db = getDb(c.env);
    const subject = c.get("subject");
    const asked = scanEngines(c.env, body);
    if (!asked.ok) return refusalResponse(c, asked.refusal);
    const resolved = await resolveAiBusiness(db, scopeTarget(c.get("business")));
    if (!resolved.ok) return refusalResponse(c, resolved.refusal);
    const questions = await scanQuestions(c.env, db, subject, resolved.value, body.questions);
    if (!questions.ok) return refusalResponse(c, questions.refusal);
    const { engines, samples } = asked.value;
    const estimate = await aiScanEstimate(c.env, db, subject.id, engines, questions.value.length, samples);
    // Refused before any call: the whole scan must fit what is left.
    const refused = await estimateOrRefusal(c, estimate, aiAllowanceRefusal);
    if (refused) return refused;
    const started = await startManualAiScan(c.env, db, { resolved: resolved.value, userId: subject.id, questions: questions.value, engines, samples });
    if (!started.ok) return refusalResponse(c, started.refusal);
    return c.json(started.value, 201);
  })

  .get("/scans", validate("query", AiBusinessQuery), scope("query", "read the scans of"), async (c) => {
    const scans = await listAiScans(getDb(c.env), ownerKeyOf(c.get("business")));
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
