// The report's "What AI assistants say about <trade> in <city>" (issue 29), on the admin's report and the public shared
// page: a line per question and assistant ("Asked 'best roofer in Mesa' 5 times, ChatGPT named Desert Sun Roofing 5
// times and you 0 times") with its answers one click away (a disclosure on the shared page, the tool for the admin).
// Pure: rendered to HTML by the worker as well. Also the text with business names marked, shared with the tool.
import type { ReactNode } from "react";
import type { AiEngine, ReportAiVisibility } from "../../worker/domain/ai-visibility-contract";
import { formatLongUsDate } from "../../worker/domain/report-format";
import { SparklesIcon } from "./icons";
import { ReportSection } from "./report-sections";

export const AI_VISIBILITY_SECTION_ID = "ai-visibility";

/** The assistant's everyday name in a sentence; the tool's labels say how each is reached. */
const ENGINE_NAMES: Record<AiEngine, string> = {
  chatgpt: "ChatGPT",
  google_ai_overview: "Google's AI Overview",
  google_ai_mode: "Google's AI Mode",
  perplexity: "Perplexity",
  gemini: "Gemini",
};

type Item = NonNullable<ReportAiVisibility>["items"][number];

const times = (n: number) => `${n} ${n === 1 ? "time" : "times"}`;

/** "Asked 'best roofer in Mesa' 5 times, ChatGPT named Desert Sun Roofing 5 times and you 0 times". */
export function reportAiLine(item: Item): string {
  const asked = `Asked '${item.question}' ${times(item.samples + (item.failed ?? 0))}`;
  const engine = ENGINE_NAMES[item.engine];
  if (item.samples === 0) return `${asked}, ${engine} did not answer, so nothing is counted`;
  const failed = item.failed ? ` (${item.failed} did not answer and ${item.failed === 1 ? "is" : "are"} not counted)` : "";
  if (item.leader) return `${asked}, ${engine} named ${item.leader.name} ${times(item.leader.mentions)} and you ${times(item.selfMentions)}${failed}`;
  if (item.selfMentions > 0) return `${asked}, ${engine} named you ${times(item.selfMentions)} and no other business${failed}`;
  return `${asked}, ${engine} named no business${failed}`;
}

/** The tool on a prospect, optionally with answers opened: `/tools/ai-visibility?business=p-9&name=…&answers=a,b`. */
export function aiVisibilityPath(prospect: { id: string; name: string }, answerIds: readonly string[] = []): string {
  const params = new URLSearchParams({ business: prospect.id, name: prospect.name });
  if (answerIds.length > 0) params.set("answers", answerIds.join(","));
  return `/tools/ai-visibility?${params.toString()}`;
}

/** The report's value from a payload that may not carry it yet (older reports, before a scan). */
export function reportAiVisibilityOf(data: object): ReportAiVisibility {
  const raw = "aiVisibility" in data ? (data as { aiVisibility?: unknown }).aiVisibility : null;
  if (!raw || typeof raw !== "object") return null;
  if ("items" in raw && Array.isArray(raw.items)) return raw as NonNullable<ReportAiVisibility>;
  // The scan pipeline's payload (h-aiv-scan's `lines`, each with n, self, top): the same figures under other names.
  const r = raw as { scanId?: string; askedAt?: string; trade?: string; city?: string; lines?: { question: string; engine: AiEngine; n: number; self: number; top: { name: string; mentions: number } | null; answerIds: string[] }[] };
  if (!Array.isArray(r.lines)) return null;
  return {
    scanId: r.scanId ?? "",
    createdAt: r.askedAt ?? "",
    trade: r.trade ?? "",
    city: r.city ?? "",
    items: r.lines.map((l) => ({ question: l.question, engine: l.engine, samples: l.n, leader: l.top, selfMentions: l.self, answerIds: l.answerIds ?? [] })),
  };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The text with each name marked (the business itself, `self`, more strongly); plain text, never HTML. */
export function HighlightedText({ text, names, self = [] }: { text: string; names: readonly string[]; self?: readonly string[] }) {
  const marked = [...new Set(names.filter((n) => n.trim().length > 1))].sort((a, b) => b.length - a.length);
  if (marked.length === 0) return <>{text}</>;
  const own = new Set(self.map((n) => n.toLowerCase()));
  const parts = text.split(new RegExp(`(${marked.map(escapeRe).join("|")})`, "gi"));
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <mark key={i} className={own.has(part.toLowerCase()) ? "aiv-self" : undefined}>
            {part}
          </mark>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** `answersLink`: the admin's link to these answers in the tool; the shared page shows the answers it carries. */
export function AiVisibilitySection({ ai, actions = null, answersLink }: { ai: NonNullable<ReportAiVisibility>; actions?: ReactNode; answersLink?: (item: Item) => ReactNode }) {
  return (
    <ReportSection
      id={AI_VISIBILITY_SECTION_ID}
      icon={SparklesIcon}
      title={`What AI assistants say about ${ai.trade} in ${ai.city}`}
      subtitle={`Asked on ${formatLongUsDate(ai.createdAt)}, several times each, since AI answers change from one run to the next`}
      actions={actions}
    >
      <ul className="report-ai-lines">
        {ai.items.map((item) => (
          <li key={`${item.question}-${item.engine}`}>
            <p>{reportAiLine(item)}.</p>
            {answersLink ? (
              answersLink(item)
            ) : item.answers && item.answers.length > 0 ? (
              <details className="report-ai-answers">
                <summary>Read the {item.answers.length} answers</summary>
                <ol>
                  {item.answers.map((a) => (
                    <li key={a.id}>
                      <p className="report-ai-text">
                        <HighlightedText text={a.text} names={a.named} />
                      </p>
                      {a.sources.length > 0 ? (
                        <p className="report-ai-sources">
                          Sources:{" "}
                          {a.sources.map((s, i) => (
                            <span key={`${s.url}-${i}`}>
                              {i > 0 ? ", " : ""}
                              <a href={s.url} target="_blank" rel="noopener noreferrer">
                                {s.title || s.url}
                              </a>
                            </span>
                          ))}
                        </p>
                      ) : null}
                    </li>
                  ))}
                </ol>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
      {ai.items.some((i) => i.engine === "chatgpt") ? <p className="audit-muted">ChatGPT was asked through OpenAI's API with web search, whose answers can differ from the ChatGPT app.</p> : null}
    </ReportSection>
  );
}
