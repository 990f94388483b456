// AI Visibility's request schemas and the scan list's shape (issue 29), shared by the routes and the page. The engine,
// answer and figure shapes are the contract's (ai-visibility-contract.ts); the rules are in ai-visibility.ts.
import { z } from "zod";
import { AI_ENGINES, AI_MAX_SAMPLES, AI_MIN_SAMPLES, type AiEngine, type ScanView } from "./contract";

/** The longest question kept (people type short questions; the engines' prompts stay small). */
export const AI_QUESTION_MAX_CHARS = 200;

const QuestionText = z.string().trim().min(3, { error: "A question needs at least 3 characters." }).max(AI_QUESTION_MAX_CHARS, { error: `A question may be at most ${AI_QUESTION_MAX_CHARS} characters.` });
const Business = z.union([z.literal("own"), z.string().trim().min(1).max(100)], { error: "business: own or a prospect id" });

/** POST /api/ai-visibility/scans. Engines and samples are checked by the route (stable codes for each refusal). */
export const AiScanRequest = z
  .object({
    business: Business,
    questions: z.array(QuestionText).min(1).max(50).optional(),
    engines: z.array(z.string().trim().min(1).max(40)).min(1).max(AI_ENGINES.length * 2).optional(),
    samples: z.number().int().optional(),
  })
  .strict();
export type AiScanRequest = z.infer<typeof AiScanRequest>;

export const AiQuestionCreate = z.object({ business: Business, text: QuestionText, tracked: z.boolean().optional() }).strict();
export const AiQuestionPatch = z
  .object({ text: QuestionText.optional(), tracked: z.boolean().optional() })
  .strict()
  .refine((v) => v.text !== undefined || v.tracked !== undefined, { error: "Send text or tracked." });

export const AiBusinessQuery = z.object({ business: Business });

/** Stable codes of the scan's refusals. */
export const AiVisibilityErrorCode = {
  allowanceExceeded: "allowance_exceeded",
  unknownEngine: "unknown_engine",
  engineNotConfigured: "engine_not_configured",
  noEngines: "no_engines_configured",
  samplesOutOfRange: "samples_out_of_range",
  tooManyQuestions: "too_many_questions",
  noQuestions: "no_questions",
  /** GET /answers/:id of an answer not in yet. */
  answerPending: "answer_pending",
} as const;

export function samplesValid(samples: number): boolean {
  return Number.isInteger(samples) && samples >= AI_MIN_SAMPLES && samples <= AI_MAX_SAMPLES;
}

export function isAiEngine(id: string): id is AiEngine {
  return (AI_ENGINES as readonly string[]).includes(id);
}

export type { AiScanSummary, EngineRate } from "./contract";

/**
 * The report's "What AI assistants say about <trade> in <city>" (payload field `aiVisibility` of the admin's and the
 * shared report; null before the prospect's first finished scan): one line per question and engine.
 */
export interface ReportAiVisibility {
  scanId: string;
  trade: string;
  city: string;
  businessName: string;
  askedAt: string;
  samples: number;
  overall: ScanView["overall"];
  /** One line per question and engine, most-named rival first: "Asked 'best roofer in Mesa' 5 times, ChatGPT named …". */
  lines: ReportAiLine[];
}

export interface ReportAiLine {
  question: string;
  engine: AiEngine;
  engineLabel: string;
  /** Answers that came back; `failed` calls are not counted (an engine that failed is never "not mentioned"). */
  n: number;
  failed: number;
  /** How many of the n answers named the business. */
  self: number;
  /** The business named most often other than the prospect; null when none was. */
  top: { name: string; mentions: number } | null;
  text: string;
  /** The answers this line stands on: the admin opens them in the tool, the shared page through its share-scoped route. */
  answerIds: string[];
}

/** What a report line calls each engine (the page says how ChatGPT is reached; a report line says the product's name). */
export const AI_ENGINE_SHORT_NAMES: Record<AiEngine, string> = {
  chatgpt: "ChatGPT",
  google_ai_overview: "Google AI Overviews",
  google_ai_mode: "Google AI Mode",
  perplexity: "Perplexity",
  gemini: "Gemini",
};

const times = (n: number) => `${n} ${n === 1 ? "time" : "times"}`;

/** "Asked 'best roofer in Mesa' 5 times, ChatGPT named Desert Sun Roofing 5 times and you 0 times". */
export function reportLineText(line: Pick<ReportAiLine, "question" | "engine" | "n" | "failed" | "self" | "top">): string {
  const asked = `Asked '${line.question}' ${times(line.n + line.failed)}`;
  const engine = AI_ENGINE_SHORT_NAMES[line.engine];
  if (line.n === 0) return `${asked}, ${engine} did not answer, so nothing is counted`;
  const failed = line.failed ? ` (${line.failed} did not answer and ${line.failed === 1 ? "is" : "are"} not counted)` : "";
  if (line.top) return `${asked}, ${engine} named ${line.top.name} ${times(line.top.mentions)} and you ${times(line.self)}${failed}`;
  if (line.self > 0) return `${asked}, ${engine} named you ${times(line.self)} and no other local business${failed}`;
  return `${asked}, ${engine} named no local business${failed}`;
}

/** The report prompt's and the chats' lines (empty before a scan: they then say nothing of AI assistants). */
export function aiVisibilityPromptLines(section: ReportAiVisibility | null): string[] {
  const lines = section ? section.lines.filter((l) => l.n > 0) : [];
  if (!section || lines.length === 0) return [];
  const head = `What AI assistants say about ${section.trade} in ${section.city} (asked ${section.askedAt.slice(0, 10)}, each question several times per assistant; cite these figures as measured, never more):`;
  const overall = section.overall ? [`Overall, the assistants named ${section.businessName} in ${Math.round(section.overall.mention_rate * 100)}% of answers (95% interval ${Math.round(section.overall.low * 100)}–${Math.round(section.overall.high * 100)}%).`] : [];
  return [head, ...lines.slice(0, 12).map((l) => `- ${l.text}`), ...overall];
}
