// What AI Visibility's routes ask of it (issue 29): how many questions a business keeps, the engines a scan asks,
// the questions it asks, the 402 past the allowance, and starting a scan by hand.
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import type { AppEnv } from "../../platform/context";
import { ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";
import { readAllowance } from "../../platform/metering/budgets";
import { settingsOf } from "../../platform/metering/meter";
import { configuredEngines } from "../../platform/providers/ai-engines";
import type { ResolvedAiBusiness } from "./business";
import { AI_QUESTION_LIMITS } from "./config";
import { getAiScanWithAnswers, listAiQuestions, type AiScanRow } from "./queries";
import { suggestQuestions } from "./rules/ai-visibility";
import { AI_DEFAULT_SAMPLES, AI_ENGINE_LABELS, AI_ENGINES, AI_MAX_SAMPLES, AI_MIN_SAMPLES, type AiEngine, type EngineAvailability, type EstimateView } from "./rules/contract";
import { AiVisibilityErrorCode, isAiEngine, samplesValid, type AiScanRequest } from "./rules/scans";
import { startAiScan } from "./scan";
import { buildAiScanView } from "./view";

type Subject = AppEnv["Variables"]["subject"];
type Refusal = { status: 400 | 503; code: string; message: string; fields?: Record<string, string[]> };
type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

/** Questions a business may keep and ask at once: Free 3; Self Service and admins (prospects too) 10. */
export async function questionLimit(env: Env, db: Db, subject: Subject): Promise<number> {
  if (subject.isAdmin) return AI_QUESTION_LIMITS.paid;
  const read = await readAllowance(db, subject.id, settingsOf(env));
  return read.allowance.plan === "Free" ? AI_QUESTION_LIMITS.free : AI_QUESTION_LIMITS.paid;
}

export function suggestedFor(resolved: ResolvedAiBusiness): string[] {
  const { business } = resolved;
  return suggestQuestions({ category: business.category, city: business.location.city, region: business.location.region, postalCode: business.location.postalCode });
}

/** The engines the page offers: those configured here; the others are listed as not available (in the customer's words). */
export function engineAvailability(env: Env): EngineAvailability[] {
  const configured = new Set(configuredEngines(env));
  return AI_ENGINES.map((engine) => ({ engine, available: configured.has(engine), reason: configured.has(engine) ? null : "unavailable" }));
}

/** Engines and samples of a scan: known ids, each configured here (the default: every configured engine). */
export function scanEngines(env: Env, body: Pick<AiScanRequest, "engines" | "samples">): Outcome<{ engines: AiEngine[]; samples: number }> {
  const configured = configuredEngines(env);
  let engines: AiEngine[] = configured;
  if (body.engines) {
    const unknown = body.engines.filter((e) => !isAiEngine(e));
    if (unknown.length > 0)
      return { ok: false, refusal: { status: 400, code: AiVisibilityErrorCode.unknownEngine, message: `Unknown engine: ${unknown.join(", ")}. Pick from ${Object.keys(AI_ENGINE_LABELS).join(", ")}.`, fields: { engines: [`Unknown: ${unknown.join(", ")}`] } } };
    const missing = body.engines.filter((e) => !configured.includes(e as AiEngine));
    if (missing.length > 0)
      return {
        ok: false,
        refusal: { status: 400, code: AiVisibilityErrorCode.engineNotConfigured, message: `${missing.map((e) => AI_ENGINE_LABELS[e as AiEngine]).join(", ")} cannot be asked yet. Pick from the engines listed on the page.`, fields: { engines: [`Not available: ${missing.join(", ")}`] } },
      };
    engines = [...new Set(body.engines as AiEngine[])];
  }
  if (engines.length === 0) return { ok: false, refusal: { status: 503, code: AiVisibilityErrorCode.noEngines, message: "No AI assistant can be asked yet. Your agency has been told; please try again later." } };
  const samples = body.samples ?? AI_DEFAULT_SAMPLES;
  if (!samplesValid(samples)) return { ok: false, refusal: { status: 400, code: AiVisibilityErrorCode.samplesOutOfRange, message: `Ask each question ${AI_MIN_SAMPLES} to ${AI_MAX_SAMPLES} times per engine.`, fields: { samples: [`Between ${AI_MIN_SAMPLES} and ${AI_MAX_SAMPLES}`] } } };
  return { ok: true, value: { engines, samples } };
}

/** The questions of a scan: those sent (kept ones keep their id), else the kept ones, else the suggested ones. */
export async function scanQuestions(env: Env, db: Db, subject: Subject, resolved: ResolvedAiBusiness, sent: string[] | undefined): Promise<Outcome<{ id: string; text: string }[]>> {
  const [saved, limit] = await Promise.all([listAiQuestions(db, resolved.ownerKey), questionLimit(env, db, subject)]);
  const texts = sent ?? (saved.length > 0 ? saved.map((q) => q.text) : suggestedFor(resolved).slice(0, limit));
  const questions: { id: string; text: string }[] = [];
  for (const text of texts) {
    if (questions.some((q) => q.text.toLowerCase() === text.toLowerCase())) continue;
    const kept = saved.find((q) => q.text.trim().toLowerCase() === text.trim().toLowerCase());
    questions.push({ id: kept?.id ?? crypto.randomUUID(), text: kept?.text ?? text });
  }
  if (questions.length === 0) return { ok: false, refusal: { status: 400, code: AiVisibilityErrorCode.noQuestions, message: "Add a question to ask first." } };
  if (questions.length > limit)
    return { ok: false, refusal: { status: 400, code: AiVisibilityErrorCode.tooManyQuestions, message: `Your plan asks up to ${limit} questions in a scan; this one has ${questions.length}.`, fields: { questions: [`At most ${limit}`] } } };
  return { ok: true, value: questions };
}

/** The 402 of a scan that does not fit what is left of the allowance. */
export function aiAllowanceRefusal(estimate: EstimateView) {
  return {
    code: AiVisibilityErrorCode.allowanceExceeded,
    message: `This scan needs ${estimate.calls} AI answers (about $${(estimate.costCents / 100).toFixed(2)}), more than is left of your allowance this month. Ask fewer questions, fewer times, or on fewer engines.`,
  };
}

/** Starts a scan by hand and answers its view, or the 503 when it could not be started. */
export async function startManualAiScan(env: Env, db: Db, input: Omit<Parameters<typeof startAiScan>[1], "trigger">): Promise<Outcome<ReturnType<typeof buildAiScanView>>> {
  let scan: AiScanRow | null;
  try {
    scan = await startAiScan(env, { ...input, trigger: "manual" });
  } catch (error) {
    log.error("ai-visibility: scan start failed", {}, error);
    return { ok: false, refusal: { status: 503, code: ErrorCode.unavailable, message: "The scan could not be started. Please try again." } };
  }
  const found = (await getAiScanWithAnswers(db, scan!.id))!;
  return { ok: true, value: buildAiScanView(found.scan, found.answers) };
}
