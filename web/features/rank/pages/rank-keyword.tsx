// /tools/local-rank-tracker/:id: one tracked keyword (issue 19) — its positions now, the history chart (map pack and
// organic, failed checks as gaps), every check with its date, CSV export, pause/resume and delete.
import { useQuery } from "@tanstack/react-query";
import { useNavigate, useParams } from "react-router";
import type { KeywordCheckView, TrackedKeywordDetail } from "../../../../worker/features/rank/rules/view";
import { Alert, RetryAlert } from "../../../design/alert";
import { ToolBlock } from "../../../design/tool-block";
import { BackLink } from "../../../design/back-link";
import { Badge } from "../../../design/badge";
import { SearchIcon } from "../../../design/icons";
import { Placeholder } from "../../../design/placeholder";
import { RankHistoryChart } from "../rank-charts";
import { PositionChangeMark } from "../rank-figures";
import { resultText } from "../rank-heat-map";
import { AlertBadges, KeywordActions, nextCheckText } from "../rank-keyword";
import { LoadingScreen } from "../../../app/route-guards";
import { ExportCsvButton, useCsvExport } from "../scan-header";
import { formatDateTime } from "../../../lib/format-date";
import { useViewAs } from "../../../lib/view-as";
import { isNotFound } from "../../reports";
import { keywordCsvPath, trackedKeywordQuery } from "../queries";
import { TRACKER_PATH } from "./local-rank-tracker";
import { TableHead } from "../../../design/table-head";
import "../../../design/scan-results.css";
import "../rank.css";
import { PageTitle } from "../../brand";

function CheckCell({ result }: { result: KeywordCheckView["map"] }) {
  return <td className={result.status === "failed" ? "rank-check-failed" : undefined}>{result.status === "failed" ? "Check failed (not counted)" : resultText(result)}</td>;
}

function Now({ k }: { k: TrackedKeywordDetail }) {
  return (
    <ul className="rank-metrics" aria-label="Current positions">
      {(["map", "organic"] as const).map((side) => (
        <li key={side} className="card rank-metric">
          <p className="rank-metric-label">{side === "map" ? "Map pack" : "Organic"}</p>
          <p className="rank-metric-value">{resultText(k[side].current)}</p>
          <p className="rank-kw-moves">
            <PositionChangeMark change={k[side].sinceLast} since="last" />
            <span className="audit-muted">since last</span>
            <PositionChangeMark change={k[side].sinceFirst} since="first" />
            <span className="audit-muted">since first</span>
          </p>
        </li>
      ))}
    </ul>
  );
}

export default function RankKeywordPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const viewAs = useViewAs();
  const query = useQuery(trackedKeywordQuery(id));
  const k = query.data;
  const csv = useCsvExport(keywordCsvPath(id), `rank-${(k?.keyword ?? "keyword").replace(/\W+/g, "-")}.csv`, "Could not export the history.");

  let body;
  if (isNotFound(query.error)) {
    body = (
      <Placeholder icon={SearchIcon} title="Keyword not found">
        <p className="placeholder-text">This keyword is not tracked, or it was deleted.</p>
      </Placeholder>
    );
  } else if (query.isError) body = <RetryAlert message="Could not load this keyword." onRetry={() => void query.refetch()} />;
  else if (!k) body = <LoadingScreen />;
  else {
    const checks = [...k.checks].sort((a, b) => a.checkedAt.localeCompare(b.checkedAt));
    body = (
      <>
        <section className="card card-pad audit-result" aria-labelledby="kw-title">
          <header className="audit-result-head">
            <div>
              <h2 id="kw-title">“{k.keyword}”</h2>
              <p className="audit-muted">
                {k.business.name}
                {k.business.area ? ` · ${k.business.area}` : ""} · {nextCheckText(k)}
              </p>
              <p className="rank-badges">
                {k.paused ? <Badge tone="view">Paused</Badge> : null}
                <AlertBadges alerts={k.alerts} />
              </p>
            </div>
            <div className="audit-actions">
              <ExportCsvButton onClick={() => void csv.run()} disabled={checks.length === 0} />
              <KeywordActions keyword={k} readOnly={Boolean(viewAs)} onDeleted={() => navigate(TRACKER_PATH)} />
            </div>
          </header>
          {csv.error ? <Alert tone="error">{csv.error}</Alert> : null}
          <Now k={k} />
        </section>
        <ToolBlock titleId="kw-history-title" title="History">
          {checks.length === 0 ? (
            <p className="audit-muted">No checks yet: the first one runs shortly after a keyword is added.</p>
          ) : (
            <>
              <RankHistoryChart checks={checks} />
              <div className="audit-table-wrap">
                <table className="audit-table" aria-label="Every check">
                  <TableHead columns={["Checked", "Map pack", "Organic"]} />
                  <tbody>
                    {[...checks].reverse().map((c) => (
                      <tr key={c.checkedAt}>
                        <td>{formatDateTime(c.checkedAt)}</td>
                        <CheckCell result={c.map} />
                        <CheckCell result={c.organic} />
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </ToolBlock>
      </>
    );
  }

  return (
    <div className="audit-tool">
      <PageTitle>{`${k ? k.keyword : "Keyword"} · Local Rank Tracker`}</PageTitle>
      <BackLink to={TRACKER_PATH}>Back to Local Rank Tracker</BackLink>
      {body}
    </div>
  );
}
