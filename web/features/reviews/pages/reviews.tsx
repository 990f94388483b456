// /tools/reviews (issue 28): the review inbox — every Google review of the business with its reply or a drafted one
// (AI in the business's voice, or a template said as such), edited and published by a person; filters, the figures
// (new reviews a month, rating over time, reply rate and time, competitors' counts and the pace forecast), the reply
// settings; and the "Ask for reviews" tab (ReviewRequestsPanel).
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import {
  REPLY_MAX_BYTES,
  REVIEW_FILTER_LABELS,
  REVIEW_FILTERS,
  REVIEW_TONE_LABELS,
  REVIEW_TONES,
  utf8Bytes,
  type ReviewFigures,
  type ReviewFilter,
  type ReviewInboxResponse,
  type ReviewJson,
  type ReviewSettingsInput,
  type ReviewTone,
} from "../../../../worker/features/reviews/rules/reviews";
import { Alert, RetryAlert } from "../../../design/alert";
import { Badge } from "../../../design/badge";
import { Button, buttonClass } from "../../../design/button";
import { Options, SelectField } from "../../../design/form-fields";
import { ClockIcon, MessageIcon, StarIcon, TrendingUpIcon } from "../../../design/icons";
import { PageHeader } from "../../../design/page-header";
import { Placeholder } from "../../../design/placeholder";
import { LoadingScreen } from "../../../app/route-guards";
import { Segmented, type SegmentedOption } from "../../../design/segmented";
import { StatCard } from "../../../design/stat-card";
import { TableHead } from "../../../design/table-head";
import { TextField } from "../../../design/text-field";
import { UnavailableNotice } from "../../setup";
import { formatDateTime } from "../../../lib/format-date";
import { useViewAs } from "../../../lib/view-as";
import { reviewInboxQuery, reviewSettingsQuery, useCheckNow, useDeleteReply, useDraftReply, usePublishReply, useSaveReviewSettings } from "../queries";
import "../../../design/scan-results.css";
import { ReviewRequestsPanel } from "../../review-requests";
import "../reviews.css";

type Tab = "inbox" | "ask";
const TABS: SegmentedOption<Tab>[] = [
  { value: "inbox", label: "Inbox" },
  { value: "ask", label: "Ask for reviews" },
];

const stars = (n: number) => (n > 0 ? `${"★".repeat(n)}${"☆".repeat(5 - n)}` : "No rating");
const monthLabel = (m: string) => new Date(`${m}-01T00:00:00Z`).toLocaleDateString("en-US", { month: "short", year: "numeric", timeZone: "UTC" });

function Stars({ n }: { n: number }) {
  return (
    <span className="rv-stars" aria-label={n > 0 ? `${n} of 5 stars` : "No rating"}>
      {stars(n)}
    </span>
  );
}

function ReplyStateBadge({ r }: { r: ReviewJson }) {
  if (r.replyState === "queued" || r.replyState === "publishing") return <Badge tone="view">Publishing…</Badge>;
  if (r.replyState === "delete_queued" || r.replyState === "deleting") return <Badge tone="view">Deleting…</Badge>;
  if (r.replyState === "failed") return <Badge tone="danger">Not published</Badge>;
  if (r.reply) return <Badge tone="success">Replied</Badge>;
  return <Badge tone="warning">Needs a reply</Badge>;
}

function ReviewCard({ r, timeZone, readOnly }: { r: ReviewJson; timeZone: string | null; readOnly: boolean }) {
  const [text, setText] = useState(r.draft?.comment ?? "");
  const draft = useDraftReply();
  const publish = usePublishReply();
  const remove = useDeleteReply();
  // A new draft from the server replaces what is in the box (a redraft); the person's edits stay otherwise.
  useEffect(() => setText(r.draft?.comment ?? ""), [r.draft?.comment]);
  const bytes = utf8Bytes(text);
  const busy = ["queued", "publishing", "delete_queued", "deleting"].includes(r.replyState);
  const error = (draft.error ?? publish.error ?? remove.error) as Error | null;
  return (
    <li className="card card-pad rv-card">
      <div className="rv-head">
        <div>
          <strong>{r.reviewer.name}</strong> <Stars n={r.stars} />
          <p className="audit-muted rv-when">
            {formatDateTime(r.createTime, timeZone)}
            {r.edited ? " · edited" : ""}
          </p>
        </div>
        <ReplyStateBadge r={r} />
      </div>
      {r.comment ? <p className="rv-text">{r.comment}</p> : <p className="audit-muted">A rating without text.</p>}
      {r.history.length > 0 ? (
        <details className="rv-history">
          <summary>Earlier version{r.history.length > 1 ? "s" : ""}</summary>
          {r.history.map((h) => (
            <p key={h.updateTime} className="audit-muted">
              <Stars n={h.stars} /> {h.comment ?? "(no text)"} — {formatDateTime(h.updateTime, timeZone)}
            </p>
          ))}
        </details>
      ) : null}
      {r.replyError ? <Alert tone="error">{r.replyError}</Alert> : null}
      {r.reply && r.replyState !== "failed" ? (
        <div className="rv-reply">
          <p className="rv-reply-label">Your reply · {formatDateTime(r.reply.updateTime, timeZone)}</p>
          <p className="rv-text">{r.reply.comment}</p>
          {readOnly ? null : (
            <Button size="sm" variant="ghost" busy={remove.isPending} disabled={busy} onClick={() => remove.mutate(r.id)}>
              Delete reply
            </Button>
          )}
        </div>
      ) : (
        <div className="rv-reply">
          <label className="rv-reply-label" htmlFor={`reply-${r.id}`}>
            {r.draft?.source === "ai" ? "Drafted reply (AI, in your voice)" : r.draft?.source === "template" ? "Drafted reply (template)" : "Your reply"}
          </label>
          {r.draft?.notice ? <p className="field-hint">{r.draft.notice}</p> : null}
          <textarea id={`reply-${r.id}`} className="input" rows={4} value={text} readOnly={readOnly} onChange={(e) => setText(e.target.value)} />
          <div className="rv-actions">
            <span className={bytes > REPLY_MAX_BYTES ? "rv-over" : "audit-muted"}>
              {bytes} / {REPLY_MAX_BYTES} bytes
            </span>
            {r.autoPublishAt && r.replyState === "none" ? <span className="audit-muted">Publishes itself {formatDateTime(r.autoPublishAt, timeZone)}</span> : null}
            {readOnly ? null : (
              <>
                <Button size="sm" variant="ghost" busy={draft.isPending} disabled={busy} onClick={() => draft.mutate(r.id)}>
                  Draft again
                </Button>
                <Button size="sm" variant="primary" busy={publish.isPending} disabled={busy || !text.trim() || bytes > REPLY_MAX_BYTES} onClick={() => publish.mutate({ id: r.id, comment: text })}>
                  Publish
                </Button>
              </>
            )}
          </div>
        </div>
      )}
      {error ? <Alert tone="error">{error.message}</Alert> : null}
    </li>
  );
}

function Figures({ f, inbox }: { f: ReviewFigures; inbox: ReviewInboxResponse }) {
  const peak = Math.max(1, ...f.months.map((m) => m.count));
  const shown = f.months.slice(-6);
  return (
    <>
      <section aria-label="Your reviews at a glance" className="rv-stats">
        <StatCard icon={StarIcon} value={f.averageRating === null ? "—" : f.averageRating.toFixed(1)} label="Average rating" />
        <StatCard icon={MessageIcon} value={String(inbox.sync.googleTotal ?? f.total)} label="Reviews on Google" />
        <StatCard icon={TrendingUpIcon} value={f.replyRate === null ? "—" : `${Math.round(f.replyRate * 100)}%`} label="Answered" />
        <StatCard icon={ClockIcon} value={f.medianReplyHours === null ? "—" : f.medianReplyHours < 48 ? `${Math.round(f.medianReplyHours)} h` : `${Math.round(f.medianReplyHours / 24)} days`} label="Median time to reply" />
      </section>
      <div className="rv-figures">
        <section className="card card-pad" aria-labelledby="rv-months">
          <h2 className="audit-block-title" id="rv-months">
            New reviews a month
          </h2>
          <ul className="rv-bars">
            {shown.map((m) => (
              <li key={m.month}>
                <span>{monthLabel(m.month)}</span>
                <span className="rv-bar" style={{ width: `${(m.count / peak) * 100}%` }} />
                <span>
                  {m.count}
                  {m.cumulativeAverage !== null ? ` · ★ ${m.cumulativeAverage.toFixed(1)} overall` : ""}
                </span>
              </li>
            ))}
          </ul>
        </section>
        <section className="card card-pad" aria-labelledby="rv-competitors">
          <h2 className="audit-block-title" id="rv-competitors">
            Competitors' reviews
          </h2>
          {f.pass ? <p className="rv-pass">{f.pass.text}</p> : null}
          {f.competitors.length === 0 ? (
            <p className="audit-muted">
              Run a <Link to="/tools/local-search-audit">Local Search Audit</Link> or a <Link to="/tools/local-search-grid">Local Search Grid</Link> scan to see the review counts of the businesses you compete with, and how they grow.
            </p>
          ) : (
            <div className="audit-table-wrap">
              <table className="audit-table">
                <TableHead columns={["Competitor", "First seen", "Latest"]} />
                <tbody>
                  {f.competitors.map((c) => (
                    <tr key={c.name}>
                      <td>{c.name}</td>
                      <td>{c.points[0]!.count}</td>
                      <td>{c.points[c.points.length - 1]!.count}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
    </>
  );
}

function SettingsCard({ readOnly }: { readOnly: boolean }) {
  const query = useQuery(reviewSettingsQuery());
  const save = useSaveReviewSettings();
  const [form, setForm] = useState<ReviewSettingsInput | null>(null);
  useEffect(() => {
    if (query.data) setForm(query.data);
  }, [query.data]);
  if (query.isError) return <RetryAlert message="Your reply settings could not be loaded." onRetry={() => void query.refetch()} />;
  if (!form) return null;
  return (
    <details className="card card-pad rv-settings">
      <summary>Reply settings: tone, signature, auto-publish</summary>
      <form
        className="rv-settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(form);
        }}
      >
        <SelectField label="Tone" value={form.tone} onChange={(v) => setForm({ ...form, tone: v as ReviewTone })}>
          <Options values={REVIEW_TONES} label={(t) => REVIEW_TONE_LABELS[t]} />
        </SelectField>
        <TextField label="Signature" maxLength={200} value={form.signature} placeholder="e.g. Dana, owner" onChange={(e) => setForm({ ...form, signature: e.target.value })} />
        <label className="rv-check">
          <input type="checkbox" checked={form.autoPublish} onChange={(e) => setForm({ ...form, autoPublish: e.target.checked })} /> Publish replies to 4–5 star reviews by
          themselves (never 1–3 stars)
        </label>
        <TextField
          label="Wait before publishing (hours)"
          type="number"
          min={1}
          max={336}
          value={String(form.autoPublishDelayHours)}
          disabled={!form.autoPublish}
          onChange={(e) => setForm({ ...form, autoPublishDelayHours: Math.max(1, Math.min(336, Math.round(Number(e.target.value) || 1))) })}
        />
        {readOnly ? null : (
          <Button type="submit" variant="primary" busy={save.isPending}>
            Save settings
          </Button>
        )}
        {save.isSuccess ? <Alert tone="success">Saved.</Alert> : null}
        {save.error ? <Alert tone="error">{save.error.message}</Alert> : null}
      </form>
    </details>
  );
}

function Inbox({ filter, setFilter, checking }: { filter: ReviewFilter; setFilter: (f: ReviewFilter) => void; checking: boolean }) {
  const query = useQuery(reviewInboxQuery(filter, checking));
  const readOnly = Boolean(useViewAs());
  if (query.isPending) return <LoadingScreen />;
  if (query.isError) return <RetryAlert message="Your reviews could not be loaded." onRetry={() => void query.refetch()} />;
  const inbox = query.data;
  if (inbox.connection === "not_configured") return <UnavailableNotice title="Reviews aren't available yet">{inbox.connectHint}</UnavailableNotice>;
  if (inbox.connection !== "connected" && inbox.reviews.length === 0) {
    return (
      <Placeholder icon={StarIcon} title={inbox.connection === "needs_reconnect" ? "Connect Google again" : "Connect Google to see your reviews"}>
        <p>{inbox.connectHint}</p>
        <p>
          <Link className={buttonClass("primary")} to="/integrations">
            Connect Google
          </Link>
        </p>
      </Placeholder>
    );
  }
  return (
    <>
      {inbox.connectHint ? <Alert tone="warning">{inbox.connectHint}</Alert> : null}
      {inbox.sync.error ? <Alert tone="warning">{inbox.sync.error}</Alert> : null}
      {!inbox.aiAvailable ? <Alert tone="info">AI drafting is not available right now, so replies are drafted from a template. Read each one and make it yours before publishing.</Alert> : null}
      <Figures f={inbox.figures} inbox={inbox} />
      <SettingsCard readOnly={readOnly} />
      <div className="rv-filter">
        <Segmented
          label="Show"
          variant="strong"
          value={filter}
          onChange={setFilter}
          options={REVIEW_FILTERS.map((f) => ({ value: f, label: `${REVIEW_FILTER_LABELS[f]} (${inbox.counts[f]})` }))}
        />
      </div>
      {inbox.reviews.length === 0 ? (
        <Placeholder icon={MessageIcon} title={inbox.counts.all === 0 ? (checking ? "Reading your reviews from Google…" : "No reviews yet") : "Nothing here"} className="empty-state">
          <p>{inbox.counts.all === 0 ? "Your Google reviews show here as soon as they are read. Ask your customers in the Ask for reviews tab." : "No review matches this filter."}</p>
        </Placeholder>
      ) : (
        <ul className="rv-list">
          {inbox.reviews.map((r) => (
            <ReviewCard key={r.id} r={r} timeZone={inbox.timeZone} readOnly={readOnly} />
          ))}
        </ul>
      )}
    </>
  );
}

export default function ReviewsPage() {
  const [tab, setTab] = useState<Tab>("inbox");
  const [filter, setFilter] = useState<ReviewFilter>("all");
  const check = useCheckNow();
  const readOnly = Boolean(useViewAs());
  // The same query the inbox reads (shared by its key): "Check now" only shows with Google connected.
  const connected = useQuery({ ...reviewInboxQuery(filter, false), refetchInterval: false }).data?.connection === "connected";
  // After "Check now" the inbox is polled for a short while (the check runs in the background).
  const [checkingUntil, setCheckingUntil] = useState(0);
  const checking = checkingUntil > Date.now();
  useEffect(() => {
    if (!checkingUntil) return;
    const t = setTimeout(() => setCheckingUntil(0), Math.max(0, checkingUntil - Date.now()));
    return () => clearTimeout(t);
  }, [checkingUntil]);
  return (
    <>
      <PageHeader
        eyebrow="Reputation"
        title="Reviews"
        subtitle="Every Google review in one place, answered in your voice."
        actions={
          tab === "inbox" && connected && !readOnly ? (
            <Button busy={check.isPending || checking} onClick={() => check.mutate(undefined, { onSuccess: () => setCheckingUntil(Date.now() + 20_000) })}>
              Check now
            </Button>
          ) : null
        }
      />
      <Segmented label="Reviews" tabs className="rv-tabs" value={tab} onChange={setTab} options={TABS} />
      {check.error ? <Alert tone="error">{check.error.message}</Alert> : null}
      {tab === "inbox" ? <Inbox filter={filter} setFilter={setFilter} checking={checking} /> : <ReviewRequestsPanel />}
    </>
  );
}
