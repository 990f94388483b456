// AI Visibility's screen data (issue 29), shared by the page's tests and the screenshots: a done scan (two questions on
// two engines, Gemini failed outright), its answers, the questions view and the estimate.
import type { AnswerView, EstimateView, QuestionEngineFigure, QuestionsView, ScanHistoryRow, ScanView } from "../../worker/features/ai-visibility/rules/contract";
import { reportLineText, type ReportAiVisibility } from "../../worker/features/ai-visibility/rules/scans";

export const AT = "2026-11-20T15:00:00.000Z";

export function questionsView(over: Partial<QuestionsView> = {}): QuestionsView {
  return {
    questions: [
      { id: "q-1", text: "best plumber in Austin", tracked: true, createdAt: AT },
      { id: "q-2", text: "emergency plumber near me", tracked: false, createdAt: AT },
    ],
    suggested: ["best plumber in Austin", "who installs water heaters in Austin TX", "plumber with good reviews in 78701"],
    limit: 10,
    engines: [
      { engine: "chatgpt", available: true, reason: null },
      { engine: "perplexity", available: true, reason: null },
      { engine: "gemini", available: true, reason: null },
      { engine: "google_ai_overview", available: false, reason: "plan" },
      { engine: "google_ai_mode", available: false, reason: "unavailable" },
    ],
    ...over,
  };
}

export const estimate: EstimateView = {
  calls: 30,
  costCents: 45,
  perEngine: [
    { engine: "chatgpt", calls: 10, costCents: 30 },
    { engine: "perplexity", calls: 10, costCents: 10 },
    { engine: "gemini", calls: 10, costCents: 5 },
  ],
  allowed: true,
};

const figure = (over: Partial<QuestionEngineFigure> & Pick<QuestionEngineFigure, "questionId" | "question" | "engine">): QuestionEngineFigure => ({
  k: 2,
  n: 5,
  mention_rate: 0.4,
  low: 0.1176,
  high: 0.7693,
  failed: 0,
  avg_position: 2,
  share_of_voice: 0.25,
  own_site_cited: 1,
  answerIds: ["a-1", "a-2", "a-3", "a-4", "a-5"],
  named: [
    { name: "Lone Star Plumbing", mentions: 5, local: true, self: false },
    { name: "Ridge Plumbing", mentions: 2, local: true, self: true },
  ],
  ...over,
});

export function doneScan(over: Partial<ScanView> = {}): ScanView {
  return {
    id: "s-1",
    business: "own",
    businessName: "Ridge Plumbing",
    status: "done",
    createdAt: AT,
    finishedAt: AT,
    samples: 5,
    engines: ["chatgpt", "perplexity", "gemini"],
    questions: [
      { id: "q-1", text: "best plumber in Austin" },
      { id: "q-2", text: "emergency plumber near me" },
    ],
    progress: { done: 30, total: 30, failed: 10 },
    costCents: 45,
    overall: { k: 5, n: 20, mention_rate: 0.25, low: 0.1119, high: 0.4687, share_of_voice: 0.2, share_low: 0.09, share_high: 0.38 },
    figures: [
      figure({ questionId: "q-1", question: "best plumber in Austin", engine: "chatgpt" }),
      figure({ questionId: "q-1", question: "best plumber in Austin", engine: "perplexity", k: 0, mention_rate: 0, low: 0, high: 0.4345, avg_position: null, share_of_voice: 0, own_site_cited: 0, answerIds: ["a-6", "a-7", "a-8", "a-9", "a-10"] }),
      figure({ questionId: "q-1", question: "best plumber in Austin", engine: "gemini", k: 0, n: 0, mention_rate: null, low: 0, high: 0, failed: 5, avg_position: null, share_of_voice: null, own_site_cited: 0, answerIds: [], named: [] }),
      figure({ questionId: "q-2", question: "emergency plumber near me", engine: "chatgpt", k: 3, mention_rate: 0.6, low: 0.2307, high: 0.8824, avg_position: 1.3, answerIds: ["a-11", "a-12", "a-13", "a-14", "a-15"] }),
    ],
    citedDomains: [
      { domain: "angi.com", answers: 7, of: 10, engines: ["perplexity"], missing: true },
      { domain: "yelp.com", answers: 4, of: 20, engines: ["chatgpt", "perplexity"], missing: false },
      { domain: "reddit.com", answers: 2, of: 20, engines: ["chatgpt"], missing: null },
    ],
    actions: { items: ["Get listed on Angi: Perplexity cited it in 7 of 10 answers.", "Ask for reviews: Lone Star Plumbing has 212 to your 48."], source: "template" },
    engineErrors: [{ engine: "gemini", message: "Gemini did not answer any question this time. Run the scan again later." }],
    ...over,
  };
}

export function runningScan(): ScanView {
  return doneScan({ status: "running", finishedAt: null, progress: { done: 12, total: 30, failed: 1 }, overall: null, figures: [], citedDomains: [], actions: null, engineErrors: [] });
}

export function historyRow(scan: ScanView, trigger: ScanHistoryRow["trigger"] = "manual"): ScanHistoryRow {
  const { id, status, createdAt, finishedAt, samples, engines, progress, overall } = scan;
  const perEngine = engines.flatMap((engine) => {
    const f = scan.figures.filter((x) => x.engine === engine && x.n > 0);
    if (f.length === 0) return [];
    const k = f.reduce((a, x) => a + x.k, 0);
    const n = f.reduce((a, x) => a + x.n, 0);
    return [{ engine, k, n, mention_rate: k / n, low: Math.min(...f.map((x) => x.low)), high: Math.max(...f.map((x) => x.high)) }];
  });
  return { id, status, trigger, createdAt, finishedAt, samples, engines, questions: scan.questions.length, progress, overall, perEngine };
}

/** Three weekly scans of the tracked question: ChatGPT rising from 1 to 4 of 5, Perplexity 1 of 5 each week. */
export function weeklyHistory(): ScanHistoryRow[] {
  const weeks = [
    { at: "2026-11-20T15:00:00.000Z", k: 4, low: 0.3755, high: 0.9638 },
    { at: "2026-11-13T15:00:00.000Z", k: 2, low: 0.1176, high: 0.7693 },
    { at: "2026-11-06T15:00:00.000Z", k: 1, low: 0.0362, high: 0.6245 },
  ];
  return weeks.map((w, i) =>
    historyRow(
      doneScan({
        id: `s-${i + 1}`,
        createdAt: w.at,
        questions: [{ id: "q-1", text: "best plumber in Austin" }],
        engines: ["chatgpt", "perplexity"],
        figures: [
          figure({ questionId: "q-1", question: "best plumber in Austin", engine: "chatgpt", k: w.k, mention_rate: w.k / 5, low: w.low, high: w.high }),
          figure({ questionId: "q-1", question: "best plumber in Austin", engine: "perplexity", k: 1, mention_rate: 0.2, low: 0.0362, high: 0.6245 }),
        ],
      }),
      "weekly",
    ),
  );
}

export function answer(id: string, over: Partial<AnswerView> = {}): AnswerView {
  return {
    id,
    scanId: "s-1",
    engine: "chatgpt",
    question: "best plumber in Austin",
    sample: Number(id.slice(2)) || 1,
    askedAt: AT,
    model: "gpt-4.1-mini",
    status: "ok",
    text: "For plumbing in Austin, Lone Star Plumbing is well reviewed for emergencies. Ridge Plumbing is another local option with good water-heater work.",
    sources: [
      { url: "https://www.angi.com/companylist/us/tx/austin/plumbing.htm", title: "Top plumbers in Austin - Angi" },
      { url: "https://ridgeplumbing.example/", title: "Ridge Plumbing" },
    ],
    named: [
      { name: "Lone Star Plumbing", self: false, local: true },
      { name: "Ridge Plumbing", self: true, local: true },
    ],
    error: null,
    ...over,
  };
}

const line = (l: Omit<ReportAiVisibility["lines"][number], "text" | "engineLabel">): ReportAiVisibility["lines"][number] => ({ ...l, engineLabel: l.engine, text: reportLineText(l) });

/** The report's section as the pipeline sends it (worker/features/ai-visibility/for-reports.ts). */
export const reportAi: ReportAiVisibility = {
  scanId: "s-9",
  askedAt: AT,
  trade: "roofers",
  city: "Mesa",
  businessName: "Copper Roofing",
  samples: 5,
  overall: { k: 0, n: 9, mention_rate: 0, low: 0, high: 0.3, share_of_voice: 0, share_low: 0, share_high: 0.3 },
  lines: [
    line({ question: "best roofer in Mesa", engine: "chatgpt", n: 5, failed: 0, self: 0, top: { name: "Desert Sun Roofing", mentions: 5 }, answerIds: ["a-1", "a-2"] }),
    line({ question: "roof repair near me", engine: "perplexity", n: 4, failed: 1, self: 0, top: null, answerIds: [] }),
  ],
};
