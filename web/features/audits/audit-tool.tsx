// The GBP Audit and Local Search Audit tools (one screen, two scopes): audit one's own business (from Business
// Settings) or, for admins, any prospect; progress while the steps run, each result as it lands, the history of past
// audits, a re-run after 7 days, and a printable page.
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import type { SectionId } from "../../../worker/features/audits/rules/checks";
import type { AuditView } from "../../../worker/features/audits/rules/view";
import { formatDateTime } from "../../lib/format-date";
import { useAuth } from "../../lib/auth";
import { useViewAs } from "../../lib/view-as";
import { useAudits, useStartAudit, type AuditTarget } from "./queries";
import { profileQuery } from "../profile";
import { flattenPages, prospectListQuery } from "../prospects";
import { Alert, RetryAlert } from "../../design/alert";
import { AuditFindings, GBP_SECTIONS, auditSubtitle } from "./audit-findings";
import { AuditListingChoice } from "./audit-listing-picker";
import { BackLink } from "../../design/back-link";
import { Button } from "../../design/button";
import { CheckCircleIcon, MapPinIcon, PrinterIcon, RefreshIcon } from "../../design/icons";
import { Placeholder } from "../../design/placeholder";
import { rerunNote } from "./report-audit";
import { SearchField } from "../../design/search-field";
import { Segmented } from "../../design/segmented";
import { LoadingScreen } from "../../app/route-guards";
import { TableHead } from "../../design/table-head";
import { ShownOrOpen } from "../../design/tool-block";
import { PageHeader } from "../../design/page-header";
import { SearchUnavailableNotice } from "../setup";
import { UnavailableCode } from "../../../worker/features/setup/rules/setup";
import "../../design/scan-results.css";
import "./audits.css";
import { useCapabilities } from "../setup";
import { PageTitle } from "../brand";

export const SETTINGS_PATH = "/settings/personal";

type Scope = {
  name: string;
  eyebrow: string;
  intro: string;
  /** What a first run checks, on its start card. */
  checks: string;
  sections?: readonly SectionId[];
  overallLabel: string;
};

export const GBP_SCOPE: Scope = {
  name: "GBP Audit",
  eyebrow: "Tools",
  intro: "How your Google Business Profile looks to customers: the listing, its rating and reviews, and the competitors beside it on Google Maps.",
  checks: "It finds your listing on Google Maps and checks its categories, hours and website link, then sets your rating and reviews beside the top three competitors.",
  sections: GBP_SECTIONS,
  overallLabel: "Profile score",
};

export const LOCAL_SEARCH_SCOPE: Scope = {
  name: "Local Search Audit",
  eyebrow: "Tools",
  intro: "Everything that decides whether local customers find you: your website, your Google listing, page speed, where you rank and who ranks beside you.",
  checks: "It reads your website (title, description, headings, phone, structured data), finds your Google listing, measures page speed on a phone and checks where you rank on Google Maps and in search.",
  overallLabel: "SEO potential",
};

/** The Business Settings a user's own audit needs, and what is missing. */
export function missingForOwnAudit(profile: { company_name: string | null; company_location: string | null } | null | undefined): string[] {
  return [!profile?.company_name?.trim() && "your business name", !profile?.company_location?.trim() && "your location"].filter(
    (x): x is string => Boolean(x),
  );
}

export function ProspectPicker({ value, onChange }: { value: string | null; onChange: (id: string, name: string) => void }) {
  const [q, setQ] = useState("");
  const list = useInfiniteQuery(prospectListQuery(q.trim()));
  const items = flattenPages(list.data).items.slice(0, 8);
  return (
    <div className="audit-block">
      <SearchField placeholder="Search prospects by name, area or keyword" label="Search prospects" value={q} onChange={setQ} />
      {list.isError ? <RetryAlert message="Could not load the prospects." onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? <p className="audit-muted">Loading prospects…</p> : null}
      {list.data && items.length === 0 ? <p className="audit-muted">No prospects match. Paste some on Create New Report.</p> : null}
      <ul className="audit-pick-list" aria-label="Prospects">
        {items.map((p) => (
          <li key={p.id}>
            <button type="button" className="audit-pick" aria-pressed={value === p.id} onClick={() => onChange(p.id, p.name)}>
              <strong>{p.name}</strong>
              <span className="audit-muted">{[p.area, p.keyword].filter(Boolean).join(" · ")}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The audit could not search Google (no search provider): said once at the top, not per check. */
function searchSkipped(audit: AuditView): boolean {
  return Object.values(audit.steps).some((s) => s?.code === UnavailableCode.search);
}

function History({ list, current, onOpen }: { list: ReturnType<typeof useAudits>["list"]; current: string | null; onOpen: (id: string) => void }) {
  return (
    <section className="card card-pad audit-block audit-history" aria-labelledby="audit-history-title" data-print-hide>
      <h2 className="audit-block-title" id="audit-history-title">
        Past audits
      </h2>
      <div className="audit-table-wrap">
        <table className="audit-table">
          <TableHead columns={["When", "Score"]} actions="Open" />
          <tbody>
            {list.map((a) => (
              <tr key={a.id} className={a.id === current ? "is-own" : undefined}>
                <td>{formatDateTime(a.createdAt)}</td>
                <td>{a.status !== "done" ? "Running…" : a.overall === null ? "No data" : `${a.overall}/100`}</td>
                <td>
                  <ShownOrOpen shown={a.id === current} onOpen={() => onOpen(a.id)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Results({ audit, scope, newest, onRun, running, runError }: { audit: AuditView; scope: Scope; newest: boolean; onRun: () => void; running: boolean; runError: string | null }) {
  const wait = rerunNote(audit);
  return (
    <section className="card card-pad audit-result" aria-labelledby="audit-result-title">
      <header className="audit-result-head">
        <div>
          <h2 id="audit-result-title">{audit.subject.name}</h2>
          <p className="audit-muted">{auditSubtitle(audit)}</p>
        </div>
        <div className="audit-actions" data-print-hide>
          {audit.status === "done" ? (
            <Button onClick={() => window.print()}>
              <PrinterIcon size="sm" />
              Print
            </Button>
          ) : null}
          {audit.status === "done" && newest && !wait ? (
            <Button variant="primary" busy={running} onClick={onRun}>
              <RefreshIcon size="sm" />
              Run again
            </Button>
          ) : null}
        </div>
      </header>
      {newest && audit.stale ? (
        <p className="audit-muted" data-print-hide>
          {audit.subject.kind === "own" ? "Your business details changed since this audit ran" : "This business's details changed since this audit ran"}: run it again to check them.
        </p>
      ) : null}
      {searchSkipped(audit) ? (
        <div data-print-hide>
          <SearchUnavailableNotice what="The audit" />
        </div>
      ) : null}
      {newest && audit.status === "done" && wait ? (
        <p className="audit-muted" data-print-hide>
          {wait}
        </p>
      ) : null}
      {runError ? <Alert tone="error">{runError}</Alert> : null}
      <AuditFindings audit={audit} sections={scope.sections} overallLabel={scope.overallLabel}>
        <AuditListingChoice audit={audit} />
      </AuditFindings>
    </section>
  );
}

export function AuditTool({ scope }: { scope: Scope }) {
  const { isAdmin, profile: ownProfile } = useAuth();
  const viewAs = useViewAs();
  const operator = isAdmin && !viewAs;
  const [whose, setWhose] = useState<"own" | "prospect">("own");
  const [prospect, setProspect] = useState<{ id: string; name: string } | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const profile = useQuery({ ...profileQuery(viewAs?.viewingUserId ?? null), enabled: Boolean(viewAs) });
  const business = viewAs ? profile.data?.profile : ownProfile;
  const missing = missingForOwnAudit(business);
  const searchOff = useCapabilities()?.search === false;

  const target: AuditTarget | null = whose === "prospect" ? (prospect ? { prospectId: prospect.id } : null) : missing.length ? null : { own: true };
  const { history, list, id, audit } = useAudits(target, chosen);
  const start = useStartAudit();
  const run = () => {
    if (!target) return;
    setChosen(null);
    start.mutate(target);
  };
  const name = whose === "prospect" ? (prospect?.name ?? "") : (business?.company_name ?? "");
  // Without search, an own audit with no website would check nothing (issue 39): it is not offered (the API refuses it too).
  const nothingToCheck = searchOff && whose === "own" && !business?.company_website?.trim();

  let body;
  if (whose === "own" && viewAs && profile.isPending) body = <LoadingScreen />;
  else if (whose === "own" && missing.length) {
    body = (
      <Alert tone="warning" title="Your business details are needed">
        <p>
          The audit looks your business up on Google by its name and location. Add {missing.join(" and ")} in{" "}
          <Link to={SETTINGS_PATH}>Business Settings</Link>, then come back to run it.
        </p>
      </Alert>
    );
  } else if (!target) body = null;
  else if (history.isError || audit.isError) {
    body = <RetryAlert message="Could not load the audits." onRetry={() => void (history.isError ? history.refetch() : audit.refetch())} />;
  } else if (history.isPending || (id && !audit.data)) body = <LoadingScreen />;
  else if (!audit.data) {
    body = (
      <Placeholder icon={scope.sections ? MapPinIcon : CheckCircleIcon} title={`Audit ${name}`}>
        <p className="placeholder-text">{scope.checks}</p>
        <p className="placeholder-text">It takes about a minute; each result shows here as it lands.</p>
        {whose === "own" && !business?.company_website ? (
          <p className="placeholder-text">
            No website is set in <Link to={SETTINGS_PATH}>Business Settings</Link>: the audit will say so and skip the website checks.
          </p>
        ) : null}
        {whose === "own" && business && !business.company_street_address ? (
          <p className="placeholder-text">
            Add your street address in <Link to={SETTINGS_PATH}>Business Settings</Link>: the audit tells your Google listing from others by it.
          </p>
        ) : null}
        {searchOff ? <SearchUnavailableNotice what={nothingToCheck ? "The audit" : "Part of the audit"} /> : null}
        {nothingToCheck ? (
          <p className="placeholder-text">
            Without Google search the audit can only read your website: add it in <Link to={SETTINGS_PATH}>Business Settings</Link> to have it checked now.
          </p>
        ) : null}
        {start.error ? <Alert tone="error">{start.error.message}</Alert> : null}
        <Button variant="primary" busy={start.isPending} disabled={Boolean(viewAs) || nothingToCheck} onClick={run}>
          Run the audit
        </Button>
      </Placeholder>
    );
  } else {
    body = (
      <>
        <Results
          audit={audit.data}
          scope={scope}
          newest={audit.data.id === list[0]?.id}
          onRun={run}
          running={start.isPending}
          runError={start.error?.message ?? null}
        />
        {list.length > 1 ? <History list={list} current={audit.data.id} onOpen={setChosen} /> : null}
      </>
    );
  }

  return (
    <div className="audit-tool">
      <PageTitle>{`${scope.name}`}</PageTitle>
      <div data-print-hide>
        <BackLink to="/dashboard">Back to Dashboard</BackLink>
      </div>
      <PageHeader
        eyebrow={scope.eyebrow}
        title={scope.name}
        subtitle={scope.intro}
      />
      {operator ? (
        <div className="audit-block" data-print-hide>
          <Segmented
            label="Whose business"
            value={whose}
            onChange={(v) => {
              setWhose(v);
              setChosen(null);
            }}
            options={[
              { value: "own", label: "My business" },
              { value: "prospect", label: "A prospect" },
            ]}
          />
          {whose === "prospect" ? (
            <ProspectPicker
              value={prospect?.id ?? null}
              onChange={(pid, pname) => {
                setProspect({ id: pid, name: pname });
                setChosen(null);
              }}
            />
          ) : null}
        </div>
      ) : null}
      {body}
    </div>
  );
}
