// /tools/ai-visibility: AI Visibility (issue 29) — whether AI assistants recommend the business when asked about its
// trade in its city, how sure that is, and why not. Questions (suggested, editable, tracked weekly), the engines
// and samples with the cost before a scan, the scan's progress, the figures with their 95% intervals (each one click
// from the answers it stands on), the sources the assistants cite, what to do, and the tracked questions' history.
import { useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import {
  AI_DEFAULT_SAMPLES,
  AI_ENGINE_LABELS,
  AI_ENGINES,
  AI_MAX_SAMPLES,
  AI_MIN_SAMPLES,
  type AiEngine,
  type EngineAvailability,
  type EstimateView,
  type QuestionEngineFigure,
  type QuestionsView,
  type ScanHistoryRow,
  type ScanView,
} from "../../../../worker/features/ai-visibility/rules/contract";
import { formatCost } from "../../../../worker/domain/usage-cost";
import { AnswersDialog } from "../ai-answers";
import { Alert, RetryAlert } from "../../../design/alert";
import { ShownOrOpen, ToolBlock } from "../../../design/tool-block";
import { Badge } from "../../../design/badge";
import { BusinessToolPage, MissingDetails, useBusinessChoice } from "../../audits";
import { Button, SaveCancelButtons } from "../../../design/button";
import { ChatIcon, PlusIcon, SparklesIcon, TrashIcon } from "../../../design/icons";
import { IntervalBar, percent, rateText } from "../interval-bar";
import { Placeholder } from "../../../design/placeholder";
import { RateHistoryChart } from "../rate-history-chart";
import { LoadingScreen } from "../../../app/route-guards";
import { ScanProgress } from "../../rank";
import { StatCard } from "../../../design/stat-card";
import { TableHead } from "../../../design/table-head";
import { TextField } from "../../../design/text-field";
import { ApiError } from "../../../lib/api";
import { useAuth } from "../../../lib/auth";
import { formatDateTime } from "../../../lib/format-date";
import { useBusinessTimeZone } from "../../profile";
import { useViewAs } from "../../../lib/view-as";
import { aivEstimateQuery, aivKeys, aivQuestionsQuery, aivScanQuery, aivScansQuery, useChangeQuestion, useRunAiScan, type ScanRequest } from "../queries";
import "../../../design/scan-results.css";
import { businessParam } from "../../rank";
import type { RankTarget } from "../../rank";
import "../ai-visibility.css";

/** A colour per engine for the history chart's lines and bands. */
const ENGINE_COLORS: Record<AiEngine, string> = {
  chatgpt: "#10a37f",
  google_ai_overview: "#1a73e8",
  google_ai_mode: "#c2185b",
  perplexity: "#6b4fbb",
  gemini: "#e37400",
};

const CHATGPT_NOTE = "Answers through the API can differ from what the ChatGPT app shows.";

/** "you are not on Angi": a domain's first label, capitalised. */
function siteName(domain: string): string {
  const label = domain.replace(/^www\./, "").split(".")[0] ?? domain;
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** The engines the questions route lists; without that list every engine is offered and the server refuses what it lacks. */
function engineList(view: QuestionsView): EngineAvailability[] {
  return view.engines ?? AI_ENGINES.map((engine) => ({ engine, available: true, reason: null }));
}

type Opened = { title: string; answerIds: string[] };

/** The figure's words as a button: one click opens the answers it stands on. */
function FigureButton({ children, title, answerIds, onOpen }: { children: ReactNode; title: string; answerIds: string[]; onOpen: (o: Opened) => void }) {
  return (
    <button type="button" className="aiv-figure" onClick={() => onOpen({ title, answerIds })}>
      {children}
    </button>
  );
}

// ---- Questions -----------------------------------------------------------------------------------------------------

function QuestionRow({ q, target, readOnly }: { q: QuestionsView["questions"][number]; target: RankTarget; readOnly: boolean }) {
  const change = useChangeQuestion(target);
  const [draft, setDraft] = useState<string | null>(null);
  if (draft !== null) {
    return (
      <li>
        <form
          className="aiv-question-edit"
          onSubmit={(e) => {
            e.preventDefault();
            if (draft.trim()) change.mutate({ op: "edit", id: q.id, text: draft.trim() }, { onSuccess: () => setDraft(null) });
          }}
        >
          <TextField label="Question" value={draft} maxLength={200} onChange={(e) => setDraft(e.target.value)} error={change.error?.message} />
          <SaveCancelButtons busy={change.isPending} onCancel={() => setDraft(null)} />
        </form>
      </li>
    );
  }
  return (
    <li>
      <span className="aiv-question-text">“{q.text}”</span>
      <label className="aiv-track">
        <input type="checkbox" checked={q.tracked} disabled={readOnly || change.isPending} onChange={(e) => change.mutate({ op: "edit", id: q.id, tracked: e.target.checked })} />
        Track weekly
      </label>
      {readOnly ? null : (
        <span className="aiv-question-actions">
          <Button size="sm" variant="ghost" onClick={() => setDraft(q.text)}>
            Edit
          </Button>
          <Button size="sm" variant="ghost" aria-label={`Remove “${q.text}”`} busy={change.isPending} onClick={() => change.mutate({ op: "remove", id: q.id })}>
            <TrashIcon size="sm" />
          </Button>
        </span>
      )}
      {change.error ? <Alert tone="error">{change.error.message}</Alert> : null}
    </li>
  );
}

function QuestionsCard({ view, target, readOnly }: { view: QuestionsView; target: RankTarget; readOnly: boolean }) {
  const add = useChangeQuestion(target);
  const [text, setText] = useState("");
  const full = view.questions.length >= view.limit;
  const suggestions = view.suggested.filter((s) => !view.questions.some((q) => q.text.toLowerCase() === s.toLowerCase()));
  return (
    <ToolBlock
      titleId="aiv-questions-title"
      title="Questions"
      aside={
        <span className="audit-muted">
          {view.questions.length} of {view.limit} questions on your plan
        </span>
      }
    >
      {view.questions.length > 0 ? (
        <ul className="aiv-questions">
          {view.questions.map((q) => (
            <QuestionRow key={q.id} q={q} target={target} readOnly={readOnly} />
          ))}
        </ul>
      ) : (
        <p className="audit-muted">No questions saved yet: a scan asks the suggestions below. Add them to edit them or track them weekly.</p>
      )}
      {suggestions.length > 0 && !readOnly ? (
        <div>
          <h3 className="aiv-subhead">Suggested from your category and city</h3>
          <ul className="aiv-questions">
            {suggestions.map((s) => (
              <li key={s}>
                <span className="aiv-question-text">“{s}”</span>
                <Button size="sm" disabled={full || add.isPending} onClick={() => add.mutate({ op: "add", text: s, tracked: true })}>
                  <PlusIcon size="sm" /> Add and track
                </Button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {readOnly ? null : (
        <form
          className="aiv-question-edit"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) add.mutate({ op: "add", text: text.trim(), tracked: false }, { onSuccess: () => setText("") });
          }}
        >
          <TextField
            label="Add a question"
            placeholder="e.g. who fixes water heaters near me"
            value={text}
            maxLength={200}
            disabled={full}
            hint={full ? "Your plan's limit is reached: remove a question to add another." : undefined}
            onChange={(e) => setText(e.target.value)}
          />
          <Button type="submit" variant="secondary" busy={add.isPending} disabled={full || !text.trim()}>
            Add
          </Button>
        </form>
      )}
      {add.error ? <Alert tone="error">{add.error.message}</Alert> : null}
    </ToolBlock>
  );
}

// ---- A new scan ----------------------------------------------------------------------------------------------------

/** Why an engine cannot be chosen, in the customer's words; admins get the way to the Set-up page. */
function EngineUnavailable({ e, operator }: { e: EngineAvailability; operator: boolean }) {
  const why = e.reason === "plan" ? "not available on your plan yet" : "not available right now";
  return (
    <li>
      {AI_ENGINE_LABELS[e.engine]}: {why}
      {operator && e.reason !== "plan" ? (
        <>
          {" "}
          (set up on the <Link to="/admin/setup">Set-up page</Link>)
        </>
      ) : null}
    </li>
  );
}

/** Past the allowance (estimate or a 402 answer): what happened and where to get more. */
function AllowanceMessage({ cents }: { cents: number | null }) {
  return (
    <Alert tone="warning" title="Over this month's allowance">
      <p>
        {cents === null ? "This scan" : `This scan needs about ${formatCost(cents / 100)}, which`} is more than is left of this month's allowance. Ask fewer questions, fewer
        engines or fewer answers each, or <Link to="/subscription">upgrade your plan</Link> for more.
      </p>
    </Alert>
  );
}

function ScanForm({
  view,
  asked,
  engines,
  setEngines,
  samples,
  setSamples,
  estimate,
  run,
  readOnly,
  blockedReason,
  action,
}: {
  view: QuestionsView;
  asked: string[];
  engines: AiEngine[];
  setEngines: (e: AiEngine[]) => void;
  samples: number;
  setSamples: (n: number) => void;
  estimate: UseQueryResult<EstimateView>;
  run: ReturnType<typeof useRunAiScan>;
  readOnly: boolean;
  blockedReason: string | null;
  /** The scan button (none before the first scan: the empty state has it). */
  action: ReactNode;
}) {
  const { isAdmin } = useAuth();
  const viewAs = useViewAs();
  const operator = isAdmin && !viewAs;
  const available = engineList(view).filter((e) => e.available);
  const unavailable = engineList(view).filter((e) => !e.available);
  const e = estimate.data;
  const over = run.error instanceof ApiError && run.error.status === 402;
  return (
    <ToolBlock titleId="aiv-form-title" title="New scan">
      <fieldset className="aiv-engines">
        <legend className="field-label">Assistants to ask</legend>
        {available.length === 0 ? <p className="audit-muted">No assistant is available right now; your agency has been told.</p> : null}
        {available.map(({ engine }) => (
          <label key={engine} className="aiv-engine">
            <input
              type="checkbox"
              checked={engines.includes(engine)}
              disabled={readOnly}
              onChange={(ev) => setEngines(ev.target.checked ? [...engines, engine] : engines.filter((x) => x !== engine))}
            />
            <span>
              {AI_ENGINE_LABELS[engine]}
              {engine === "chatgpt" ? <span className="cit-should">{CHATGPT_NOTE}</span> : null}
            </span>
          </label>
        ))}
        {unavailable.length > 0 ? (
          <ul className="aiv-unavailable audit-muted">
            {unavailable.map((u) => (
              <EngineUnavailable key={u.engine} e={u} operator={operator} />
            ))}
          </ul>
        ) : null}
      </fieldset>
      <TextField
        label="Answers per question and assistant"
        type="number"
        min={AI_MIN_SAMPLES}
        max={AI_MAX_SAMPLES}
        value={samples}
        disabled={readOnly}
        className="aiv-samples"
        hint={`AI answers change from one run to the next: each question is asked ${samples} times on each assistant (at least ${AI_MIN_SAMPLES}), so every figure has a sample and an interval.`}
        onChange={(ev) => setSamples(Math.min(AI_MAX_SAMPLES, Math.max(AI_MIN_SAMPLES, Number(ev.target.value) || AI_DEFAULT_SAMPLES)))}
      />
      {readOnly ? (
        <p className="audit-muted">Read-only while viewing as another user.</p>
      ) : blockedReason ? (
        <p className="audit-muted">{blockedReason}</p>
      ) : estimate.error ? (
        <p className="audit-muted">Could not work out the cost: {estimate.error.message}</p>
      ) : !e ? (
        <p className="audit-muted">Working out the cost…</p>
      ) : (
        <div role="status">
          <p className="scan-estimate">
            {asked.length} question{asked.length === 1 ? "" : "s"} × {engines.length} assistant{engines.length === 1 ? "" : "s"} × {samples} answers = {e.calls} calls · about{" "}
            {formatCost(e.costCents / 100)}
          </p>
          <p className="audit-muted">{e.perEngine.map((p) => `${AI_ENGINE_LABELS[p.engine]}: ${p.calls} calls, ${formatCost(p.costCents / 100)}`).join(" · ")}</p>
        </div>
      )}
      {(e && !e.allowed) || over ? <AllowanceMessage cents={e?.costCents ?? null} /> : null}
      {run.error && !over ? <Alert tone="error">{run.error.message}</Alert> : null}
      {action ? <div>{action}</div> : null}
    </ToolBlock>
  );
}

// ---- Results -------------------------------------------------------------------------------------------------------

function positionText(p: number | null): string {
  return p === null ? "Not named" : `#${p.toFixed(1).replace(/\.0$/, "")}`;
}

function FigureRow({ f, onOpen, engineError }: { f: QuestionEngineFigure; onOpen: (o: Opened) => void; engineError: string | null }) {
  const title = `“${f.question}” on ${AI_ENGINE_LABELS[f.engine]}`;
  const rate = f.mention_rate;
  return (
    <tr>
      <td>
        <strong>“{f.question}”</strong>
        <span className="cit-should">{AI_ENGINE_LABELS[f.engine]}</span>
      </td>
      {rate === null ? (
        <td colSpan={4} className="aiv-failed">
          <Badge tone="danger">Failed</Badge> {f.failed} of {f.failed} answers failed, so this is not counted as “not mentioned”.{" "}
          {engineError ?? "Run the scan again later."}{" "}
          {f.answerIds.length > 0 ? (
            <FigureButton title={title} answerIds={f.answerIds} onOpen={onOpen}>
              See what happened
            </FigureButton>
          ) : null}
        </td>
      ) : (
        <>
          <td>
            <FigureButton title={title} answerIds={f.answerIds} onOpen={onOpen}>
              {rateText({ ...f, mention_rate: rate })}
            </FigureButton>
            <IntervalBar rate={rate} low={f.low} high={f.high} />
            {f.failed > 0 ? <span className="cit-should">{f.failed} more failed and are not counted.</span> : null}
          </td>
          <td data-label="First mention">{positionText(f.avg_position)}</td>
          <td data-label="Share of AI voice">{f.share_of_voice === null ? "No local business named" : percent(f.share_of_voice)}</td>
          <td data-label="Your site cited">
            {f.own_site_cited} of {f.n}
          </td>
        </>
      )}
    </tr>
  );
}

function CitedDomains({ scan }: { scan: ScanView }) {
  return (
    <ToolBlock titleId="aiv-cited-title" title="Sources the assistants cite">
      {scan.citedDomains.length === 0 ? (
        <p className="audit-muted">The answers cited no sources.</p>
      ) : (
        <table className="audit-table cit-table">
          <TableHead columns={["Site", "Cited in", "You there?"]} />
          <tbody>
            {scan.citedDomains.map((d) => (
              <tr key={d.domain}>
                <td>
                  <strong>{d.domain}</strong>
                  <span className="cit-should">{d.engines.map((e) => AI_ENGINE_LABELS[e]).join(", ")}</span>
                </td>
                <td>
                  {d.answers} of {d.of} answers
                </td>
                <td>
                  {d.missing === true ? (
                    <Badge tone="warning">You are not on {siteName(d.domain)}</Badge>
                  ) : d.missing === false ? (
                    <Badge tone="success">Listed</Badge>
                  ) : (
                    <span className="audit-muted">Not checked</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {scan.citedDomains.some((d) => d.missing === null) ? (
        <p className="audit-muted">
          “Not checked”: run the <Link to="/tools/citation-tracker">Citation Tracker</Link> to see which of these sites list you.
        </p>
      ) : null}
    </ToolBlock>
  );
}

function WhatToDo({ actions }: { actions: NonNullable<ScanView["actions"]> }) {
  return (
    <ToolBlock
      titleId="aiv-todo-title"
      title="What to do"
      aside={
        <Badge tone="view">{actions.source === "ai" ? "Written by AI from these figures" : "Suggested from your figures"}</Badge>
      }
    >
      {actions.source === "template" ? <p className="audit-muted">AI writing wasn't available for this scan, so these come from our standard suggestions for your figures.</p> : null}
      <ol className="cit-fixes">
        {actions.items.map((a) => (
          <li key={a}>{a}</li>
        ))}
      </ol>
    </ToolBlock>
  );
}

function ScanResult({ scan, onOpen }: { scan: ScanView; onOpen: (o: Opened) => void }) {
  const timeZone = useBusinessTimeZone();
  const running = scan.status === "queued" || scan.status === "running";
  const p = scan.progress;
  const o = scan.overall;
  const allIds = scan.figures.flatMap((f) => f.answerIds);
  const errorOf = (engine: AiEngine) => scan.engineErrors.find((e) => e.engine === engine)?.message ?? null;
  return (
    <>
      <section className="card card-pad audit-result" aria-labelledby="aiv-scan-title">
        <header className="audit-result-head">
          <div>
            <h2 id="aiv-scan-title">{scan.businessName}</h2>
            <p className="audit-muted">
              Scan of {formatDateTime(scan.createdAt, timeZone)} · {scan.samples} answers per question and assistant
              {scan.costCents > 0 ? ` · ${formatCost(scan.costCents / 100)}` : ""}
            </p>
            {running ? (
              <>
                <ScanProgress>
                  Asking the assistants: {p.done} of {p.total} answers in{p.failed > 0 ? `, ${p.failed} failed` : ""}
                </ScanProgress>
                <progress className="aiv-progress" max={Math.max(1, p.total)} value={p.done} aria-label="Scan progress" />
              </>
            ) : null}
          </div>
        </header>
        {scan.status === "failed" ? <Alert tone="error" title="The scan failed">No assistant answered. Nothing is counted as “not mentioned”; try again later.</Alert> : null}
        {scan.engineErrors.map((e) => (
          <Alert key={e.engine} tone="error" title={`${AI_ENGINE_LABELS[e.engine]} failed`}>
            {e.message} Its answers are shown as failed, not as “not mentioned”.
          </Alert>
        ))}
        {o ? (
          <>
            <div className="cit-stats">
              <StatCard icon={ChatIcon} value={percent(o.mention_rate)} label={`Mention rate: ${rateText(o)}`} />
              <StatCard
                icon={SparklesIcon}
                value={o.share_of_voice === null ? "—" : percent(o.share_of_voice)}
                label={
                  o.share_of_voice === null
                    ? "Share of AI voice: no local business was named"
                    : `Share of AI voice${o.share_low !== null && o.share_high !== null ? ` (95% interval ${Math.round(o.share_low * 100)}–${percent(o.share_high)})` : ""}`
                }
              />
            </div>
            <p>
              Overall, AI assistants named you in{" "}
              <FigureButton title="Every answer of this scan" answerIds={allIds} onOpen={onOpen}>
                {rateText(o)}
              </FigureButton>
              . Each question and assistant counts equally.
            </p>
          </>
        ) : null}
      </section>
      {scan.figures.length > 0 ? (
        <ToolBlock titleId="aiv-figures-title" title="Each question on each assistant">
          <p className="audit-muted">Click a figure to read the answers it stands on. The bar shows the 95% interval: the wider it is, the less sure the figure.</p>
          <table className="audit-table cit-table aiv-figures">
            <TableHead columns={["Question", "Named you in", "First mention", "Share of AI voice", "Your site cited"]} />
            <tbody>
              {scan.figures.map((f) => (
                <FigureRow key={`${f.questionId}-${f.engine}`} f={f} onOpen={onOpen} engineError={errorOf(f.engine)} />
              ))}
            </tbody>
          </table>
          {scan.engines.includes("chatgpt") ? <p className="audit-muted">OpenAI API with web search: {CHATGPT_NOTE}</p> : null}
        </ToolBlock>
      ) : null}
      {!running ? <CitedDomains scan={scan} /> : null}
      {!running && scan.actions ? <WhatToDo actions={scan.actions} /> : null}
    </>
  );
}

// ---- History -------------------------------------------------------------------------------------------------------

function History({ scans, shown, onShow }: { scans: ScanHistoryRow[]; shown: string; onShow: (id: string) => void }) {
  const timeZone = useBusinessTimeZone();
  const done = scans.filter((s) => s.status === "done").reverse();
  // The weekly scans ask the tracked questions, the same ones each week: their series is the one to read over time.
  const weekly = done.filter((s) => s.trigger === "weekly");
  const plotted = weekly.length >= 2 ? weekly : done;
  const engines = [...new Set(plotted.flatMap((s) => s.perEngine.map((e) => e.engine)))];
  return (
    <ToolBlock titleId="aiv-history-title" title="History">
      {plotted.length < 2 || engines.length === 0 ? (
        <p className="audit-muted">Track a question above and it is asked again every week; from the second scan on, its mention rate on each assistant shows here over time.</p>
      ) : (
        <div className="aiv-history-chart">
          <p className="audit-muted">
            {plotted === weekly ? "Your tracked questions, asked every week" : "Every scan (their questions may differ)"}: how often each assistant named you, with its 95% interval.
          </p>
          <RateHistoryChart
            label="Mention rate over time per assistant, with its 95% interval"
            dates={plotted.map((s) => s.createdAt)}
            series={engines.map((engine) => ({
              key: engine,
              label: AI_ENGINE_LABELS[engine],
              color: ENGINE_COLORS[engine],
              points: plotted.map((s) => {
                const f = s.perEngine.find((x) => x.engine === engine);
                return f && f.n > 0 ? { rate: f.mention_rate, low: f.low, high: f.high } : null;
              }),
            }))}
          />
        </div>
      )}
      <h3 className="aiv-subhead">Scans</h3>
      <ul className="cit-history">
        {scans.map((s) => (
          <li key={s.id} className={s.id === shown ? "is-own" : undefined}>
            <div className="cit-head">
              <strong>
                {formatDateTime(s.createdAt, timeZone)}
                {s.trigger === "weekly" ? " · weekly" : ""}
              </strong>
              <ShownOrOpen shown={s.id === shown} onOpen={() => onShow(s.id)} />
            </div>
            <p className="audit-muted">
              {s.status === "done" || s.status === "failed"
                ? s.overall
                  ? `Named in ${rateText(s.overall)}`
                  : "No answers came back."
                : `Running: ${s.progress.done} of ${s.progress.total} answers in`}
            </p>
          </li>
        ))}
      </ul>
    </ToolBlock>
  );
}

// ---- The page ------------------------------------------------------------------------------------------------------

/** The prospect a link names: `?business=<id>` (or the Citation Tracker's `?prospect=<id>&name=`). */
function prospectFrom(params: URLSearchParams): { id: string; name: string } | null {
  const id = params.get("business") ?? params.get("prospect");
  return id && id !== "own" ? { id, name: params.get("name") ?? "" } : null;
}

function Tool({ target, readOnly, answers }: { target: RankTarget; readOnly: boolean; answers: string[] }) {
  const questions = useQuery(aivQuestionsQuery(target));
  const scans = useQuery(aivScansQuery(target));
  const [chosen, setChosen] = useState<string | null>(null);
  const [picked, setPicked] = useState<AiEngine[] | null>(null);
  const [samples, setSamples] = useState(AI_DEFAULT_SAMPLES);
  // Opened from the report's "Read the answers": those answers at once.
  const [opened, setOpened] = useState<Opened | null>(answers.length > 0 ? { title: "The answers from the report", answerIds: answers } : null);
  const view = questions.data;
  const list = scans.data ?? [];
  const shownId = chosen ?? list[0]?.id ?? null;
  const scan = useQuery({ ...aivScanQuery(shownId ?? ""), enabled: shownId !== null });
  const run = useRunAiScan(target);

  const availableEngines = (view ? engineList(view) : []).filter((e) => e.available).map((e) => e.engine);
  const engines = (picked ?? availableEngines).filter((e) => availableEngines.includes(e));
  // The saved questions, or (none saved yet) the suggestions up to the plan's limit.
  const asked = view ? (view.questions.length > 0 ? view.questions.map((q) => q.text) : view.suggested.slice(0, view.limit)) : [];
  const request: ScanRequest = { questions: asked, engines, samples };
  const blockedReason =
    asked.length === 0
      ? "Add a question to scan."
      : availableEngines.length === 0
        ? "A scan can run once an assistant is available."
        : engines.length === 0
          ? "Choose at least one assistant."
          : null;
  const estimate = useQuery({ ...aivEstimateQuery(target, request), enabled: Boolean(view) && !readOnly && blockedReason === null });
  // The shown scan's own poll is fresher than the list's: a scan it sees finished no longer blocks the next one.
  const running = list.some((s) => {
    const status = s.id === scan.data?.id ? scan.data.status : s.status;
    return status === "queued" || status === "running";
  });
  const scanFinished = scan.data?.status === "done" || scan.data?.status === "failed";
  const client = useQueryClient();
  useEffect(() => {
    if (scanFinished) void client.invalidateQueries({ queryKey: aivKeys.scans(businessParam(target)) });
  }, [scanFinished, client, target]);
  const canRun = !readOnly && blockedReason === null && estimate.data?.allowed === true && !run.isPending && !running;
  const start = () => run.mutate(request, { onSuccess: (s) => setChosen(s.id) });
  const runButton = (label: string) => (
    <Button variant="primary" busy={run.isPending} disabled={!canRun} onClick={start}>
      {label}
    </Button>
  );

  if (questions.isError || scans.isError) {
    return <RetryAlert message={(questions.error ?? scans.error)?.message ?? null} onRetry={() => void (questions.isError ? questions.refetch() : scans.refetch())} />;
  }
  if (!view || scans.isPending) return <LoadingScreen />;

  let result: ReactNode;
  if (scan.isError) result = <RetryAlert message={`Could not load the scan: ${scan.error.message}`} onRetry={() => void scan.refetch()} />;
  else if (shownId && !scan.data) result = <LoadingScreen />;
  else if (!scan.data) {
    result = (
      <Placeholder icon={SparklesIcon} title="What do AI assistants say about you?" className="empty-state">
        <p className="placeholder-text">
          People now ask ChatGPT, Google's AI answers, Perplexity and Gemini “who is the best plumber near me”. A scan asks your questions on each assistant several times,
          counts how often you are named (with how sure that figure is), shows which sites the assistants cite, and suggests what to do.
        </p>
        {runButton("Run your first scan")}
      </Placeholder>
    );
  } else result = <ScanResult scan={scan.data} onOpen={setOpened} />;

  return (
    <>
      <QuestionsCard view={view} target={target} readOnly={readOnly} />
      <ScanForm
        view={view}
        asked={asked}
        engines={engines}
        setEngines={setPicked}
        samples={samples}
        setSamples={setSamples}
        estimate={estimate}
        run={run}
        readOnly={readOnly}
        blockedReason={blockedReason}
        action={shownId ? runButton(running ? "A scan is running…" : "Scan now") : null}
      />
      {result}
      {list.length > 0 && shownId ? <History scans={list} shown={shownId} onShow={setChosen} /> : null}
      {opened ? <AnswersDialog title={opened.title} answerIds={opened.answerIds} onClose={() => setOpened(null)} /> : null}
    </>
  );
}

export default function AiVisibilityPage() {
  const [params] = useSearchParams();
  // Opened from a prospect's report (issue 29): that prospect is chosen already.
  const choice = useBusinessChoice(prospectFrom(params));
  let body: ReactNode = null;
  if (choice.loading) body = <LoadingScreen />;
  else if (choice.missing.length) body = <MissingDetails missing={choice.missing} what="AI Visibility asks about your trade in your city." />;
  else if (choice.target) body = <Tool key={JSON.stringify(choice.target)} target={choice.target} readOnly={choice.readOnly} answers={(params.get("answers") ?? "").split(",").filter(Boolean)} />;
  return (
    <BusinessToolPage
      title="AI Visibility"
      subtitle="Whether ChatGPT, Google's AI answers, Perplexity and Gemini recommend you when people ask about your trade in your city, how sure that is, and why not."
      choice={choice}
    >
      <title>AI Visibility · Porchlight</title>
      {body}
    </BusinessToolPage>
  );
}
