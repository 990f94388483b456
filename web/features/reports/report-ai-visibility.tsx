// The report's "What AI assistants say about <trade> in <city>" (issue 29), on the admin's report and the public shared
// page: a line per question and assistant ("Asked 'best roofer in Mesa' 5 times, ChatGPT named Desert Sun Roofing 5
// times and you 0 times") with its answers one click away (a disclosure on the shared page, the tool for the admin).
// Pure: rendered to HTML by the worker as well. Also the text with business names marked, shared with the tool.
import type { ReactNode } from "react";
import { markNames } from "../../../worker/features/ai-visibility/rules/contract";
import type { ReportAiLine, ReportAiVisibility } from "../../../worker/features/ai-visibility/rules/scans";
import { formatLongUsDate } from "../../../worker/features/reports/rules/format";
import { SparklesIcon } from "../../design/icons";
import { ReportSection } from "./report-sections";

export const AI_VISIBILITY_SECTION_ID = "ai-visibility";

/** The tool on a prospect, optionally with answers opened: `/tools/ai-visibility?business=p-9&name=…&answers=a,b`. */
export function aiVisibilityPath(prospect: { id: string; name: string }, answerIds: readonly string[] = []): string {
  const params = new URLSearchParams({ business: prospect.id, name: prospect.name });
  if (answerIds.length > 0) params.set("answers", answerIds.join(","));
  return `/tools/ai-visibility?${params.toString()}`;
}

/** The text with each name marked (the business itself, `self`, more strongly); plain text, never HTML. */
export function HighlightedText({ text, names, self = [] }: { text: string; names: readonly string[]; self?: readonly string[] }) {
  return (
    <>
      {markNames(text, names, self).map((part, i) =>
        part.name ? (
          <mark key={i} className={part.self ? "aiv-self" : undefined}>
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

/**
 * The answers behind a line on the shared page: a disclosure the page's script fills from the share-scoped route
 * (web/features/reports/shared-page/enhance.ts) the first time it opens; its list is left empty here for the script to own.
 */
function SharedAnswers({ line }: { line: ReportAiLine }) {
  const n = line.answerIds.length;
  return (
    <details className="report-ai-answers" data-ai-answers={line.answerIds.join(",")}>
      <summary>
        Read the {n} {n === 1 ? "answer" : "answers"}
      </summary>
      <p className="audit-muted" data-ai-answers-status="" aria-live="polite">
        Opening the answers…
      </p>
      <ol data-ai-answers-list="" />
    </details>
  );
}

/** `answersLink`: the admin's link to a line's answers in the tool; the shared page opens them in place. */
export function AiVisibilitySection({ ai, actions = null, answersLink }: { ai: ReportAiVisibility; actions?: ReactNode; answersLink?: (line: ReportAiLine) => ReactNode }) {
  return (
    <ReportSection
      id={AI_VISIBILITY_SECTION_ID}
      icon={SparklesIcon}
      title={`What AI assistants say about ${ai.trade} in ${ai.city}`}
      subtitle={`Asked on ${formatLongUsDate(ai.askedAt)}, several times each, since AI answers change from one run to the next`}
      actions={actions}
    >
      <ul className="report-ai-lines">
        {ai.lines.map((line) => (
          <li key={`${line.question}-${line.engine}`}>
            <p>{line.text}.</p>
            {answersLink ? answersLink(line) : line.answerIds.length > 0 ? <SharedAnswers line={line} /> : null}
          </li>
        ))}
      </ul>
      {ai.lines.some((l) => l.engine === "chatgpt") ? <p className="audit-muted">ChatGPT was asked through OpenAI's API with web search, whose answers can differ from the ChatGPT app.</p> : null}
    </ReportSection>
  );
}
