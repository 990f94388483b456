// /tools/social-plan (issue 20): a month's plan for the chosen networks and posts per week — themes by trade,
// season and area, an idea per day — on a calendar (month and list) where posts move by drag or by button; each day
// opens in its generator; export as a calendar subscription (ICS) or CSV, import from CSV.
import { useState, type ChangeEvent } from "react";
import type { ContentItem } from "../../../../worker/features/content/rules/content";
import { moveDay, planFromCsv, planToCsv, planToIcs, type CsvImport, type SocialPlan, type SocialPlanRequestInput } from "../../../../worker/features/content/rules/social-plan";
import { Alert } from "../../../design/alert";
import { Button } from "../../../design/button";
import { ContentToolPage } from "../content-tool";
import { NetworkChoice, Options, SelectField, TextAreaField } from "../../../design/form-fields";
import { CalendarIcon, DownloadIcon, LinkIcon } from "../../../design/icons";
import { PlanCalendar } from "../plan-calendar";
import { CopyButton } from "../../reports";
import { Segmented } from "../../../design/segmented";
import { TextField } from "../../../design/text-field";
import { downloadText } from "../../../lib/download";
import { useContentTool, type ContentToolState } from "../use-content-tool";
import { useCalendarLink } from "../queries";
import "../content.css";

type Form = Required<SocialPlanRequestInput>;

function nextMonth(now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return d.toISOString().slice(0, 7);
}

export default function SocialPlanPage() {
  const state = useContentTool<SocialPlan>("social-plan");
  const [form, setForm] = useState<Form>({ month: nextMonth(), networks: ["facebook", "instagram", "google-business"], postsPerWeek: 3, focus: "" });
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const [formError, setFormError] = useState<string | null>(null);
  return (
    <ContentToolPage
      tool="social-plan"
      state={state}
      wide
      eyebrow="Tools · Social"
      title="Social Plan"
      subtitle="A month of posts for your networks: weekly themes for your trade, season and area, and an idea for each day."
      generateLabel="Generate Plan"
      onGenerate={() => {
        setFormError(form.networks.length ? null : "Pick at least one network");
        if (form.networks.length) void state.run(form);
      }}
      empty={{ icon: CalendarIcon, title: "No Plan Generated Yet", text: "Pick a month, your networks and how often you post, and get a month of ideas on a calendar." }}
      copyText={(item) => planToCsv(item.result)}
      form={
        <>
          <div className="content-fields">
            <TextField label="Month" type="month" value={form.month} onChange={(e) => set("month", e.target.value)} />
            <SelectField label="Posts per week" value={String(form.postsPerWeek)} onChange={(v) => set("postsPerWeek", Number(v))}>
              <Options values={[1, 2, 3, 4, 5, 6, 7]} />
            </SelectField>
          </div>
          <NetworkChoice value={form.networks} onChange={(v) => set("networks", v)} error={formError} />
          <TextAreaField label="Focus (optional)" value={form.focus} maxLength={1000} onChange={(v) => set("focus", v)} placeholder="e.g. Holiday lighting installs and winter storm prep" />
        </>
      }
    >
      {(item) => <Plan item={item} state={state} />}
    </ContentToolPage>
  );
}

function Plan({ item, state }: { item: ContentItem<SocialPlan>; state: ContentToolState<SocialPlan> }) {
  const plan = item.result;
  const [view, setView] = useState<"month" | "list">("month");
  const [imported, setImported] = useState<CsvImport | null>(null);
  const link = useCalendarLink();
  const file = `social-plan-${plan.month}`;

  async function importCsv(e: ChangeEvent<HTMLInputElement>) {
    const chosen = e.target.files?.[0];
    e.target.value = "";
    if (!chosen) return;
    const result = planFromCsv(await chosen.text(), plan.days.length + 1);
    setImported(result);
    if (result.days.length) {
      const days = [...plan.days, ...result.days].sort((a, b) => a.date.localeCompare(b.date));
      if (!(await state.save({ ...plan, days: days.slice(0, 100) }))) setImported({ days: [], errors: [{ row: 0, message: "The imported posts could not be saved. Please try again." }] });
    }
  }

  return (
    <div className="fb-preview-wrap">
      <div className="fb-toolbar">
        <Segmented tabs label="Calendar view" options={[{ value: "month", label: "Month" }, { value: "list", label: "List" }]} value={view} onChange={setView} />
        <div className="plan-tools">
          <Button size="sm" onClick={() => downloadText(planToCsv(plan), `${file}.csv`)}>
            <DownloadIcon size="sm" /> Export CSV
          </Button>
          <Button size="sm" onClick={() => downloadText(planToIcs(plan, { planId: item.id, name: item.title, stamp: item.updated_at }), `${file}.ics`, "text/calendar;charset=utf-8")}>
            <DownloadIcon size="sm" /> Export ICS
          </Button>
          {state.readOnly ? null : (
            <>
              <label className="btn btn-secondary btn-sm">
                Import CSV
                <input type="file" accept=".csv,text/csv" className="visually-hidden" onChange={(e) => void importCsv(e)} />
              </label>
              <Button size="sm" busy={link.isPending} onClick={() => link.mutate(item.id)}>
                <LinkIcon size="sm" /> Calendar link
              </Button>
            </>
          )}
        </div>
      </div>
      {link.data ? (
        <Alert tone="success" title="Your calendar subscription link">
          <p>Add it to Google Calendar, Outlook or Apple Calendar as a calendar “from URL”. It updates as you move posts. Making a new link stops the old one.</p>
          <p className="plan-url">{link.data.url}</p>
          <CopyButton text={link.data.url} label="Copy Link" copiedLabel="Link Copied" />
        </Alert>
      ) : null}
      {link.error ? <Alert tone="error">{`Failed to make a calendar link: ${link.error.message}`}</Alert> : null}
      {imported ? (
        <Alert tone={imported.errors.length ? "warning" : "success"} title={`${imported.days.length} post${imported.days.length === 1 ? "" : "s"} imported`}>
          {imported.errors.length ? (
            <ul className="content-notes">
              {imported.errors.map((err) => (
                <li key={`${err.row}-${err.message}`}>{err.row ? `Row ${err.row}: ${err.message}` : err.message}</li>
              ))}
            </ul>
          ) : (
            <p>Every row was added to the plan.</p>
          )}
        </Alert>
      ) : null}
      {state.saveError ? <Alert tone="error">{state.saveError}</Alert> : null}
      <ul className="plan-themes">
        {plan.themes.map((t) => (
          <li key={t.week}>
            <strong>Week {t.week}</strong> {t.theme}
          </li>
        ))}
      </ul>
      {plan.days.length ? (
        <PlanCalendar plan={plan} view={view} readOnly={state.readOnly} onMove={(id, date) => void state.save(moveDay(plan, id, date))} />
      ) : (
        <p className="card card-pad muted">This plan has no posts yet: import a CSV or generate a new plan.</p>
      )}
    </div>
  );
}
