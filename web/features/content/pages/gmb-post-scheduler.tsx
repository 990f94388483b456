// /tools/gmb-post-scheduler: Google Business Profile posts on a month calendar and a list with their state; a form to
// write or paste a post (or open one from the GMB Post Generator, ?content=<id>) and place it at a date and time;
// reschedule, delete, copy a due reminder, and Google's reason for a rejected post.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { SCHEDULE_STATE_LABELS, editableState, type GbpLocationJson, type ScheduledPostJson } from "../../../../worker/features/content/rules/gbp-schedule";
import { GmbPost, GMB_POST_TYPE_LABELS } from "../../../../worker/platform/providers/rules/gmb-post";
import { Alert } from "../../../design/alert";
import { Button, buttonClass } from "../../../design/button";
import { draftErrors, draftFromPost, EMPTY_GMB_DRAFT, GmbPostFields, gmbPostText, postFromDraft, type GmbPostDraft } from "../gmb-post-fields";
import { CalendarIcon, ExternalLinkIcon, TrashIcon } from "../../../design/icons";
import { Modal } from "../../../design/modal";
import { MonthCalendar, type CalendarMonth } from "../month-calendar";
import { Placeholder } from "../../../design/placeholder";
import { ScheduleStateBadge } from "../schedule-state-badge";
import { CopyButton } from "../../reports";
import { TextField } from "../../../design/text-field";
import { useViewAs } from "../../../lib/view-as";
import { formatScheduled } from "../../../lib/format-date";
import { useBusinessTimeZone } from "../../profile";
import { utcToZoned, zonedToUtc } from "../../../../worker/domain/time-zone";
import { integrationsQuery } from "../../integrations";
import { generatedGmbPostQuery, scheduleQuery, useDeleteScheduledPost, useSchedulePost, useUpdateScheduledPost } from "../schedule-queries";
import "../content.css";
import { BrandName, PageHead } from "../../brand";
import { QueryView } from "../../../app/query-view";

/** The next full hour in the business's zone, as the form's default date and time. */
function nextHour(zone: string): { date: string; time: string } {
  const next = utcToZoned(new Date(Date.now() + 3600_000), zone);
  return { date: next.date, time: `${next.time.slice(0, 2)}:00` };
}

export default function GmbPostSchedulerPage() {
  const viewAs = useViewAs();
  const viewAsId = viewAs?.viewingUserId ?? null;
  const readOnly = Boolean(viewAs);
  const [params, setParams] = useSearchParams();
  const contentId = params.get("content");
  const schedule = useQuery(scheduleQuery(viewAsId));
  const integrations = useQuery(integrationsQuery(viewAsId));
  const generated = useQuery(generatedGmbPostQuery(contentId));
  const [month, setMonth] = useState<CalendarMonth>(() => ({ year: new Date().getFullYear(), month: new Date().getMonth() }));
  const [editing, setEditing] = useState<ScheduledPostJson | null>(null);
  const [formDay, setFormDay] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  // A post's outcome can change the connection (a refused token): look at it again whenever the list changes.
  const { refetch: refetchIntegrations } = integrations;
  useEffect(() => {
    if (schedule.dataUpdatedAt) void refetchIntegrations();
  }, [schedule.dataUpdatedAt, refetchIntegrations]);
  const google = integrations.data?.google;
  const locations = google?.status === "connected" ? google.locations : [];
  const posts = useMemo(() => schedule.data?.posts ?? [], [schedule.data]);
  // Times show in the business's zone (Business Settings); they are stored in UTC.
  const zone = useBusinessTimeZone();
  const due = posts.filter((p) => p.state === "reminded");

  return (
    <>
      <PageHead
        eyebrow="Tools · Content"
        title="GMB Post Scheduler"
        subtitle="Place Google Business Profile posts on a calendar; they go out at their time."
      />

      {/* Spaced from the form below on every width (at 375 px the info box touched the card). */}
      <div className="page-messages" aria-live="polite">
        {google?.status === "needs_reconnect" ? (
          <Alert tone="warning" title="Google refused the connection">
            <p>
              {google.error?.message} <Link to="/integrations">Reconnect on the Integrations page</Link>
            </p>
          </Alert>
        ) : schedule.data && !schedule.data.publishing ? (
          <Alert tone="info" title="Reminders, not publishing">
            <p>
              Google Business Profile is not connected, so when a post is due <BrandName /> reminds you (here, and by email when mail is set up) and you copy it onto your listing.{" "}
              {google?.status === "not_configured" ? "Publishing straight to Google isn't available yet; your agency has been told." : <Link to="/integrations">Connect Google Business Profile</Link>}
            </p>
          </Alert>
        ) : null}
        {notice ? <Alert tone="success">{notice}</Alert> : null}
      </div>

      {due.length ? (
        <section className="card card-pad due-list" aria-labelledby="due-title">
          <h2 className="integration-subtitle" id="due-title">
            Due — copy and post it
          </h2>
          {due.map((p) => (
            <div key={p.id} className="due-item">
              <p>
                <strong>{formatScheduled(p.scheduledAt, zone)}</strong> · {p.post.summary.slice(0, 120)}
                {p.post.summary.length > 120 ? "…" : ""}
              </p>
              <CopyButton text={gmbPostText(p.post)} label="Copy post" />
            </div>
          ))}
        </section>
      ) : null}

      <div className="scheduler-layout">
        <section className="card card-pad" aria-labelledby="form-title">
          <ScheduleForm
            key={`${contentId ?? "new"}:${generated.data ? "loaded" : "empty"}:${formDay ?? ""}`}
            title={contentId ? "Schedule this post" : "Schedule a post"}
            titleId="form-title"
            fromGenerator={contentId ? { contentId, loading: generated.isPending && generated.fetchStatus !== "idle", post: generated.data ?? null, failed: generated.isError || generated.data === null } : null}
            initialDay={formDay}
            locations={locations}
            readOnly={readOnly}
            onDone={(message) => {
              setNotice(message);
              setFormDay(null);
              if (contentId) setParams({}, { replace: true });
            }}
          />
        </section>

        <div className="scheduler-main">
          <QueryView query={schedule}>
            {() => (
              <>
                <section className="card card-pad" aria-label="Calendar">
                  <MonthCalendar
                    month={month}
                    onMonthChange={setMonth}
                    items={posts}
                    dayOf={(p) => utcToZoned(p.scheduledAt, zone).date}
                    onDayClick={readOnly ? undefined : (day) => setFormDay(day)}
                    renderItem={(p) => (
                      <button key={p.id} type="button" className={`calendar-chip is-${p.state}`} title={`${SCHEDULE_STATE_LABELS[p.state]}: ${p.post.summary}`} onClick={() => document.getElementById(`post-${p.id}`)?.scrollIntoView({ behavior: "smooth", block: "center" })}>
                        {p.post.summary}
                      </button>
                    )}
                  />
                </section>
                <section className="card card-pad" aria-labelledby="list-title">
                  <h2 className="integration-subtitle" id="list-title">
                    Scheduled posts
                  </h2>
                  {posts.length === 0 ? (
                    <Placeholder icon={CalendarIcon} title="No posts scheduled yet" className="empty-state">
                      <p className="muted">Write a post in the form, or open one from the GMB Post Generator, and give it a date and time.</p>
                    </Placeholder>
                  ) : (
                    <ul className="schedule-list">
                      {posts.map((p) => (
                        <ScheduledPostRow key={p.id} post={p} zone={zone} readOnly={readOnly} onEdit={() => setEditing(p)} />
                      ))}
                    </ul>
                  )}
                </section>
              </>
            )}
          </QueryView>
        </div>
      </div>

      {editing ? (
        <Modal title="Reschedule or edit" onClose={() => setEditing(null)} footer={null}>
          <ScheduleForm
            title=""
            existing={editing}
            locations={locations}
            readOnly={readOnly}
            onDone={(message) => {
              setEditing(null);
              setNotice(message);
            }}
          />
        </Modal>
      ) : null}
    </>
  );
}

function ScheduledPostRow({ post, zone, readOnly, onEdit }: { post: ScheduledPostJson; zone: string; readOnly: boolean; onEdit: () => void }) {
  const remove = useDeleteScheduledPost();
  const [confirming, setConfirming] = useState(false);
  const showReason = post.reason && post.state !== "live";
  return (
    <li className="schedule-item" id={`post-${post.id}`}>
      <div className="schedule-item-head">
        <ScheduleStateBadge state={post.state} />
        <span className="muted">
          {formatScheduled(post.scheduledAt, zone)} · {GMB_POST_TYPE_LABELS[post.post.type]} · {post.locationTitle ?? "No location (reminder)"}
        </span>
      </div>
      <p className="schedule-item-text">{post.post.summary}</p>
      {showReason ? (
        <p className={post.state === "rejected" || post.state === "failed" ? "field-error" : "field-hint"}>
          {post.state === "rejected" ? "Why: " : ""}
          {post.reason}
        </p>
      ) : null}
      <div className="row-actions">
        {post.state === "live" && post.googleSearchUrl ? (
          <a className={buttonClass("ghost", "sm")} href={post.googleSearchUrl} target="_blank" rel="noreferrer">
            <ExternalLinkIcon size="sm" /> View on Google
          </a>
        ) : null}
        <CopyButton text={gmbPostText(post.post)} label="Copy" />
        {editableState(post.state) && !readOnly ? (
          <Button size="sm" onClick={onEdit}>
            Reschedule
          </Button>
        ) : null}
        {post.state !== "publishing" && !readOnly ? (
          confirming ? (
            <>
              <Button size="sm" variant="danger" busy={remove.isPending} onClick={() => remove.mutate(post.id)}>
                Delete
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
                Keep
              </Button>
            </>
          ) : (
            <Button size="sm" variant="ghost" aria-label="Delete post" onClick={() => setConfirming(true)}>
              <TrashIcon size="sm" />
            </Button>
          )
        ) : null}
      </div>
      {remove.isError ? <p className="field-error">{remove.error.message}</p> : null}
    </li>
  );
}

function ScheduleForm({
  title,
  titleId,
  existing,
  fromGenerator,
  initialDay,
  locations,
  readOnly,
  onDone,
}: {
  title: string;
  titleId?: string;
  existing?: ScheduledPostJson;
  fromGenerator?: { contentId: string; loading: boolean; post: GmbPost | null; failed: boolean } | null;
  initialDay?: string | null;
  locations: GbpLocationJson[];
  readOnly: boolean;
  onDone: (message: string) => void;
}) {
  const zone = useBusinessTimeZone();
  const start = existing ? utcToZoned(existing.scheduledAt, zone) : nextHour(zone);
  const [draft, setDraft] = useState<GmbPostDraft>(() => (existing ? draftFromPost(existing.post) : fromGenerator?.post ? draftFromPost(fromGenerator.post) : EMPTY_GMB_DRAFT));
  const [date, setDate] = useState(initialDay ?? start.date);
  const [time, setTime] = useState(start.time);
  const [location, setLocation] = useState<string>(existing ? (existing.locationName ?? "") : (locations[0]?.name ?? ""));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useSchedulePost();
  const update = useUpdateScheduledPost();
  const busy = create.isPending || update.isPending;
  const failure = create.error ?? update.error;

  // The connected locations may arrive after the form: preselect the first.
  useEffect(() => {
    if (!existing && !location && locations[0]) setLocation(locations[0].name);
  }, [existing, location, locations]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = GmbPost.safeParse(postFromDraft(draft));
    // The date and time are the business's wall clock; the server stores the UTC instant and the zone.
    const when = zonedToUtc(date, time, zone);
    const next: Record<string, string> = parsed.success ? {} : draftErrors(parsed.error.issues);
    if (!when) next.when = "Pick a date and time";
    setErrors(next);
    if (!parsed.success || !when) return;
    const body = { post: parsed.data, scheduledAt: when.toISOString(), timezone: zone, locationName: location || null };
    try {
      if (existing) {
        await update.mutateAsync({ id: existing.id, patch: body });
        onDone("Post rescheduled.");
      } else {
        await create.mutateAsync({ ...body, contentId: fromGenerator?.post ? fromGenerator.contentId : null });
        setDraft(EMPTY_GMB_DRAFT);
        onDone(location ? "Post scheduled: it goes to Google at its time." : "Post scheduled: you will be reminded when it is due.");
      }
    } catch {
      // Shown below from the mutation's error.
    }
  }

  return (
    <form className="schedule-form" onSubmit={(e) => void submit(e)} noValidate>
      {title ? (
        <h2 className="integration-subtitle" id={titleId}>
          {title}
        </h2>
      ) : null}
      {fromGenerator?.loading ? <p className="muted">Loading the generated post…</p> : null}
      {fromGenerator && !fromGenerator.loading && fromGenerator.post ? <Alert tone="info">From the GMB Post Generator: check it, then pick a date and time.</Alert> : null}
      {fromGenerator && !fromGenerator.loading && fromGenerator.failed ? <Alert tone="warning">That generated post could not be opened. Write or paste the post instead.</Alert> : null}
      <GmbPostFields value={draft} onChange={setDraft} errors={errors} disabled={readOnly} />
      <div className="gmb-fields-row">
        <TextField label="Date" type="date" value={date} onChange={(e) => setDate(e.target.value)} error={errors.when} disabled={readOnly} required />
        <TextField label="Time" type="time" value={time} onChange={(e) => setTime(e.target.value)} disabled={readOnly} required hint={`${zone} time (Business Settings)`} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${titleId ?? "edit"}-location`}>
          Location
        </label>
        <select id={`${titleId ?? "edit"}-location`} className="input" value={location} disabled={readOnly} onChange={(e) => setLocation(e.target.value)}>
          {locations.map((l) => (
            <option key={l.name} value={l.name}>
              {l.title}
            </option>
          ))}
          <option value="">No location — remind me to post it</option>
        </select>
      </div>
      {failure ? <p className="field-error">{failure.message}</p> : null}
      <Button type="submit" variant="primary" busy={busy} disabled={readOnly}>
        {existing ? "Save" : "Schedule post"}
      </Button>
    </form>
  );
}
