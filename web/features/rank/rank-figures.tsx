// The figures around a grid scan and a tracked keyword (issue 19): ARP/ATRP/SoLV cards with Local Falcon's
// definitions as tooltips, the competitors holding the top 3, the change between two scans, a position change with
// its arrow, and one scan's whole result (heat map, figures, rivals) as the tool, the shared page and the reports show it.
// Pure (no hooks): the edge-rendered shared report draws these too.
import { useId } from "react";
import { METRIC_TOOLTIPS, compareScans, type Competitor, type GridMetrics, type MetricChange } from "../../../worker/features/rank/rules/metrics";
import type { PositionChange } from "../../../worker/features/rank/rules/tracker";
import type { GridScanView, LocalVisibility } from "../../../worker/features/rank/rules/view";
import { formatLongUsDate } from "../../../worker/features/reports/rules/format";
import { InfoIcon, MapPinIcon } from "../../design/icons";
import { RankHeatMap } from "./rank-heat-map";
import { ReportSection } from "../reports/ssr";
import { TableHead } from "../../design/table-head";

export type MetricKey = "arp" | "atrp" | "solv";
export const METRIC_NAMES: Record<MetricKey, string> = { arp: "ARP", atrp: "ATRP", solv: "SoLV" };
const METRIC_NOTES: Record<MetricKey, string> = {
  arp: "Average rank where found",
  atrp: "Average over every point",
  solv: "Points in the top 3",
};
export const METRIC_KEYS: readonly MetricKey[] = ["arp", "atrp", "solv"];

export function formatMetric(key: MetricKey, value: number | null): string {
  if (value === null) return "—";
  return key === "solv" ? `${Math.round(value)}%` : value.toFixed(1);
}

/** A figure's change in words: "+2.5", "−10%". */
function formatDelta(key: MetricKey, delta: number): string {
  const sign = delta > 0 ? "+" : delta < 0 ? "−" : "±";
  return key === "solv" ? `${sign}${Math.round(Math.abs(delta))} pts` : `${sign}${Math.abs(delta).toFixed(1)}`;
}

function MetricTip({ metric }: { metric: MetricKey }) {
  const id = useId();
  return (
    <span className="rank-tip">
      <button type="button" className="rank-tip-button" aria-label={`About ${METRIC_NAMES[metric]}`} aria-describedby={id}>
        <InfoIcon size="sm" />
      </button>
      <span role="tooltip" id={id} className="rank-tip-text">
        {METRIC_TOOLTIPS[metric]}
      </span>
    </span>
  );
}

/** ARP, ATRP and SoLV as stat cards, each with its definition a tap or hover away. */
export function GridMetricCards({ metrics }: { metrics: GridMetrics }) {
  return (
    <ul className="rank-metrics" aria-label="Grid metrics">
      {METRIC_KEYS.map((key) => (
        <li key={key} className="card rank-metric" data-metric={key}>
          <p className="rank-metric-label">
            {METRIC_NAMES[key]}
            <MetricTip metric={key} />
          </p>
          <p className="rank-metric-value">{formatMetric(key, metrics[key])}</p>
          <p className="audit-muted">{METRIC_NOTES[key]}</p>
        </li>
      ))}
    </ul>
  );
}

/** How many points were searched, missed and failed (failed ones are not in any figure). */
export function pointCounts(m: GridMetrics): string {
  const searched = m.found + m.notFound;
  const parts = [searched ? `Found at ${m.found} of ${searched} points searched` : "No point searched yet"];
  if (m.failed) parts.push(`${m.failed} failed search${m.failed === 1 ? "" : "es"} not counted`);
  if (m.pending) parts.push(`${m.pending} still to search`);
  return parts.join(" · ");
}

export function CompetitorList({ competitors, searched }: { competitors: readonly Competitor[]; searched: number }) {
  return (
    <div className="audit-block">
      <h3 className="audit-block-title">Who holds the top 3</h3>
      {competitors.length === 0 ? (
        <p className="audit-muted">No other business holds the top 3 at the points searched so far.</p>
      ) : (
        <ol className="rank-rivals">
          {competitors.map((c) => (
            <li key={c.placeId}>
              <strong>{c.title || "Unnamed listing"}</strong>
              <span className="audit-muted">
                Top 3 at {c.top3Points} of {searched} points{c.firstPoints ? ` · first at ${c.firstPoints}` : ""}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** "5×5 grid · 2 mi radius · November 25, 2026" */
export function scanSubtitle(scan: Pick<GridScanView, "size" | "radiusMiles" | "createdAt">): string {
  return [`${scan.size}×${scan.size} grid`, `${scan.radiusMiles} mi radius`, formatLongUsDate(scan.createdAt)].filter(Boolean).join(" · ");
}

type ScanResultData = Pick<GridScanView, "keyword" | "size" | "points" | "metrics" | "competitors" | "business"> & {
  status?: GridScanView["status"];
  mapTileUrl?: string | null;
};

/** One scan's heat map, figures and rivals. */
export function GridScanResult({ scan }: { scan: ScanResultData }) {
  const running = scan.status !== undefined && scan.status !== "done";
  return (
    <div className="rank-result">
      <RankHeatMap
        points={scan.points}
        size={scan.size}
        running={running}
        mapTileUrl={scan.mapTileUrl ?? null}
        label={`Where ${scan.business.name} ranks for "${scan.keyword}" across the grid`}
      />
      <div className="rank-figures">
        <GridMetricCards metrics={scan.metrics} />
        <p className="audit-muted">{pointCounts(scan.metrics)}</p>
        <CompetitorList competitors={scan.competitors} searched={scan.metrics.found + scan.metrics.notFound} />
      </div>
    </div>
  );
}

function ChangeCell({ metric, change }: { metric: MetricKey; change: MetricChange }) {
  if (change.delta === null) return <td className="audit-muted">No change to compare</td>;
  const tone = change.improved === null ? "" : change.improved ? "is-good" : "is-poor";
  const words = change.improved === null ? "no change" : change.improved ? "better" : "worse";
  return (
    <td className={`rank-change ${tone}`}>
      {formatDelta(metric, change.delta)} <span className="audit-muted">({words})</span>
    </td>
  );
}

/** Two scans' figures side by side with the change in each (lower is better for ARP and ATRP, higher for SoLV). */
export function ScanChangeTable({ before, after }: { before: { createdAt: string; metrics: GridMetrics }; after: { createdAt: string; metrics: GridMetrics } }) {
  const change = compareScans(before.metrics, after.metrics);
  return (
    <div className="audit-table-wrap">
      <table className="audit-table" aria-label="Change between the two scans">
        <TableHead columns={["Metric", "Earlier", "Later", "Change"]} />
        <tbody>
          {METRIC_KEYS.map((key) => (
            <tr key={key}>
              <th scope="row">{METRIC_NAMES[key]}</th>
              <td>{formatMetric(key, change[key].before)}</td>
              <td>{formatMetric(key, change[key].after)}</td>
              <ChangeCell metric={key} change={change[key]} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A position change with its arrow ("▲ 3" up, "▼ 2" down), or a dash without two completed checks. */
export function PositionChangeMark({ change, since }: { change: PositionChange; since: "last" | "first" }) {
  const when = since === "last" ? "since the last check" : "since the first check";
  if (change.gained === null) return <span className="audit-muted" title={`No change ${when} yet`}>—</span>;
  if (change.gained === 0) return <span className="rank-move" aria-label={`No change ${when}`}>±0</span>;
  const up = change.gained > 0;
  const n = Math.abs(change.gained);
  return (
    <span className={`rank-move ${up ? "is-good" : "is-poor"}`} aria-label={`${up ? "Up" : "Down"} ${n} position${n === 1 ? "" : "s"} ${when}`}>
      <span aria-hidden="true">{up ? "▲" : "▼"}</span> {n}
    </span>
  );
}

export const LOCAL_VISIBILITY_ID = "local-visibility";

/** The report's "Local visibility": the prospect's latest grid scan (admin report and shared report alike). */
export function LocalVisibilitySection({ visibility }: { visibility: LocalVisibility }) {
  return (
    <ReportSection id={LOCAL_VISIBILITY_ID} icon={MapPinIcon} title="Local visibility" subtitle={`"${visibility.keyword}" · ${scanSubtitle(visibility)}`}>
      <p className="audit-muted">
        Where {visibility.business.name} shows in the Google Maps results for “{visibility.keyword}” when people search from points all over
        its service area.
      </p>
      <GridScanResult scan={{ ...visibility, status: "done" }} />
    </ReportSection>
  );
}
