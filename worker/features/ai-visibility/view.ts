// AI Visibility's figures and views (issue 29), computed from what D1 keeps of each answer (the businesses named, the
// cited domains, whether the business's own site or profile was cited): per question and engine, overall, per engine
// (the history chart), and the API's ScanView / scan list rows.
import { parseJson } from "../../domain/json";
import type { AiAnswerRow, AiScanRow } from "./queries";
import { AI_ENGINE_LABELS, AI_ENGINE_USD_PER_CALL, type AiEngine, type AnswerView, type CitedDomain, type CitedSource, type QuestionEngineFigure, type ScanView } from "./rules/contract";
import { countCitedDomains, overallFigure, questionEngineFigure } from "./rules/ai-visibility";
import { toMicro } from "../../domain/metering";
import type { AiScanSummary, EngineRate } from "./rules/scans";
import type { Env } from "../../platform/env";
import type { AiBusiness } from "./business";

type Named = { name: string; self: boolean; local: boolean };

/** What a finished scan keeps (JSON in ai_scans.summary): the history, the alert rule and the report read it. */
export type AiScanStored = {
  overall: ScanView["overall"];
  perEngine: EngineRate[];
  figures: QuestionEngineFigure[];
  citedDomains: CitedDomain[];
  engineErrors: ScanView["engineErrors"];
};

export function parseList<T>(text: string | null | undefined): T[] {
  if (!text) return [];
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}

export function businessOfScan(scan: AiScanRow): AiBusiness {
  return JSON.parse(scan.business) as AiBusiness;
}

export function scanQuestions(scan: AiScanRow): { id: string; text: string }[] {
  return parseList<{ id: string; text: string }>(scan.questions);
}

export function scanEngines(scan: AiScanRow): AiEngine[] {
  return parseList<AiEngine>(scan.engines);
}

export function storedSummary(scan: AiScanRow): AiScanStored | null {
  const stored = parseJson<AiScanStored>(scan.summary);
  // Summaries kept before a figure without answers had no rate said 0 for it: read them as they would be written now.
  return stored && { ...stored, figures: stored.figures.map((f) => (f.n === 0 ? { ...f, mention_rate: null } : f)) };
}

/** D1 keeps cited domains only (the whole sources are in R2): the figures count them as those hosts. */
const asSources = (domains: string[]): CitedSource[] => domains.map((d) => ({ url: `https://${d}/` }));

function answerInputs(rows: readonly AiAnswerRow[]) {
  return rows.map((a) => ({ id: a.id, ok: a.status === "ok", named: parseList<Named>(a.named), sources: asSources(parseList<string>(a.domains)), engine: a.engine as AiEngine }));
}

/** The figure of each question on each engine, in the scan's order (answers not in yet count as neither). */
export function figuresOf(scan: AiScanRow, answers: readonly AiAnswerRow[]): QuestionEngineFigure[] {
  const business = businessOfScan(scan);
  const out: QuestionEngineFigure[] = [];
  for (const q of scanQuestions(scan)) {
    for (const engine of scanEngines(scan)) {
      const rows = answers.filter((a) => a.questionId === q.id && a.engine === engine && (a.status === "ok" || a.status === "failed"));
      const figure = questionEngineFigure(answerInputs(rows), { website: business.website, gbpUrl: business.gbpUrl });
      // Whether the own site or profile was cited was judged on the whole sources when the answer came in.
      out.push({ ...figure, own_site_cited: rows.filter((a) => a.status === "ok" && a.ownCited).length, answerIds: answers.filter((a) => a.questionId === q.id && a.engine === engine).map((a) => a.id), questionId: q.id, question: q.text, engine });
    }
  }
  return out;
}

export function perEngineOf(engines: readonly AiEngine[], figures: readonly QuestionEngineFigure[]): EngineRate[] {
  const out: EngineRate[] = [];
  for (const engine of engines) {
    const o = overallFigure(figures.filter((f) => f.engine === engine));
    if (o) out.push({ engine, k: o.k, n: o.n, mention_rate: o.mention_rate, low: o.low, high: o.high });
  }
  return out;
}

/** Engines whose every answer failed: shown failed (never "not mentioned"), with what the customer can do. */
export function engineErrorsOf(engines: readonly AiEngine[], answers: readonly AiAnswerRow[]): ScanView["engineErrors"] {
  const out: ScanView["engineErrors"] = [];
  for (const engine of engines) {
    const rows = answers.filter((a) => a.engine === engine);
    if (rows.length === 0 || !rows.every((a) => a.status === "failed")) continue;
    const reason = rows.find((a) => a.error)?.error ?? "no answer";
    out.push({ engine, message: `${AI_ENGINE_LABELS[engine]} did not answer (${reason}), so it is left out of the figures. Run the scan again later.` });
  }
  return out;
}

export function citedDomainsOf(answers: readonly AiAnswerRow[], citationFound?: (domain: string) => boolean | null): CitedDomain[] {
  return countCitedDomains(
    answerInputs(answers.filter((a) => a.status === "ok" || a.status === "failed")),
    citationFound,
  );
}

/** Everything a finished scan keeps. */
export function summarize(scan: AiScanRow, answers: readonly AiAnswerRow[], citationFound?: (domain: string) => boolean | null): AiScanStored {
  const figures = figuresOf(scan, answers);
  const engines = scanEngines(scan);
  return { overall: overallFigure(figures), perEngine: perEngineOf(engines, figures), figures, citedDomains: citedDomainsOf(answers, citationFound), engineErrors: engineErrorsOf(engines, answers) };
}

/** What the scan has cost so far: each answered call at its engine's flat price (failed calls are released). */
export function answersCostMicro(answers: readonly AiAnswerRow[]): number {
  return answers.filter((a) => a.status === "ok").reduce((sum, a) => sum + toMicro(AI_ENGINE_USD_PER_CALL[a.engine as AiEngine] ?? 0), 0);
}

export function buildAiScanView(scan: AiScanRow, answers: readonly AiAnswerRow[]): ScanView {
  const stored = storedSummary(scan);
  const figures = figuresOf(scan, answers);
  const engines = scanEngines(scan);
  const actions = parseList<string>(scan.actions);
  return {
    id: scan.id,
    business: scan.kind === "own" ? "own" : scan.prospectId!,
    businessName: businessOfScan(scan).name,
    status: scan.status,
    createdAt: scan.createdAt,
    finishedAt: scan.finishedAt,
    samples: scan.samples,
    engines,
    questions: scanQuestions(scan),
    progress: { done: scan.done, total: scan.total, failed: scan.failed },
    costCents: Math.ceil((scan.finishedAt ? scan.costMicro : answersCostMicro(answers)) / 10_000),
    overall: overallFigure(figures),
    figures,
    citedDomains: stored?.citedDomains ?? citedDomainsOf(answers),
    actions: scan.actionsSource && actions.length > 0 ? { items: actions, source: scan.actionsSource } : null,
    engineErrors: engineErrorsOf(engines, answers),
  };
}

export function aiScanSummaryRow(scan: AiScanRow): AiScanSummary {
  const stored = storedSummary(scan);
  return {
    id: scan.id,
    status: scan.status,
    trigger: scan.trigger,
    createdAt: scan.createdAt,
    finishedAt: scan.finishedAt,
    samples: scan.samples,
    engines: scanEngines(scan),
    questions: scanQuestions(scan).length,
    progress: { done: scan.done, total: scan.total, failed: scan.failed },
    overall: stored?.overall ?? null,
    perEngine: stored?.perEngine ?? [],
  };
}

/** The whole answer, as R2 keeps it. */
export type StoredAnswerJson = { id: string; scanId: string; question: string; engine: AiEngine; sample: number; askedAt: string; model: string | null; text: string; sources: { url: string; title?: string }[] };

/** One stored answer (GET /api/ai-visibility/answers/:id and the shared report's): D1's figures with R2's whole text. */
export async function answerView(env: Env, { answer, scan }: { answer: AiAnswerRow; scan: AiScanRow }): Promise<AnswerView> {
  const question = scanQuestions(scan).find((q) => q.id === answer.questionId)?.text ?? "";
  let whole: StoredAnswerJson | null = null;
  if (answer.status === "ok" && answer.r2Key) {
    const object = await env.FILES.get(answer.r2Key);
    whole = object ? ((await object.json()) as StoredAnswerJson) : null;
  }
  return {
    id: answer.id,
    scanId: scan.id,
    engine: answer.engine as AiEngine,
    question,
    sample: answer.sample,
    askedAt: answer.askedAt ?? scan.createdAt,
    model: answer.model,
    status: answer.status === "failed" ? "failed" : "ok",
    text: whole?.text ?? null,
    sources: whole?.sources ?? [],
    named: parseList<Named>(answer.named),
    error: answer.status === "ok" ? (whole ? null : "The stored answer could not be read.") : (answer.error ?? "No answer"),
  };
}
