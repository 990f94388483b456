// /admin/attention (issue 41): what needs a person across every client, most urgent first: a lost verification, a
// change to the Google profile (accepted or rejected here, side by side, after the risk check), a low review waiting
// (its drafted reply published from here), a connection to renew, a failed post. Snooze until a date or mark done.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { ATTENTION_WORDING, type AttentionItemView } from "../../../../worker/features/command-center/rules/attention";
import { Alert } from "../../../design/alert";
import { Badge, type BadgeTone } from "../../../design/badge";
import { Button } from "../../../design/button";
import { CheckCircleIcon } from "../../../design/icons";
import { Placeholder } from "../../../design/placeholder";
import { Segmented, type SegmentedOption } from "../../../design/segmented";
import { QueryView } from "../../../app/query-view";
import { formatDateTime } from "../../../lib/format-date";
import { useViewAs } from "../../../lib/view-as";
import { PageHead } from "../../brand";
import { useBusinessTimeZone } from "../../profile";
import { ChangeDecision } from "../../gbp-guard";
import { attentionKeys, attentionQuery, useAttentionAct, usePublishFromQueue, type AttentionStatusFilter } from "../queries";
import "../attention.css";

const KIND_TONE: Record<AttentionItemView["kind"], BadgeTone> = {
  verification_lost: "danger",
  google_updated: "warning",
  low_review: "warning",
  google_reconnect: "view",
  post_failed: "view",
  rank_fell: "view",
  keyword_left_top3: "view",
  listing_wrong: "view",
  ai_fell: "view",
  report_unopened: "view",
  allowance_high: "view",
};

const dayAfter = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export default function AdminAttentionPage() {
  const [status, setStatus] = useState<AttentionStatusFilter>("open");
  const query = useQuery(attentionQuery(status));
  const counts = query.data?.counts;
  const options: SegmentedOption<AttentionStatusFilter>[] = [
    { value: "open", label: `Open${counts ? ` (${counts.open})` : ""}` },
    { value: "snoozed", label: `Snoozed${counts ? ` (${counts.snoozed})` : ""}` },
    { value: "done", label: `Done${counts ? ` (${counts.done})` : ""}` },
  ];
  return (
    <>
      <PageHead eyebrow="Admin" title="Needs Attention" subtitle="What needs a person across every client, most urgent first. Items close themselves when their cause is gone." />
      <Segmented label="Show" tabs className="att-tabs" value={status} onChange={setStatus} options={options} />
      <QueryView query={query} failure={ATTENTION_WORDING.failed}>
        {(data) =>
          data.items.length === 0 ? (
            <Placeholder className="empty-state" icon={CheckCircleIcon} title={status === "open" ? "All clear" : "Nothing here"}>
              <p className="placeholder-text">{status === "open" ? ATTENTION_WORDING.empty : status === "snoozed" ? ATTENTION_WORDING.emptySnoozed : ATTENTION_WORDING.emptyDone}</p>
            </Placeholder>
          ) : (
            <>
              <ul className="att-list" aria-label="Items">
                {data.items.map((item) => (
                  <AttentionCard key={item.id} item={item} />
                ))}
              </ul>
              {data.counts[status] > data.items.length ? (
                <p className="muted">
                  Showing the {data.items.length} {status === "done" ? "most recent" : "most urgent"} of {data.counts[status]}. Act on these and the next ones come up.
                </p>
              ) : null}
            </>
          )
        }
      </QueryView>
    </>
  );
}

function AttentionCard({ item }: { item: AttentionItemView }) {
  const readOnly = Boolean(useViewAs());
  const zone = useBusinessTimeZone();
  const act = useAttentionAct();
  const client = useQueryClient();
  const settled = item.status === "done" || item.status === "closed";
  const [error, setError] = useState<string | null>(null);
  const run = (a: Parameters<typeof act.mutate>[0]["act"]) => {
    setError(null);
    act.mutate({ id: item.id, act: a }, { onError: (e) => setError(e.message) });
  };
  return (
    <li className={`card card-pad att-card att-${item.kind}`} aria-label={`${item.kindLabel}: ${item.client.name}`}>
      <div className="att-head">
        <Badge tone={KIND_TONE[item.kind]}>{item.kindLabel}</Badge>
        <span className="att-client">{item.client.name}</span>
        <span className="audit-muted att-when">{formatDateTime(item.happenedAt, zone)}</span>
      </div>
      <p className="att-title">{item.title}</p>
      {item.detail && item.kind !== "low_review" ? <p className="audit-muted att-detail">{item.detail}</p> : null}
      {!settled && item.kind === "google_updated" && item.change && item.changeId ? (
        <ChangeDecision change={{ changeId: item.changeId, ...item.change }} readOnly={readOnly} onDecided={() => client.invalidateQueries({ queryKey: attentionKeys.all })} />
      ) : null}
      {!settled && item.kind === "low_review" && item.review ? <ReplyFromQueue item={item} readOnly={readOnly} /> : null}
      {!settled && item.kind === "verification_lost" ? <VerificationSteps /> : null}
      {!settled && item.link ? (
        <p className="att-detail">
          <Link to={item.link}>{item.actionLabel}</Link>
        </p>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {settled ? (
        <p className="audit-muted att-settled">{item.status === "closed" ? ATTENTION_WORDING.closed : `Marked done${item.doneBy ? ` by ${item.doneBy}` : ""}${item.doneAt ? ` · ${formatDateTime(item.doneAt, zone)}` : ""}`}</p>
      ) : readOnly ? null : (
        <div className="att-actions">
          {item.status === "snoozed" ? (
            <>
              <span className="audit-muted">Snoozed until {item.snoozedUntil}</span>
              <Button size="sm" variant="ghost" busy={act.isPending} onClick={() => run({ action: "reopen" })}>
                Wake now
              </Button>
            </>
          ) : (
            <>
              <Button size="sm" variant="ghost" busy={act.isPending} onClick={() => run({ action: "snooze", until: dayAfter(1) })}>
                Snooze a day
              </Button>
              <Button size="sm" variant="ghost" busy={act.isPending} onClick={() => run({ action: "snooze", until: dayAfter(7) })}>
                Snooze a week
              </Button>
            </>
          )}
          <Button size="sm" busy={act.isPending} onClick={() => run({ action: "done" })}>
            Mark done
          </Button>
        </div>
      )}
    </li>
  );
}

function ReplyFromQueue({ item, readOnly }: { item: AttentionItemView; readOnly: boolean }) {
  const review = item.review!;
  const publish = usePublishFromQueue();
  const [text, setText] = useState(review.draft ?? "");
  const [error, setError] = useState<string | null>(null);
  const sending = review.replyState === "queued" || review.replyState === "publishing" || publish.isSuccess;
  return (
    <div className="att-reply">
      {item.detail ? <blockquote className="att-quote">{item.detail}</blockquote> : null}
      <label className="att-label" htmlFor={`att-reply-${item.id}`}>
        Drafted reply
      </label>
      <textarea id={`att-reply-${item.id}`} className="input" rows={3} value={text} readOnly={readOnly || sending} onChange={(e) => setText(e.target.value)} />
      {error ? <Alert tone="error">{error}</Alert> : null}
      {readOnly ? null : sending ? (
        <p className="audit-muted">Publishing the reply on Google… the item closes when it is live.</p>
      ) : (
        <Button
          size="sm"
          variant="primary"
          busy={publish.isPending}
          disabled={!text.trim()}
          onClick={() => {
            setError(null);
            publish.mutate({ reviewId: review.id, comment: text.trim() }, { onError: (e) => setError(e.message) });
          }}
        >
          Publish reply
        </Button>
      )}
    </div>
  );
}

function VerificationSteps() {
  return (
    <p className="att-detail">
      <a href="https://business.google.com/" target="_blank" rel="noreferrer">
        Open Google Business Profile
      </a>
    </p>
  );
}
