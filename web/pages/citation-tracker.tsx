// /tools/citation-tracker: the Citation Tracker (issue 27) — where the business is listed across the web and whether
// each listing agrees. The cost is shown before a scan; sources fill in as they answer; the table puts each listing's
// fields beside what they should say (differences marked), with its evidence and the link to claim or correct it;
// filters, the fix list, the history of what changed, CSV.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { SOURCE_KIND_LABELS } from "../../worker/domain/citation-sources";
import { FIELD_IDS, FIELD_LABELS, type CitationScanSummaryRow, type CitationScanView, type CitationSourceResult, type FieldView } from "../../worker/domain/citations";
import { Alert, RetryAlert } from "../components/alert";
import { BackLink } from "../components/back-link";
import { Badge } from "../components/badge";
import { VERDICT_LABELS, prospectFromParams } from "../components/report-listings";
import { BusinessPicker, MissingDetails, useBusinessChoice } from "../components/business-choice";
import { Button } from "../components/button";
import { CheckCircleIcon, DownloadIcon, ExternalLinkIcon, MapPinIcon, AlertTriangleIcon, SearchIcon } from "../components/icons";
import { PageHeader } from "../components/page-header";
import { Placeholder } from "../components/placeholder";
import { LoadingScreen } from "../components/route-guards";
import { Segmented } from "../components/segmented";
import { StatCard } from "../components/stat-card";
import { TableHead } from "../components/table-head";
import { downloadText } from "../lib/download";
import { formatDateTime } from "../lib/format-date";
import { citationCsvPath, citationEstimateQuery, citationHistoryQuery, citationScanQuery, useRunCitationScan } from "../queries/citations";
import { fetchCsv } from "../queries/rank";
import "../audit.css";
import "../citations.css";

const usd = (n: number) => (n > 0 && n < 0.01 ? "< $0.01" : `$${n.toFixed(2)}`);


function VerdictBadge({ r }: { r: CitationSourceResult }) {
  if (r.state === "pending") return <Badge tone="view">Checking…</Badge>;
  if (r.lookup === "manual") return <Badge tone="view">Check yourself</Badge>;
  const v = VERDICT_LABELS[r.verdict];
  return <Badge tone={v.tone}>{v.label}</Badge>;
}

function FieldCell({ f }: { f: FieldView | undefined }) {
  if (!f || (f.listing === null && f.match !== "missing")) return <span className="audit-muted">—</span>;
  if (f.match === "missing") return <span className="audit-muted">Not shown</span>;
  const differs = f.match === "differs";
  return (
    <span className={differs ? "cit-differs" : undefined} title={f.note}>
      {f.listing}
      {differs && f.expected ? <span className="cit-should">Should be: {f.expected}</span> : null}
      {f.match === "tracking" ? <span className="cit-should">Call-tracking number</span> : null}
    </span>
  );
}

type Filter = "all" | "problems" | "gaps";

function SourcesTable({ sources }: { sources: CitationSourceResult[] }) {
  const [filter, setFilter] = useState<Filter>("all");
  const shown = sources.filter((r) => (filter === "problems" ? ["inconsistent", "duplicate"].includes(r.verdict) : filter === "gaps" ? r.gap : true));
  return (
    <section className="card card-pad audit-block" aria-labelledby="cit-sources-title">
      <div className="cit-head">
        <h2 className="audit-block-title" id="cit-sources-title">
          Sources
        </h2>
        <Segmented
          label="Show"
          value={filter}
          onChange={setFilter}
          options={[
            { value: "all", label: "All" },
            { value: "problems", label: "Problems only" },
            { value: "gaps", label: "Gaps" },
          ]}
        />
      </div>
      {shown.length === 0 ? (
        <p className="audit-muted">{filter === "problems" ? "No listing disagrees with your details." : "No source lists two or more of your competitors without you."}</p>
      ) : (
        <div className="audit-table-wrap">
          <table className="audit-table cit-table">
            <TableHead columns={["Source", "Verdict", ...FIELD_IDS.map((f) => FIELD_LABELS[f]), "Evidence"]} actions="Fix" />
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
                  {FIELD_IDS.map((f) => (
                    <td key={f}>
                      <FieldCell f={r.fields?.[f]} />
                    </td>
                  ))}
                  <td className="cit-evidence">
                    {r.evidence}
                    {r.url ? (
                      <a href={r.url} target="_blank" rel="noopener noreferrer" className="cit-link">
                        View listing <ExternalLinkIcon size="sm" />
                      </a>
                    ) : null}
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
        </div>
      )}
    </section>
  );
}

function FixList({ scan }: { scan: CitationScanView }) {
  return (
    <section className="card card-pad audit-block" aria-labelledby="cit-fix-title">
      <h2 className="audit-block-title" id="cit-fix-title">
        What to fix first
      </h2>
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
    </section>
  );
}

function History({ list, shown, onOpen }: { list: CitationScanSummaryRow[]; shown: string; onOpen: (id: string) => void }) {
  return (
    <section className="card card-pad audit-block" aria-labelledby="cit-history-title">
      <h2 className="audit-block-title" id="cit-history-title">
        History
      </h2>
      <ul className="cit-history">
        {list.map((s) => (
          <li key={s.id} className={s.id === shown ? "is-own" : undefined}>
            <div className="cit-head">
              <strong>
                {formatDateTime(s.createdAt)} {s.trigger === "cron" ? "· monthly re-scan" : ""}
              </strong>
              {s.id === shown ? (
                <span className="audit-muted">Shown</span>
              ) : (
                <Button size="sm" variant="ghost" onClick={() => onOpen(s.id)}>
                  Open
                </Button>
              )}
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
    </section>
  );
}

function ScanResult({ scan }: { scan: CitationScanView }) {
  const [csvError, setCsvError] = useState<string | null>(null);
  const answered = scan.sources.filter((s) => s.state === "done" && s.lookup !== "manual").length;
  const looked = scan.sources.filter((s) => s.lookup !== "manual").length;
  const s = scan.summary;
  const exportCsv = async () => {
    setCsvError(null);
    try {
      downloadText(await fetchCsv(citationCsvPath(scan.id)), `citations-${scan.createdAt.slice(0, 10)}.csv`);
    } catch (err) {
      setCsvError(err instanceof Error ? err.message : "Could not export the scan.");
    }
  };
  return (
    <>
      <section className="card card-pad audit-result" aria-labelledby="cit-scan-title">
        <header className="audit-result-head">
          <div>
            <h2 id="cit-scan-title">{scan.business.name}</h2>
            <p className="audit-muted">Scan of {formatDateTime(scan.createdAt)}</p>
            {scan.status !== "done" ? (
              <p className="rank-progress" role="status">
                <span className="spinner" aria-hidden="true" /> Looking up sources: {answered} of {looked} answered
              </p>
            ) : null}
          </div>
          {scan.status === "done" ? (
            <div className="audit-actions">
              <Button size="sm" onClick={() => void exportCsv()}>
                <DownloadIcon size="sm" />
                Export CSV
              </Button>
            </div>
          ) : null}
        </header>
        {csvError ? <Alert tone="error">{csvError}</Alert> : null}
        <div className="cit-stats">
          <StatCard icon={MapPinIcon} value={`${s.listed} of ${s.checked}`} label="Sources listing you" />
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
  const blocked = !target || !estimate.data || !estimate.data.allowed || choice.readOnly || run.isPending;

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
        <section className="card card-pad audit-block" aria-labelledby="cit-form-title">
          <h2 className="audit-block-title" id="cit-form-title">
            New scan{choice.name ? ` for ${choice.name}` : ""}
          </h2>
          {choice.readOnly ? (
            <p className="audit-muted">Read-only while viewing as another user.</p>
          ) : estimate.isError ? (
            <p className="audit-muted">Could not estimate the cost: {estimate.error.message}</p>
          ) : !e ? (
            <p className="audit-muted">Working out the cost…</p>
          ) : (
            <p className="rank-estimate" role="status">
              {e.searches} web searches · about {usd(e.costUsd)} · {e.allowanceLeftUsd === null ? "no monthly cap" : `${usd(e.allowanceLeftUsd)} left of this month's allowance`}
            </p>
          )}
          {e && !e.allowed && !choice.readOnly ? (
            <Alert tone="warning" title="Over this month's allowance">
              <p>
                A scan needs about {usd(e.costUsd)} of searches and {e.allowanceLeftUsd === null ? "nothing" : usd(e.allowanceLeftUsd)} is left this month. <Link to="/subscription">Upgrade your plan</Link> for more.
              </p>
            </Alert>
          ) : null}
          {run.error ? <Alert tone="error">{run.error.message}</Alert> : null}
          <div>
            <Button variant="primary" busy={run.isPending} disabled={blocked} onClick={() => target && run.mutate(target, { onSuccess: (s) => setChosen(s.id) })}>
              Scan listings
            </Button>
          </div>
        </section>
        {result}
        {list.length > 0 && shownId ? <History list={list} shown={shownId} onOpen={setChosen} /> : null}
      </>
    );
  }

  return (
    <div className="audit-tool">
      <title>Citation Tracker · Porchlight</title>
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <PageHeader
        eyebrow="Tools"
        title="Citation Tracker"
        subtitle="Where your business is listed across the web, whether each listing agrees with your details, and exactly what to fix where."
      />
      <BusinessPicker choice={choice} onChange={() => setChosen(null)} />
      {body}
    </div>
  );
}
