// The Generating Content screen: the six kinds of content and, when known, the real progress of the queue job.
import type { ReportStatus } from "../../../worker/features/reports/rules/view";
import { CheckIcon } from "../../design/icons";
import "./report-generating.css";

/** The six kinds of content a report holds (spec part 2 §2, Create New Report). */
export const CONTENT_KINDS = [
  "SEO meta tags and search preview",
  "A Google Ads headline and description",
  "Google My Business article ideas",
  "Blog post article structures",
  "Educational Facebook posts",
  "An SEO potential score",
] as const;

export const GENERATING_NOTE = "This may take a minute or two. Please don't close this page.";

type Progress = {
  status: ReportStatus;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
};

type Step = { key: string; label: string; detail?: string; state: "done" | "active" | "todo" };

function steps(p: Progress): Step[] {
  const order = p.status === "ready" ? 3 : p.status === "generating" ? 1 : 0;
  const state = (i: number): Step["state"] => (i < order ? "done" : i === order ? "active" : "todo");
  const retrying = p.status !== "generating" && p.attempts > 0;
  return [
    {
      key: "queued",
      label: retrying ? `Queued for attempt ${p.attempts + 1} of ${p.maxAttempts}` : "Queued",
      detail: retrying
        ? `Attempt ${p.attempts} did not finish${p.lastError ? `: ${p.lastError}` : ""}. Retrying shortly.`
        : "Waiting for a generator to pick it up",
      state: state(0),
    },
    {
      key: "generating",
      label: p.status === "generating" ? `Generating — attempt ${Math.max(1, p.attempts)} of ${p.maxAttempts}` : "Generating",
      detail: "The AI is writing and checking every section",
      state: state(1),
    },
    { key: "ready", label: "Ready", state: state(2) },
  ];
}

export function GeneratingScreen({
  title = "Generating Content",
  intro,
  note = GENERATING_NOTE,
  progress,
}: {
  title?: string;
  /** A line above the note, e.g. the business the report is for. */
  intro?: string;
  note?: string;
  progress?: Progress;
}) {
  return (
    <section className="card generating" aria-labelledby="generating-title" aria-busy="true">
      <div className="generating-glow" aria-hidden="true">
        <span className="spinner generating-spinner" />
      </div>
      <h1 className="generating-title" id="generating-title">
        {title}
      </h1>
      {intro ? <p className="generating-intro">{intro}</p> : null}
      <p className="generating-note">{note}</p>

      {progress ? (
        <ol className="generating-steps" aria-label="Progress" aria-live="polite">
          {steps(progress).map((step) => (
            <li key={step.key} className={`generating-step is-${step.state}`} aria-current={step.state === "active" ? "step" : undefined}>
              <span className="generating-step-dot" aria-hidden="true">
                {step.state === "done" ? <CheckIcon size="sm" /> : null}
              </span>
              <span className="generating-step-text">
                <strong>{step.label}</strong>
                {step.state === "active" && step.detail ? <small>{step.detail}</small> : null}
              </span>
            </li>
          ))}
        </ol>
      ) : null}

      <div className="generating-kinds">
        <p className="caps-label">What we're creating</p>
        <ul>
          {CONTENT_KINDS.map((kind) => (
            <li key={kind}>
              <span className="generating-kind-dot" aria-hidden="true" />
              {kind}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
