// /admin/new-report: Create New Report (spec part 2 §2, §4, §5, §8) — form, generating screen, then the report.
import { CategorySelect } from "../../../design/category-select";
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { issuesByField } from "../../../../worker/domain/form-rules";
import {
  CREATE_REPORT_FAILED,
  NEW_REPORT_FIELDS,
  NOT_SIGNED_IN_MESSAGE,
  NewReportInput,
  REQUIRED_FIELDS_MESSAGE,
  newReportErrorMessage,
} from "../../../../worker/features/reports/rules/new-report";
import { Alert } from "../../../design/alert";
import { Button, buttonClass } from "../../../design/button";
import { GeneratingScreen } from "../report-generating";
import { BackLink } from "../../../design/back-link";
import { TextField } from "../../../design/text-field";
import { ApiError } from "../../../lib/api";
import { useCreateReport } from "../queries";
import { PageHeader } from "../../../design/page-header";
import "../report-admin.css";
import { PageTitle } from "../../brand";

/** Spec §9: navigation to the report 1.5 s after creation. */
export const NAVIGATE_AFTER_MS = 1500;
export const CREATE_NOTE = "This may take up to a minute.";
const CANCEL_PATH = "/admin/report-generator";

type Fields = {
  name: string;
  company_name: string;
  phone: string;
  website: string;
  description: string;
  area: string;
  keyword: string;
  category: string;
};
const EMPTY: Fields = { name: "", company_name: "", phone: "", website: "", description: "", area: "", keyword: "", category: "" };
/** Required fields and lengths come from the schema the API validates with. */
const RULES = NEW_REPORT_FIELDS;

/** The form's values checked by the shared schema: the fields to mark, and the one message to show. */
function check(body: NewReportInput): { missing: Set<keyof Fields>; website: string | null; message: string } | null {
  const parsed = NewReportInput.safeParse(body);
  if (parsed.success) return null;
  const fields = issuesByField(parsed.error);
  const missing = new Set(
    (Object.keys(EMPTY) as (keyof Fields)[]).filter((key) => fields[key]?.includes(REQUIRED_FIELDS_MESSAGE)),
  );
  const website = fields.website?.[0] ?? null;
  const first = Object.entries(fields)[0];
  const message = newReportErrorMessage(fields) ?? website ?? (first ? `${first[0]}: ${first[1][0]}` : REQUIRED_FIELDS_MESSAGE);
  return { missing, website, message };
}

type Phase =
  | { kind: "form"; busy: "save" | null }
  | { kind: "generating"; warning?: string }
  | { kind: "saved"; warning?: string };

function messageFor(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return NOT_SIGNED_IN_MESSAGE;
    if (error.status === 400 || error.status === 403) return error.message;
  }
  return CREATE_REPORT_FAILED;
}

export default function NewReportPage() {
  const navigate = useNavigate();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [phase, setPhase] = useState<Phase>({ kind: "form", busy: null });
  const createReport = useCreateReport();
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState<Set<keyof Fields>>(new Set());
  const [websiteError, setWebsiteError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const errorRef = useRef<HTMLDivElement>(null);
  const descriptionId = useId();
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (error) errorRef.current?.scrollIntoView?.({ block: "nearest" });
  }, [error]);

  const set = (key: keyof Fields) => (value: string) => {
    setFields((f) => ({ ...f, [key]: value }));
    if (missing.has(key) && value.trim()) setMissing((m) => new Set([...m].filter((k) => k !== key)));
  };

  /** A text field's wiring: its value, the schema's rules (a required field's label ends in " *"), 'Required' when missing. */
  const field = (key: Exclude<keyof Fields, "category" | "description">, label: string) => ({
    label: `${label}${RULES[key].required ? " *" : ""}`,
    name: key,
    value: fields[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(key)(e.target.value),
    error: missing.has(key) ? "Required" : null,
    maxLength: RULES[key].maxLength,
    required: RULES[key].required,
  });

  async function submit(generate: boolean) {
    const body: NewReportInput = { ...fields, category: fields.category as NewReportInput["category"], generate };
    const problem = check(body);
    setWebsiteError(problem?.website ?? null);
    if (problem) {
      setMissing(problem.missing);
      setError(problem.message);
      return;
    }
    setError(null);
    setPhase(generate ? { kind: "generating" } : { kind: "form", busy: "save" });
    try {
      const res = await createReport.mutateAsync(body);
      setPhase(generate ? { kind: "generating", warning: res.warning } : { kind: "saved", warning: res.warning });
      timer.current = setTimeout(() => navigate(`/admin/reports/${res.report.id}`), NAVIGATE_AFTER_MS);
    } catch (err) {
      // A failure saving the prospect or report returns to the form with an error (spec §4).
      setPhase({ kind: "form", busy: null });
      setError(messageFor(err));
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit(true);
  }

  if (phase.kind === "generating") {
    return (
      <div className="report-page">
        <PageTitle>Generating Content</PageTitle>
        <GeneratingScreen intro={`Creating the SEO report for ${fields.name.trim()}.`} note={CREATE_NOTE} />
        {phase.warning ? (
          <div className="generating-warning">
            <Alert tone="warning">{phase.warning}</Alert>
          </div>
        ) : null}
      </div>
    );
  }

  const busy = phase.kind !== "form" || phase.busy !== null;
  return (
    <div className="report-page new-report">
      <PageTitle>Create New Report</PageTitle>
      <BackLink to={CANCEL_PATH}>Back to Prospects</BackLink>
      <PageHeader
        eyebrow="Reports"
        title="Create New Report"
        subtitle="Add a business and get an SEO report with meta tags, a Google ad, content ideas and an SEO potential score."
      />

      <form className="card new-report-card" onSubmit={onSubmit} noValidate aria-describedby={error ? "new-report-error" : undefined}>
        {error ? (
          <div ref={errorRef} id="new-report-error">
            <Alert tone="error">{error}</Alert>
          </div>
        ) : null}
        {phase.kind === "saved" ? (
          <Alert tone={phase.warning ? "warning" : "success"}>{phase.warning ?? "Report saved. Opening it..."}</Alert>
        ) : null}

        <div className="new-report-grid">
          <TextField {...field("name", "Business Name")} autoComplete="organization" />
          <TextField {...field("company_name", "Company Name")} />
          <TextField {...field("phone", "Business Phone")} type="tel" autoComplete="tel" />
          <TextField
            {...field("website", "Website")}
            type="url"
            inputMode="url"
            error={websiteError}
            placeholder="ridgeroofing.com"
            hint="Optional: the audit reads it (else the Google listing's)."
            autoComplete="url"
          />
          <CategorySelect label="Business Category" name="category" value={fields.category} onChange={set("category")} />
          <TextField {...field("area", "Business Location")} placeholder="Austin, TX" />
          <TextField {...field("keyword", "Target Keyword")} placeholder="roofer in austin" />
          <div className="field new-report-wide">
            <label className="field-label" htmlFor={descriptionId}>
              Business Description
            </label>
            <textarea
              id={descriptionId}
              name="description"
              className="input new-report-textarea"
              value={fields.description}
              onChange={(e) => set("description")(e.target.value)}
              rows={4}
              maxLength={RULES.description.maxLength}
              placeholder="What the business does, who it serves, what makes it different."
            />
          </div>
        </div>

        <div className="new-report-actions">
          <Link to={CANCEL_PATH} className={buttonClass("ghost")} aria-disabled={busy || undefined}>
            Cancel
          </Link>
          <Button variant="secondary" onClick={() => void submit(false)} busy={phase.kind === "form" && phase.busy === "save"} disabled={busy}>
            Save Only
          </Button>
          <Button variant="primary" type="submit" disabled={busy}>
            Create &amp; Generate Content
          </Button>
        </div>
      </form>
    </div>
  );
}
