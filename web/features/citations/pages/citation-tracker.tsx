// /tools/citation-tracker: the Citation Tracker (issue 27) — where the business is listed across the web and whether
// each listing agrees. The cost is shown before a scan; sources fill in as they answer; the table (four columns at
// 1280 px, a card per source on phones) says what each listing shows that differs and what it should say, what
// matches, its evidence and the link to claim or correct it; filters, the fix list, the history of what changed, CSV.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { SOURCE_KIND_LABELS } from "../../../../worker/features/citations/rules/sources";
import { FIELD_IDS, FIELD_LABELS, expectedSourcesText, type CitationScanSummaryRow, type CitationScanView, type CitationSourceResult, type FieldView, type ListingFieldsView } from "../../../../worker/features/citations/rules/citations";
import { Alert, RetryAlert } from "../../../design/alert";
import { ShownOrOpen, ToolBlock } from "../../../design/tool-block";
import { Badge } from "../../../design/badge";
import { VERDICT_LABELS, prospectFromParams } from "../../reports";
import { BusinessToolPage, MissingDetails, useBusinessChoice } from "../../audits";
import { Button } from "../../../design/button";
import { CheckCircleIcon, ExternalLinkIcon, MapPinIcon, AlertTriangleIcon, SearchIcon } from "../../../design/icons";
import { ActionError, SearchUnavailableNotice } from "../../setup";
import { useCapabilities } from "../../setup";
import { ScanEstimate } from "../../../design/scan-estimate";
import { ScanHeader } from "../../rank";
import { Placeholder } from "../../../design/placeholder";
import { LoadingScreen } from "../../../app/route-guards";
import { Segmented, type SegmentedOption } from "../../../design/segmented";
import { StatCard } from "../../../design/stat-card";
import { TableHead } from "../../../design/table-head";
import { formatDateTime } from "../../../lib/format-date";
import { citationCsvPath, citationEstimateQuery, citationHistoryQuery, citationScanQuery, useRunCitationScan } from "../queries";
import "../../../design/scan-results.css";
import "../citations.css";
import { PageTitle } from "../../brand";

function VerdictBadge({ r }: { r: CitationSourceResult }) {
  if (r.state === "pending") return <Badge tone="view">Checking…</Badge>;
  if (r.lookup === "manual") return <Badge tone="view">Check yourself</Badge>;
  const v = VERDICT_LABELS[r.verdict];
  return <Badge tone={v.tone}>{v.label}</Badge>;
}

/** A listing's fields in a line or two: what differs (with what it should say) first, then what matches or is not shown. */
function ListingFields({ fields }: { fields: ListingFieldsView }) {
  const names = (match: FieldView["match"]) => FIELD_IDS.filter((f) => fields[f].match === match).map((f) => FIELD_LABELS[f]);
  const flagged = FIELD_IDS.filter((f) => fields[f].match === "differs" || fields[f].match === "tracking");
  const matches = names("match");
  const missing = names("missing");
  return (
    <>
      {flagged.map((f) => {
        const v = fields[f];
        return (
          <span key={f} className={v.match === "differs" ? "cit-field cit-differs" : "cit-field"} title={v.note}>
            {FIELD_LABELS[f]}: {v.listing}
            {v.match === "differs" && v.expected ? <span className="cit-should">Should be: {v.expected}</span> : null}
            {v.match === "tracking" ? <span className="cit-should">Call-tracking number</span> : null}
          </span>
        );
      })}
      {matches.length > 0 || missing.length > 0 ? (
        <span className="cit-should">{[matches.length > 0 ? `Matches: ${matches.join(", ")}` : "", missing.length > 0 ? `Not shown: ${missing.join(", ")}` : ""].filter(Boolean).join(" · ")}</span>
      ) : null}
    </>
  );
}

type Filter = "all" | "problems" | "gaps";

const SOURCE_FILTERS: SegmentedOption<Filter>[] = [
  { value: "all", label: "All" },
  { value: "problems", label: "Problems only" },
  { value: "gaps", label: "Gaps" },
];

/**
 * Four columns that fit 1280 px (issue 27): the source, the verdict, what the listing says (differences with what
 * they should say, then what matches) with its evidence, and the fix link. On a phone each row is a card.
 */
function SourcesTable({ sources }: { sources: CitationSourceResult[] }) {
  const [filter, setFilter] = useState<Filter>("all");
  const shown = sources.filter((r) => (filter === "problems" ? ["inconsistent", "duplicate"].includes(r.verdict) : filter === "gaps" ? r.gap : true));
  return (
    <ToolBlock
      titleId="cit-sources-title"
      title="Sources"
      aside={<Segmented label="Show" value={filter} onChange={setFilter} options={SOURCE_FILTERS} />}
    >
      {shown.length === 0 ? (
        <p className="audit-muted">{filter === "problems" ? "No listing disagrees with your details." : "No source lists two or more of your competitors without you."}</p>
      ) : (
        <table className="audit-table cit-table">
          <TableHead columns={["Source", "Verdict", "What the listing says"]} actions="Fix" />
          <tbody>
            {shown.map((r) => (
              <tr key={r.source}>
                <td>
                  <strong>{r.name}</strong>
                  <span className="cit-should">{SOURCE_KIND_LABELS[r.kind]}</span>
                </td>
                <td>
                  <VerdictBadge r={r} />
                  {r.gap ? <span className="cit-should">Competitors here: {r.competitors.join(", ")}</span> : null}
                </td>
                <td className="cit-found">
                  {r.fields ? <ListingFields fields={r.fields} /> : null}
                  <span className="cit-evidence">
                    {r.evidence}{" "}
                    {r.url ? (
                      <a href={r.url} target="_blank" rel="noopener noreferrer" className="cit-link">
                        View listing <ExternalLinkIcon size="sm" />
                      </a>
                    ) : null}
                  </span>
                </td>
                <td>
                  <a href={r.fix_url} target="_blank" rel="noopener noreferrer" className="cit-link">
                    {r.verdict === "not_found" || r.lookup === "manual" ? "Claim or add" : "Claim or correct"} <ExternalLinkIcon size="sm" />
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ToolBlock>
  );
}

function FixList({ scan }: { scan: CitationScanView }) {
  return (
    <ToolBlock titleId="cit-fix-title" title="What to fix first">
      {scan.fixes.length === 0 ? (
        <p className="audit-muted">Nothing to fix: every listing we found agrees with your details.</p>
      ) : (
        <ol className="cit-fixes">
          {scan.fixes.map((f, i) => (
            <li key={`${f.kind}-${f.source}-${i}`}>
              <span>{f.text}</span>{" "}
              <a href={f.url} target="_blank" rel="noopener noreferrer" className="cit-link">
                Open {f.name} <ExternalLinkIcon size="sm" />
              </a>
            </li>
          ))}
        </ol>
      )}
      <p className="audit-muted">We have no publisher partnerships: these links take you to each site's own claim or correction page, and a change shows on our next scan.</p>
    </ToolBlock>
  );
}

function History({ list, shown, onOpen }: { list: CitationScanSummaryRow[]; shown: string; onOpen: (id: string) => void }) {
  return (
    <ToolBlock titleId="cit-history-title" title="History">
      <ul className="cit-history">
        {list.map((s) => (
          <li key={s.id} className={s.id === shown ? "is-own" : undefined}>
            <div className="cit-head">
              <strong>
                {formatDateTime(s.createdAt)} {s.trigger === "cron" ? "· monthly re-scan" : ""}
              </strong>
              <ShownOrOpen shown={s.id === shown} onOpen={() => onOpen(s.id)} />
            </div>
            <p className="audit-muted">{s.status === "done" ? `Found on ${s.summary.listed} of ${s.summary.checked} sources; ${s.summary.consistent} consistent.` : "Running…"}</p>
            {s.changes.length > 0 ? (
              <ul>
                {s.changes.map((c) => (
                  <li key={c}>{c}</li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </ToolBlock>
  );
}

function ScanResult({ scan }: { scan: CitationScanView }) {
  const answered = scan.sources.filter((s) => s.state === "done" && s.lookup !== "manual").length;
  const looked = scan.sources.filter((s) => s.lookup !== "manual").length;
  const s = scan.summary;
  const compared = expectedSourcesText(scan.expected, scan.business.kind);
  return (
    <>
      <section className="card card-pad audit-result" aria-labelledby="cit-scan-title">
        <ScanHeader
          titleId="cit-scan-title"
          title={scan.business.name}
          subtitle={`Scan of ${formatDateTime(scan.createdAt)}`}
          progress={scan.status !== "done" ? `Looking up sources: ${answered} of ${looked} answered` : null}
          csv={{ path: citationCsvPath(scan.id), filename: `citations-${scan.createdAt.slice(0, 10)}.csv` }}
        />
        {compared ? <p className="audit-muted">{compared}</p> : null}
        <div className="cit-stats">
          <StatCard icon={MapPinIcon} value={String(s.listed)} label={`of ${s.checked} sources list you`} />
          <StatCard icon={CheckCircleIcon} value={String(s.consistent)} label="Consistent" />
          <StatCard icon={AlertTriangleIcon} value={String(s.inconsistent + s.duplicates)} label="Wrong or duplicate" />
          <StatCard icon={SearchIcon} value={s.score === null ? "—" : `${s.score}/100`} label="Citation score" />
        </div>
        {scan.changes.length > 0 ? (
          <Alert tone="info" title="Since your last scan">
            <ul>
              {scan.changes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          </Alert>
        ) : null}
      </section>
      {scan.status === "done" ? <FixList scan={scan} /> : null}
      <SourcesTable sources={scan.sources} />
    </>
  );
}

export default function CitationTrackerPage() {
  const [params] = useSearchParams();
  // Opened from a prospect's report or card (issue 27): that prospect is chosen already.
  const choice = useBusinessChoice(prospectFromParams(params));
  const { target } = choice;
  const [chosen, setChosen] = useState<string | null>(null);
  const estimate = useQuery({ ...citationEstimateQuery(target ?? { own: true }), enabled: target !== null && !choice.readOnly });
  const history = useQuery({ ...citationHistoryQuery(target ?? { own: true }), enabled: target !== null });
  const list = history.data ?? [];
  const shownId = chosen ?? list[0]?.id ?? null;
  const scan = useQuery({ ...citationScanQuery(shownId ?? ""), enabled: shownId !== null });
  const run = useRunCitationScan();
  // Every source is a web search: without search the button is disabled and the page says why (as the rank tools).
  const searchOff = useCapabilities()?.search === false;
  // One scan at a time per business: its sources are still being looked up.
  const running = list.some((s) => s.status !== "done");
  const blocked = !target || !estimate.data || !estimate.data.allowed || choice.readOnly || run.isPending || searchOff || running;

  let body;
  if (choice.loading) body = <LoadingScreen />;
  else if (choice.missing.length) body = <MissingDetails missing={choice.missing} what="The Citation Tracker compares your listings with your business's name, address and phone." />;
  else if (!target) body = null;
  else {
    let result;
    if (history.isError || scan.isError) result = <RetryAlert message="Could not load the scans." onRetry={() => void (history.isError ? history.refetch() : scan.refetch())} />;
    else if (history.isPending || (shownId && !scan.data)) result = <LoadingScreen />;
    else if (!scan.data) {
      result = (
        <Placeholder icon={MapPinIcon} title="No scans yet" className="empty-state">
          <p className="placeholder-text">Run your first scan above: each source is searched for your phone and your name, and each listing found is read and compared with your details.</p>
        </Placeholder>
      );
    } else result = <ScanResult scan={scan.data} />;
    const e = estimate.data;
    body = (
      <>
        <ToolBlock titleId="cit-form-title" title={`New scan${choice.name ? ` for ${choice.name}` : ""}`}>
          {choice.readOnly ? (
            <p className="audit-muted">Read-only while viewing as another user.</p>
          ) : (
            <ScanEstimate cost={e && { ...e, usd: e.costUsd }} error={estimate.error} searches="web searches" needs="A scan" />
          )}
          {searchOff ? <SearchUnavailableNotice what="The Citation Tracker" /> : null}
          {run.error ? <ActionError error={run.error} /> : null}
          <div>
            <Button variant="primary" busy={run.isPending} disabled={blocked} onClick={() => target && run.mutate(target, { onSuccess: (s) => setChosen(s.id) })}>
              Scan listings
            </Button>
          </div>
        </ToolBlock>
        {result}
        {list.length > 0 && shownId ? <History list={list} shown={shownId} onOpen={setChosen} /> : null}
      </>
    );
  }

  return (
    <BusinessToolPage
      title="Citation Tracker"
      subtitle="Where your business is listed across the web, whether each listing agrees with your details, and exactly what to fix where."
      choice={choice}
      onChange={() => setChosen(null)}
    >
      <PageTitle>Citation Tracker</PageTitle>
      {body}
    </BusinessToolPage>
  );
}
