// "Ask for reviews" (issue 28), the second tab of /tools/reviews: the business's review link and QR code (copy,
// download, print), sending requests (one, or pasted/CSV rows with per-row results), the requests with their status,
// the figures sent → opened, and the settings (delay, templates, quiet hours, texts, Google listing, the hook address).
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { issuesByField } from "../../../../worker/domain/form-rules";
import { openRate, REQUEST_STATUS_LABELS, RequestSettingsBody, reviewRate, type RequestSettingsView, type ReviewRequestStatus, type RowResult } from "../../../../worker/features/review-requests/rules/review-requests";
import { Alert, RetryAlert } from "../../../design/alert";
import { Badge, type BadgeTone } from "../../../design/badge";
import { Button } from "../../../design/button";
import { CheckCircleIcon, DownloadIcon, MailIcon, StarIcon, ThumbsUpIcon } from "../../../design/icons";
import { TextAreaField } from "../../../design/form-fields";
import { Placeholder } from "../../../design/placeholder";
import { LoadingScreen } from "../../../app/route-guards";
import { SettingsSection } from "../../../design/settings-section";
import { StatCard } from "../../../design/stat-card";
import { TableHead } from "../../../design/table-head";
import { TextField } from "../../../design/text-field";
import { downloadBlob } from "../../../lib/download";
import { formatDateTime } from "../../../lib/format-date";
import { fetchQr, requestSettingsQuery, reviewLinkQuery, reviewRequestsQuery, useCreateRequests, useRotateHook, useSaveRequestSettings } from "../queries";
import "../review-requests.css";

const TONES: Record<ReviewRequestStatus, BadgeTone> = { scheduled: "view", sent: "new", delivered: "new", opened: "success", failed: "danger", opted_out: "warning" };
const errorText = (e: unknown) => (e instanceof Error ? e.message : "Something went wrong. Please try again.");

function LinkCard() {
  const link = useQuery(reviewLinkQuery);
  const [qr, setQr] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const ready = Boolean(link.data?.reviewUrl);
  useEffect(() => {
    if (!ready) return;
    let url: string | null = null;
    void fetchQr("svg").then((blob) => setQr((url = URL.createObjectURL(blob))), () => setQr(null));
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [ready, link.data?.slug]);
  if (link.isPending) return <section className="card rr-card">Loading your review link…</section>;
  if (link.isError) return <RetryAlert message={errorText(link.error)} onRetry={() => void link.refetch()} />;
  const data = link.data;
  return (
    <section className="card rr-card rr-link" aria-labelledby="rr-link-title">
      <div>
        <h2 id="rr-link-title">Your review link</h2>
        <p className="rr-muted">Every customer gets the same link to your Google review page. Put it on invoices, trucks and leave-behind cards.</p>
        {!ready && <Alert tone="warning">Your review link needs your Google listing: connect your Google Business Profile, run an audit of your business, or enter your Google place ID in the settings below.</Alert>}
        <p className="rr-url">{data.shortUrl}</p>
        <p className="rr-muted">{data.clicks} {data.clicks === 1 ? "click" : "clicks"} so far</p>
        <div className="rr-actions">
          <Button onClick={() => void navigator.clipboard.writeText(data.shortUrl).then(() => setCopied(true))}>{copied ? "Link copied" : "Copy link"}</Button>
          <Button disabled={!ready} onClick={() => void fetchQr("svg").then((b) => downloadBlob(b, "review-qr.svg"))}>
            <DownloadIcon /> SVG
          </Button>
          <Button disabled={!ready} onClick={() => void fetchQr("png").then((b) => downloadBlob(b, "review-qr.png"))}>
            <DownloadIcon /> PNG
          </Button>
          <Button disabled={!ready} onClick={() => window.print()}>
            Print
          </Button>
        </div>
      </div>
      {ready && qr && (
        <figure className="rr-qr">
          {data.businessName && <p className="rr-qr-name">{data.businessName}</p>}
          <img src={qr} alt="QR code of your review link" width={200} height={200} />
          <figcaption>Scan to review us on Google</figcaption>
        </figure>
      )}
    </section>
  );
}

/** What a paste/CSV call did, in a box of its tone: all scheduled, some not (each row's reason), or none. */
function RowsOutcome({ created, results }: { created: number; results: RowResult[] }) {
  const refused = results.flatMap((r) => (r.ok ? [] : [r]));
  const scheduled = `${created} ${created === 1 ? "request" : "requests"} scheduled`;
  if (refused.length === 0) return <Alert tone="success">{scheduled}.</Alert>;
  const notSent = `${refused.length} ${refused.length === 1 ? "row" : "rows"} not sent`;
  return (
    <Alert tone={created === 0 ? "error" : "warning"} title={created === 0 ? `No request was scheduled: ${notSent}.` : `${scheduled}, ${notSent}.`}>
      <ul className="rr-rows" aria-label="Rows not sent">
        {refused.map((r) => (
          <li key={r.row}>
            Row {r.row}: {r.message}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

function SendForm({ smsOn, linkReady }: { smsOn: boolean; linkReady: boolean }) {
  const create = useCreateRequests();
  const [mode, setMode] = useState<"one" | "many">("one");
  const [one, setOne] = useState({ name: "", email: "", phone: "" });
  const [csv, setCsv] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ created: number; results: RowResult[] } | null>(null);
  // A new entry makes the last answer stale: it goes, so nothing on screen describes what is no longer there.
  const edited = () => {
    setDone(null);
    setOutcome(null);
    create.reset();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    edited();
    if (mode === "one") {
      create.mutate(
        { name: one.name, ...(one.email ? { email: one.email } : {}), ...(one.phone ? { phone: one.phone } : {}) },
        {
          onSuccess: () => {
            setDone(`Request for ${one.name} scheduled.`);
            setOne({ name: "", email: "", phone: "" });
          },
        },
      );
    } else
      create.mutate(
        { csv },
        {
          onSuccess: (body) => {
            if ("results" in body) setOutcome({ created: body.created, results: body.results });
          },
        },
      );
  };
  return (
    <section className="card rr-card" aria-labelledby="rr-send-title">
      <h2 id="rr-send-title">Ask a customer</h2>
      {!linkReady && <Alert tone="warning">Requests can be sent once your review link is ready: it needs your Google listing (see above).</Alert>}
      {!smsOn && <p className="rr-muted">Requests go by email: text messages aren't available.</p>}
      <div className="rr-actions" role="group" aria-label="How many">
        <Button variant={mode === "one" ? "primary" : "secondary"} onClick={() => (setMode("one"), edited())}>One customer</Button>
        <Button variant={mode === "many" ? "primary" : "secondary"} onClick={() => (setMode("many"), edited())}>Paste or CSV</Button>
      </div>
      <form onSubmit={submit} className="rr-form">
        {mode === "one" ? (
          <>
            <TextField label="Customer name" value={one.name} onChange={(e) => (setOne({ ...one, name: e.target.value }), edited())} required />
            <TextField label="Email" type="email" value={one.email} onChange={(e) => (setOne({ ...one, email: e.target.value }), edited())} />
            <TextField label="Mobile number" type="tel" value={one.phone} onChange={(e) => (setOne({ ...one, phone: e.target.value }), edited())} hint="Give an email, a mobile number or both." />
          </>
        ) : (
          <div className="rr-field">
            <label className="rr-field">
              <span>Customers, one a line: name, email, phone (a header row may name the columns)</span>
              <textarea rows={5} value={csv} onChange={(e) => (setCsv(e.target.value), edited())} required />
            </label>
            <input type="file" accept=".csv,text/csv" aria-label="Choose a CSV file" onChange={(e) => void e.target.files?.[0]?.text().then((text) => (setCsv(text), edited()))} />
          </div>
        )}
        <Button type="submit" variant="primary" busy={create.isPending} disabled={!linkReady}>
          Send request
        </Button>
      </form>
      {create.isError && <Alert tone="error">{errorText(create.error)}</Alert>}
      {done && <Alert tone="success">{done}</Alert>}
      {outcome && <RowsOutcome {...outcome} />}
    </section>
  );
}

function RequestsTable({ timeZone }: { timeZone: string | null }) {
  const list = useQuery(reviewRequestsQuery);
  if (list.isPending) return <LoadingScreen />;
  if (list.isError) return <RetryAlert message={errorText(list.error)} onRetry={() => void list.refetch()} />;
  const { requests, figures, likelyReviews } = list.data;
  const rate = openRate(figures);
  const reviewed = new Set(likelyReviews.requestIds);
  return (
    <>
      <div className="rr-stats">
        <StatCard icon={MailIcon} value={String(figures.sent + figures.delivered + figures.opened)} label="Sent" />
        <StatCard icon={CheckCircleIcon} value={String(figures.opened)} label="Opened" />
        <StatCard icon={ThumbsUpIcon} value={rate === null ? "–" : `${rate}%`} label="Sent → opened" />
        <StatCard icon={StarIcon} value={String(likelyReviews.count)} label="Likely reviews" />
      </div>
      <p className="rr-muted">
        {figures.opened > 0 ? `Opened → reviewed: ${reviewRate(figures.opened, likelyReviews.count)}%. ` : ""}A review counts as likely when the reviewer’s name matches the customer’s and it came within 14 days of the request
        (last {likelyReviews.lookbackDays} days). Google does not say who wrote a review, so this is never certain.
      </p>
      {requests.length === 0 ? (
        <Placeholder icon={MailIcon} title="No review requests yet" className="empty-state">
          <p>Ask your first customer above, or connect your field-service app with the hook address in the settings.</p>
        </Placeholder>
      ) : (
        <div className="card card-pad audit-table-wrap">
          <table className="audit-table">
            <TableHead columns={["Customer", "By", "Status", "When"]} />
            <tbody>
              {requests.map((r) => (
                <tr key={r.id}>
                  <td>
                    {r.customerName}
                    <div className="rr-muted">{r.channel === "sms" ? r.phone : r.email}</div>
                  </td>
                  <td>{r.channel === "sms" ? "Text" : "Email"}</td>
                  <td>
                    <Badge tone={TONES[r.status]}>{REQUEST_STATUS_LABELS[r.status]}</Badge>
                    {reviewed.has(r.id) && <Badge tone="success">Likely reviewed</Badge>}
                    {r.lastError && <div className="rr-muted">{r.lastError}</div>}
                  </td>
                  <td>{formatDateTime(r.openedAt ?? r.sentAt ?? r.dueAt, timeZone)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** Where the link's Google listing comes from, under the place ID field. */
function placeIdHint(data: Pick<RequestSettingsView, "placeIdSource" | "effectivePlaceId">): string {
  if (data.placeIdSource === "google") return `From your Google Business Profile: ${data.effectivePlaceId}. Enter another only to send customers to a different listing.`;
  if (data.placeIdSource === "audit") return `From your audit: ${data.effectivePlaceId}`;
  return "Leave empty to use your connected Google Business Profile, or the listing your audit found.";
}

function SettingsForm() {
  const settings = useQuery(requestSettingsQuery);
  const save = useSaveRequestSettings();
  const rotate = useRotateHook();
  const [form, setForm] = useState<RequestSettingsBody | null>(null);
  // Checked with the API's own schema once Save was pressed, then on every change: a fixed value's error goes at once.
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    if (settings.data && !form) {
      const { delayMinutes, emailSubject, emailTemplate, smsTemplate, quietStart, quietEnd, smsEnabled, placeId } = settings.data;
      setForm({ delayMinutes, emailSubject, emailTemplate, smsTemplate, quietStart, quietEnd, smsEnabled, placeId });
    }
  }, [settings.data, form]);
  const data = settings.data;
  if (!data || !form) return settings.isError ? <RetryAlert message={errorText(settings.error)} onRetry={() => void settings.refetch()} /> : null;
  const parsed = RequestSettingsBody.safeParse(form);
  const errors: Partial<Record<keyof RequestSettingsBody, string>> = checked && !parsed.success ? Object.fromEntries(Object.entries(issuesByField(parsed.error)).map(([k, v]) => [k, v[0]])) : {};
  const set = (patch: Partial<RequestSettingsBody>) => {
    setForm({ ...form, ...patch });
    // The server's last answer (an error, or "saved") is about the old values.
    save.reset();
  };
  return (
    <SettingsSection title="Request settings" description={`Times are in your business's time zone (${data.timeZone}).`}>
      <form
        className="rr-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setChecked(true);
          if (parsed.success) save.mutate(parsed.data);
        }}
      >
        <TextField
          label="Send after (minutes)"
          type="number"
          min={0}
          value={Number.isNaN(form.delayMinutes) ? "" : form.delayMinutes}
          onChange={(e) => set({ delayMinutes: e.target.value === "" ? Number.NaN : Number(e.target.value) })}
          hint="After the job is marked done; 120 is two hours."
          error={errors.delayMinutes}
        />
        <div className="rr-two">
          <TextField label="Quiet from" type="time" value={form.quietStart} onChange={(e) => set({ quietStart: e.target.value })} error={errors.quietStart} />
          <TextField label="Until" type="time" value={form.quietEnd} onChange={(e) => set({ quietEnd: e.target.value })} error={errors.quietEnd} />
        </div>
        <TextField label="Email subject" value={form.emailSubject} onChange={(e) => set({ emailSubject: e.target.value })} error={errors.emailSubject} />
        <TextAreaField
          label="Email message"
          rows={6}
          maxLength={2000}
          value={form.emailTemplate}
          onChange={(v) => set({ emailTemplate: v })}
          hint="{business}, {first_name} and {link} are filled in. {link} is the only web address a message may carry."
          error={errors.emailTemplate}
        />
        <TextAreaField
          label="Text message"
          rows={3}
          maxLength={300}
          value={form.smsTemplate}
          onChange={(v) => set({ smsTemplate: v })}
          hint="{business}, {first_name} and {link} are filled in; “Reply STOP to opt out.” is added."
          error={errors.smsTemplate}
        />
        {data.smsAvailable && (
          <label className="rr-check">
            <input type="checkbox" checked={form.smsEnabled} onChange={(e) => set({ smsEnabled: e.target.checked })} /> Send by text message when the customer gave a mobile number
          </label>
        )}
        <TextField
          label="Google place ID"
          value={form.placeId}
          onChange={(e) => set({ placeId: e.target.value })}
          hint={placeIdHint(data)}
          error={errors.placeId}
        />
        <Button type="submit" variant="primary" busy={save.isPending}>
          Save settings
        </Button>
        {checked && !parsed.success && <Alert tone="error">Some settings need a change: see the fields marked above.</Alert>}
        {save.isError && <Alert tone="error">{errorText(save.error)}</Alert>}
        {save.isSuccess && <Alert tone="success">Settings saved.</Alert>}
      </form>
      <div className="rr-hook">
        <h3>Job-completed hook</h3>
        <p className="rr-muted">Jobber, Housecall Pro, ServiceTitan or Zapier can call this address when a job is done, with the customer's name, email or phone and the job's id.</p>
        {rotate.data ? (
          <>
            <p className="rr-url">{rotate.data.hookUrl}</p>
            <Alert tone="info">Copy it now: it is shown only once.</Alert>
            <Button onClick={() => void navigator.clipboard.writeText(rotate.data.hookUrl)}>Copy address</Button>
          </>
        ) : (
          <p>{data.hookConfigured ? `An address was made ${formatDateTime(data.hookCreatedAt!, data.timeZone)}.` : "No address yet."}</p>
        )}
        <Button busy={rotate.isPending} onClick={() => rotate.mutate()}>{data.hookConfigured ? "Make a new address (the old one stops working)" : "Make the address"}</Button>
      </div>
    </SettingsSection>
  );
}

export function ReviewRequestsPanel() {
  const settings = useQuery(requestSettingsQuery);
  const link = useQuery(reviewLinkQuery);
  return (
    <div className="rr-panel">
      <LinkCard />
      <SendForm smsOn={Boolean(settings.data?.smsAvailable && settings.data.smsEnabled)} linkReady={link.data ? Boolean(link.data.reviewUrl) : true} />
      <RequestsTable timeZone={settings.data?.timeZone ?? null} />
      <SettingsForm />
    </div>
  );
}
