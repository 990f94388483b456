// /admin/widgets (issue 21): the agency's free-audit widgets: the list, a widget's form (name, accent, logo, fields
// asked, consent, allowed sites), the snippets to paste with copy buttons, a live preview (the real frame) and its
// recent leads linking to their reports. Viewing as someone is read-only. Issue 26: what protects the widgets (the bot
// check, each widget's daily spending cap with today's spend and leads, the mail limit per address) is shown here.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import {
  DEFAULT_ACCENT,
  DEFAULT_CONSENT,
  DEFAULT_WIDGET_DAILY_CAP_USD,
  INVALID_ORIGIN_MESSAGE,
  normalizeOrigin,
  WIDGET_LIMITS,
  WidgetCreate,
  type LeadDto,
  type LeadStatus,
  type WidgetDto,
  type WidgetProtection,
} from "../../../../worker/features/widgets/rules/widgets";
import { dollars } from "../../usage";
import { Alert, RetryAlert } from "../../../design/alert";
import { Badge, type BadgeTone } from "../../../design/badge";
import { Button, buttonClass } from "../../../design/button";
import { TextAreaField } from "../../../design/form-fields";
import { CodeIcon, InboxIcon, PlusIcon } from "../../../design/icons";
import { Placeholder } from "../../../design/placeholder";
import { CopyButton } from "../../reports";
import { LoadingScreen } from "../../../app/route-guards";
import { TextField } from "../../../design/text-field";
import { formatDateTime } from "../../../lib/format-date";
import { useTimedMessage } from "../../../lib/use-timed-message";
import { useViewAs } from "../../../lib/view-as";
import { useCreateWidget, useDeleteWidget, useSaveWidget, useUploadWidgetLogo, widgetQuery, widgetsQuery } from "../queries";
import { ACTIONS_COLUMN, TableHead } from "../../../design/table-head";
import { PageHeader } from "../../../design/page-header";
import "../widgets.css";
import { PageTitle } from "../../brand";
import { QueryView } from "../../../app/query-view";

const LEAD_STATUS: Record<LeadStatus, { label: string; tone: BadgeTone }> = {
  running: { label: "Auditing", tone: "new" },
  waiting_allowance: { label: "Waiting for allowance", tone: "warning" },
  ready: { label: "Report sent", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
};

export default function AdminWidgetsPage() {
  const readOnly = Boolean(useViewAs());
  const [params, setParams] = useSearchParams();
  const selected = params.get("id");
  const creating = params.get("new") === "1";
  const list = useQuery(widgetsQuery());
  const open = (id: string | null, isNew = false) => setParams(id ? { id } : isNew ? { new: "1" } : {}, { replace: false });

  return (
    <>
      <PageTitle>Widgets</PageTitle>
      <PageHeader
        eyebrow="Admin"
        title="Free-audit widgets"
        subtitle="A form for your agency's website: each visitor who fills it in becomes a prospect, gets a free audit and report by email, and you get the lead."
        actions={
          <>
            <Button variant="primary" disabled={readOnly} onClick={() => open(null, true)}>
              <PlusIcon size="sm" /> New widget
            </Button>
          </>
        }
      />

      <QueryView query={list} failure="Failed to load widgets: ">
        {(data) => data.widgets.length === 0 && !creating ? (
          <Placeholder className="empty-state" icon={CodeIcon} title="No widgets yet">
            <p className="placeholder-text">Create a widget, list the websites allowed to show it, and paste its snippet into your site.</p>
            <Button variant="primary" disabled={readOnly} onClick={() => open(null, true)}>
              Create your first widget
            </Button>
          </Placeholder>
        ) : (
          <>
            <ProtectionCard protection={data.protection} />
            <WidgetTable widgets={data.widgets} protection={data.protection} selected={selected} onOpen={(id) => open(id)} />
          </>
        )}
      </QueryView>

      {creating ? <WidgetForm key="new" widget={null} readOnly={readOnly} onSaved={(w) => open(w.id)} onCancel={() => open(null)} /> : null}
      {selected && !creating ? <WidgetDetail key={selected} id={selected} readOnly={readOnly} onClosed={() => open(null)} /> : null}
    </>
  );
}

/** Today's spend against the cap, as people read money ("$0.35 of $2.00"). */
function spendOfCap(w: WidgetDto): string {
  return `${dollars(w.today.spentUsd)} of ${dollars(w.dailyCapUsd)}`;
}

const leadsCount = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "lead" : "leads"}`;

const BOT_CHECK: Record<WidgetProtection["botCheck"], { label: string; tone: BadgeTone }> = {
  on: { label: "On", tone: "success" },
  off: { label: "Off", tone: "soon" },
  missing: { label: "Missing", tone: "danger" },
};

/** What protects every widget: the bot check, the daily caps, the mail limit per address. */
function ProtectionCard({ protection }: { protection: WidgetProtection }) {
  const perDay = protection.mailsPerRecipientPerDay === 1 ? "one report mail" : `${protection.mailsPerRecipientPerDay} report mails`;
  return (
    <section className="card card-pad widget-protection" aria-labelledby="protection-title">
      <h2 className="section-title" id="protection-title">
        Protection
      </h2>
      {protection.botCheck === "missing" ? (
        <Alert tone="error" title="Widgets are not shown: the bot check is not set up">
          <p>
            On a live server an active widget is served only behind Cloudflare Turnstile, so that scripts cannot spend your AI budget. Set TURNSTILE_SITE_KEY and the
            TURNSTILE_SECRET_KEY secret, then reload this page.
          </p>
        </Alert>
      ) : null}
      <dl className="widget-protection-list">
        <div>
          <dt>
            Bot check <Badge tone={BOT_CHECK[protection.botCheck].tone}>{BOT_CHECK[protection.botCheck].label}</Badge>
          </dt>
          <dd>
            {protection.botCheck === "on"
              ? "Visitors pass Cloudflare Turnstile on one of the widget's allowed sites before a lead is taken."
              : protection.botCheck === "off"
                ? "Off while developing (Turnstile is not set up). On a live server no widget is shown without it."
                : "Without it no widget is shown and no lead is taken."}
          </dd>
        </div>
        <div>
          <dt>Daily spending cap</dt>
          <dd>Each widget's leads may spend up to its cap a day (UTC) on audits and reports. Once it is reached, the form asks visitors to come back tomorrow.</dd>
        </div>
        <div>
          <dt>Report mail</dt>
          <dd>
            An email address gets at most {perDay} a day, across all widgets; its other leads show the report on the page only.
            {protection.mailConfigured ? null : " No mail provider is set up, so no mail goes out: visitors see their report on the page, and the mail is kept in the outbox."}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function WidgetStatus({ w }: { w: WidgetDto }) {
  if (!w.active) return <Badge tone="soon">Off</Badge>;
  return w.served ? <Badge tone="success">Active</Badge> : <Badge tone="danger">Not shown: no bot check</Badge>;
}

function WidgetTable({ widgets, protection, selected, onOpen }: { widgets: WidgetDto[]; protection: WidgetProtection; selected: string | null; onOpen: (id: string) => void }) {
  if (widgets.length === 0) return null;
  return (
    <div className="card users-table-wrap">
      <table className="users-table">
        <TableHead columns={["Widget", "Allowed sites", "Today", "Leads", "Bot check", "Status", ACTIONS_COLUMN]} />
        <tbody>
          {widgets.map((w) => (
            <tr key={w.id} aria-current={w.id === selected ? "true" : undefined}>
              <td data-label="Widget">
                <span className="widget-name">
                  <span className="widget-swatch" style={{ background: w.accent }} aria-hidden="true" />
                  {w.name}
                </span>
              </td>
              <td data-label="Allowed sites">{w.origins.length > 0 ? w.origins.join(", ") : <span className="muted">None yet: only the preview shows it</span>}</td>
              <td data-label="Today">
                <span className="widget-today">{spendOfCap(w)}</span>
                <span className="muted"> · {leadsCount(w.today.leads)}</span>
              </td>
              <td data-label="Leads">{w.leads.toLocaleString("en-US")}</td>
              <td data-label="Bot check">{BOT_CHECK[protection.botCheck].label}</td>
              <td data-label="Status">
                <WidgetStatus w={w} />
              </td>
              <td data-label="Actions" className="col-actions">
                <Button size="sm" onClick={() => onOpen(w.id)}>
                  Open
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function WidgetDetail({ id, readOnly, onClosed }: { id: string; readOnly: boolean; onClosed: () => void }) {
  const query = useQuery(widgetQuery(id));
  const [version, setVersion] = useState(0);
  if (query.isPending) return <LoadingScreen />;
  if (query.isError) return <RetryAlert message={`Failed to load the widget: ${query.error.message}`} onRetry={() => void query.refetch()} />;
  const { widget, leads } = query.data;
  return (
    <>
      <WidgetForm widget={widget} readOnly={readOnly} onSaved={() => setVersion((v) => v + 1)} onCancel={onClosed} />
      <div className="widget-columns">
        <Snippets widget={widget} />
        <section className="card card-pad" aria-labelledby="preview-title">
          <h2 className="section-title" id="preview-title">
            Preview
          </h2>
          <p className="muted">The saved widget, as visitors see it (submissions here create real leads).</p>
          <iframe key={version} className="widget-preview" title={`Preview of ${widget.name}`} src={`/widget/${widget.id}/frame`} />
        </section>
      </div>
      <RecentLeads leads={leads} />
    </>
  );
}

function Snippets({ widget }: { widget: WidgetDto }) {
  const origin = window.location.origin;
  const script = `<script src="${origin}/widget/${widget.id}.js" async></script>`;
  const frame = `<iframe src="${origin}/widget/${widget.id}/frame" title="Free business audit" style="width:100%;max-width:520px;height:760px;border:0"></iframe>`;
  return (
    <section className="card card-pad" aria-labelledby="snippet-title">
      <h2 className="section-title" id="snippet-title">
        Snippet to paste
      </h2>
      {widget.origins.length === 0 ? (
        <Alert tone="warning" title="No website is allowed yet">
          <p>Add your site's address under Allowed sites: other sites cannot show the form or send leads.</p>
        </Alert>
      ) : null}
      <p className="muted">Paste it where the form should appear. It shows in its own box: your site's styles do not change it.</p>
      <pre className="widget-snippet">{script}</pre>
      <CopyButton text={script} label="Copy script snippet" />
      <p className="muted">Where your site builder does not allow scripts, use the frame instead:</p>
      <pre className="widget-snippet">{frame}</pre>
      <CopyButton text={frame} label="Copy iframe snippet" />
    </section>
  );
}

function RecentLeads({ leads }: { leads: LeadDto[] }) {
  return (
    <section className="card card-pad" aria-labelledby="leads-title">
      <h2 className="section-title" id="leads-title">
        Recent leads
      </h2>
      {leads.length === 0 ? (
        <Placeholder className="empty-state" icon={InboxIcon} title="No leads yet">
          <p className="placeholder-text">Leads appear here as visitors send the form.</p>
        </Placeholder>
      ) : (
        <table className="users-table">
          <TableHead columns={["Business", "Email", "Status", "Received", "Report"]} />
          <tbody>
            {leads.map((l) => (
              <tr key={l.id}>
                <td data-label="Business">{l.businessName}</td>
                <td data-label="Email">{l.visitorEmail}</td>
                <td data-label="Status">
                  {l.mailOutcome === "limited" ? (
                    <Badge tone="success">Ready, not mailed (address mailed today)</Badge>
                  ) : (
                    <Badge tone={LEAD_STATUS[l.status].tone}>{LEAD_STATUS[l.status].label}</Badge>
                  )}
                </td>
                <td data-label="Received">{formatDateTime(l.createdAt)}</td>
                <td data-label="Report">
                  <Link to={`/admin/reports/${l.reportId}`}>Open prospect</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

type Draft = { name: string; accent: string; askWebsite: boolean; askPhone: boolean; consentText: string; origins: string; active: boolean; dailyCap: string };

function draftOf(w: WidgetDto | null): Draft {
  return w
    ? {
        name: w.name,
        accent: w.accent,
        askWebsite: w.askWebsite,
        askPhone: w.askPhone,
        consentText: w.consentText,
        origins: w.origins.join("\n"),
        active: w.active,
        dailyCap: w.dailyCapUsd.toFixed(2),
      }
    : { name: "", accent: DEFAULT_ACCENT, askWebsite: true, askPhone: false, consentText: DEFAULT_CONSENT, origins: "", active: true, dailyCap: DEFAULT_WIDGET_DAILY_CAP_USD.toFixed(2) };
}

function WidgetForm({ widget, readOnly, onSaved, onCancel }: { widget: WidgetDto | null; readOnly: boolean; onSaved: (w: WidgetDto) => void; onCancel: () => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(widget));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, showSaved] = useTimedMessage();
  const create = useCreateWidget();
  const save = useSaveWidget(widget?.id ?? "");
  const remove = useDeleteWidget();
  const logo = useUploadWidgetLogo(widget?.id ?? "");
  const [confirmDelete, setConfirmDelete] = useState(false);
  useEffect(() => setDraft(draftOf(widget)), [widget]);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const busy = create.isPending || save.isPending;
  const failure = create.error ?? save.error ?? remove.error ?? logo.error;

  function submit(e: FormEvent) {
    e.preventDefault();
    const lines = draft.origins.split(/[\n,]+/).map((l) => l.trim()).filter(Boolean);
    const badOrigin = lines.find((l) => !normalizeOrigin(l));
    const { dailyCap, ...fields } = draft;
    const dailyCapUsd = dailyCap.trim() === "" ? Number.NaN : Number(dailyCap);
    const parsed = WidgetCreate.safeParse({ ...fields, dailyCapUsd, origins: badOrigin ? [] : lines });
    const next: Record<string, string> = {};
    if (badOrigin) next.origins = `${badOrigin}: ${INVALID_ORIGIN_MESSAGE}`;
    if (!parsed.success) for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
    setErrors(next);
    if (Object.keys(next).length > 0 || !parsed.success) return;
    const body = { ...fields, dailyCapUsd, origins: lines };
    const done = (res: { widget: WidgetDto }) => {
      showSaved("Widget saved");
      onSaved(res.widget);
    };
    if (widget) save.mutate(body, { onSuccess: done });
    else create.mutate(body, { onSuccess: done });
  }

  return (
    <form className="card card-pad widget-form" onSubmit={submit} aria-labelledby="widget-form-title" noValidate>
      <h2 className="section-title" id="widget-form-title">
        {widget ? `Edit ${widget.name}` : "New widget"}
      </h2>
      {failure ? <Alert tone="error">{failure.message}</Alert> : null}
      {saved ? <Alert tone="success">{saved}</Alert> : null}
      <fieldset className="widget-fields" disabled={readOnly}>
        <TextField label="Name (only you see it)" value={draft.name} maxLength={WIDGET_LIMITS.name} error={errors.name} placeholder="Homepage form" onChange={(e) => set("name", e.target.value)} />
        <div className="field">
          <label className="field-label" htmlFor="widget-accent">
            Accent colour
          </label>
          <span className="widget-accent">
            <input id="widget-accent" type="color" value={draft.accent} onChange={(e) => set("accent", e.target.value)} />
            <code>{draft.accent}</code>
          </span>
        </div>
        <div className="field">
          <span className="field-label">Fields asked</span>
          <p className="field-hint">Business name, city or area, and email are always asked.</p>
          <label className="checkbox">
            <input type="checkbox" checked={draft.askWebsite} onChange={(e) => set("askWebsite", e.target.checked)} /> Website (optional for the visitor)
          </label>
          <label className="checkbox">
            <input type="checkbox" checked={draft.askPhone} onChange={(e) => set("askPhone", e.target.checked)} /> Phone (optional for the visitor)
          </label>
        </div>
        <TextAreaField label="Consent text (a box the visitor ticks; empty: no box)" value={draft.consentText} maxLength={WIDGET_LIMITS.consent} onChange={(v) => set("consentText", v)} />
        <div className="field">
          <TextAreaField
            label="Allowed sites"
            value={draft.origins}
            maxLength={WIDGET_LIMITS.origins * (WIDGET_LIMITS.origin + 1)}
            rows={3}
            placeholder={"https://www.youragency.com"}
            hint="One per line: the addresses of the sites that may show this widget (scheme and host, no path)."
            onChange={(v) => set("origins", v)}
          />
          {errors.origins ? <p className="field-error">{errors.origins}</p> : null}
        </div>
        <TextField
          label="Daily spending cap (dollars)"
          type="number"
          min={0}
          step="0.01"
          inputMode="decimal"
          value={draft.dailyCap}
          error={errors.dailyCapUsd}
          hint={
            widget
              ? `Spent today: ${spendOfCap(widget)}, ${leadsCount(widget.today.leads)}. Resets at midnight UTC.`
              : "What this widget's leads may spend a day on audits and reports. Resets at midnight UTC."
          }
          onChange={(e) => set("dailyCap", e.target.value)}
        />
        <label className="checkbox">
          <input type="checkbox" checked={draft.active} onChange={(e) => set("active", e.target.checked)} /> Active (off: the snippet shows nothing)
        </label>
        {widget ? (
          <div className="field">
            <span className="field-label">Logo</span>
            <span className="widget-logo-row">
              {widget.logoUrl ? <img className="widget-logo" src={widget.logoUrl} alt="Current widget logo" /> : <span className="muted">No logo</span>}
              <label className={buttonClass("secondary", "sm")}>
                {logo.isPending ? "Uploading…" : "Upload logo"}
                <input type="file" accept="image/png,image/jpeg,image/webp,image/gif" hidden onChange={(e) => e.target.files?.[0] && logo.mutate(e.target.files[0])} />
              </label>
              {widget.logoUrl ? (
                <Button size="sm" variant="ghost" onClick={() => save.mutate({ logo: null })}>
                  Remove
                </Button>
              ) : null}
            </span>
            <p className="field-hint">PNG, JPEG, WebP or GIF, under 100 KB (it travels inside the widget's script).</p>
          </div>
        ) : null}
      </fieldset>
      <div className="row-actions">
        <Button type="submit" variant="primary" busy={busy} disabled={readOnly}>
          {widget ? "Save widget" : "Create widget"}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Close
        </Button>
        {widget ? (
          confirmDelete ? (
            <span className="row-confirm">
              Delete this widget? Its snippet stops working.
              <Button size="sm" variant="danger" busy={remove.isPending} onClick={() => remove.mutate(widget.id, { onSuccess: onCancel })}>
                Delete
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setConfirmDelete(false)}>
                Keep
              </Button>
            </span>
          ) : (
            <Button variant="danger" disabled={readOnly} onClick={() => setConfirmDelete(true)}>
              Delete
            </Button>
          )
        ) : null}
      </div>
    </form>
  );
}
