// The answers a figure stands on (AI Visibility, issue 29): a dialog listing them (whether each names the business,
// a first line), and one answer whole — its text with the business names marked, the sources it cites as links,
// the engine, the model and when it was asked, in the business's time zone. A failed answer says it failed.
import { useQueries, useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { AI_ENGINE_LABELS, type AnswerView } from "../../../worker/features/ai-visibility/rules/contract";
import { formatDateTime } from "../../lib/format-date";
import { useBusinessTimeZone } from "../profile";
import { aivAnswerQuery } from "./queries";
import { Alert } from "../../design/alert";
import { Badge } from "../../design/badge";
import { Button } from "../../design/button";
import { ExternalLinkIcon } from "../../design/icons";
import { Modal } from "../../design/modal";
import "./ai-visibility.css";
import { HighlightedText } from "../reports";

/** "Names you" / "Does not name you" / "Failed" for one answer. */
export function AnswerBadge({ answer }: { answer: AnswerView }) {
  if (answer.status === "failed") return <Badge tone="danger">Failed</Badge>;
  return answer.named.some((n) => n.self) ? <Badge tone="success">Names you</Badge> : <Badge tone="warning">Does not name you</Badge>;
}

export function AnswerDetail({ answer }: { answer: AnswerView }) {
  const timeZone = useBusinessTimeZone();
  return (
    <article className="aiv-answer" aria-label={`Answer ${answer.sample}`}>
      <p className="audit-muted">
        {AI_ENGINE_LABELS[answer.engine]}
        {answer.model ? ` · model ${answer.model}` : ""} · asked {formatDateTime(answer.askedAt, timeZone)}
      </p>
      <p>
        <strong>“{answer.question}”</strong> <AnswerBadge answer={answer} />
      </p>
      {answer.status === "failed" ? (
        <Alert tone="error" title="This answer failed">
          {answer.error ?? "The assistant did not answer."} It is not counted as “not mentioned”; the next scan asks again.
        </Alert>
      ) : (
        <>
          <p className="aiv-answer-text">
            <HighlightedText text={answer.text ?? ""} names={answer.named.map((n) => n.name)} self={answer.named.filter((n) => n.self).map((n) => n.name)} />
          </p>
          {answer.named.length > 0 ? (
            <p>
              <strong>Businesses named:</strong> {answer.named.map((n) => (n.self ? `${n.name} (you)` : n.name)).join(", ")}
            </p>
          ) : (
            <p>No business is named in this answer.</p>
          )}
          <h3 className="aiv-subhead">Sources cited</h3>
          {answer.sources.length === 0 ? (
            <p className="audit-muted">This answer cites no sources.</p>
          ) : (
            <ol className="aiv-sources">
              {answer.sources.map((s, i) => (
                <li key={`${s.url}-${i}`}>
                  <a href={s.url} target="_blank" rel="noopener noreferrer">
                    {s.title || s.url} <ExternalLinkIcon size="sm" />
                  </a>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </article>
  );
}

function OneAnswer({ id }: { id: string }) {
  const q = useQuery(aivAnswerQuery(id));
  if (q.isError) return <Alert tone="error">Could not load this answer: {q.error.message}</Alert>;
  if (!q.data) return <p className="audit-muted">Loading the answer…</p>;
  return <AnswerDetail answer={q.data} />;
}

/** The dialog a figure opens: its answers listed, one opened at a time. `initial` opens one at once. */
export function AnswersDialog({ title, answerIds, onClose, initial = null }: { title: string; answerIds: readonly string[]; onClose: () => void; initial?: string | null }) {
  const [open, setOpen] = useState<string | null>(initial ?? (answerIds.length === 1 ? answerIds[0]! : null));
  const list = useQueries({ queries: open ? [] : answerIds.map((id) => aivAnswerQuery(id)) });
  let body: ReactNode;
  if (open) body = <OneAnswer id={open} />;
  else if (answerIds.length === 0) body = <p>No answers were stored for this figure.</p>;
  else
    body = (
      <ol className="aiv-answer-list">
        {answerIds.map((id, i) => {
          const a = list[i]?.data;
          return (
            <li key={id}>
              <div>
                <strong>Answer {a?.sample ?? i + 1}</strong> {a ? <AnswerBadge answer={a} /> : null}
                <span className="audit-muted aiv-snippet">{list[i]?.isError ? "Could not load this answer." : a ? (a.status === "failed" ? (a.error ?? "Failed") : (a.text ?? "").slice(0, 140)) : "Loading…"}</span>
              </div>
              <Button size="sm" onClick={() => setOpen(id)}>
                Read answer
              </Button>
            </li>
          );
        })}
      </ol>
    );
  return (
    <Modal
      title={title}
      onClose={onClose}
      footer={
        <>
          {open && answerIds.length > 1 ? (
            <Button variant="ghost" onClick={() => setOpen(null)}>
              All {answerIds.length} answers
            </Button>
          ) : null}
          <Button onClick={onClose}>Close</Button>
        </>
      }
    >
      <div className="aiv-answers">{body}</div>
    </Modal>
  );
}
