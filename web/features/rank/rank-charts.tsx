// The tracker's charts (issue 19): a keyword's sparkline in the list and its history chart (map pack and organic)
// on its own page. Rank 1 is at the top; a miss (not in the top 20) sits on the bottom line; a failed check is a
// gap in the line, never a zero.
import type { PointResult } from "../../../worker/features/rank/rules/metrics";
import { MISS_RANK } from "../../../worker/features/rank/rules/metrics";
import type { KeywordCheckView, TrackedKeywordView } from "../../../worker/features/rank/rules/view";
import { formatCreated } from "../../lib/format-date";
import "./rank.css";

type Plot = { x: number; y: number } | null;

/** Runs of consecutive plotted points: a null (failed check) breaks the line. */
export function lineSegments(points: readonly Plot[]): string[] {
  const runs: string[] = [];
  let run: string[] = [];
  for (const p of points) {
    if (p === null) {
      if (run.length) runs.push(run.join(" "));
      run = [];
    } else run.push(`${p.x.toFixed(1)},${p.y.toFixed(1)}`);
  }
  if (run.length) runs.push(run.join(" "));
  return runs;
}

function rankY(rank: number, top: number, height: number): number {
  return top + ((Math.min(rank, MISS_RANK) - 1) / (MISS_RANK - 1)) * height;
}

/** A point's rank on the chart: a miss counts as the bottom line, a failed check (or none yet) is a gap. */
function plottedRank(result: PointResult): number | null {
  if (result.status === "found") return result.rank;
  if (result.status === "not_found") return MISS_RANK;
  return null;
}

const SPARK_W = 120;
const SPARK_H = 32;

/** The last checks' map-pack positions; failed checks are gaps (drawn as a tick on the baseline). */
export function RankSparkline({ spark }: { spark: TrackedKeywordView["spark"] }) {
  if (spark.length === 0) return <span className="audit-muted">No checks yet</span>;
  const step = spark.length > 1 ? (SPARK_W - 4) / (spark.length - 1) : 0;
  const x = (i: number) => 2 + (spark.length > 1 ? i * step : (SPARK_W - 4) / 2);
  const plots: Plot[] = spark.map((s, i) => (s.failed ? null : { x: x(i), y: rankY(s.rank ?? MISS_RANK, 3, SPARK_H - 6) }));
  const failed = spark.filter((s) => s.failed).length;
  const latest = [...spark].reverse().find((s) => !s.failed);
  const label = `Map pack, last ${spark.length} checks${latest ? `: now ${latest.rank === null ? "not in the top 20" : `#${latest.rank}`}` : ""}${failed ? `, ${failed} failed (gaps)` : ""}`;
  return (
    <svg className="rank-spark" viewBox={`0 0 ${SPARK_W} ${SPARK_H}`} width={SPARK_W} height={SPARK_H} role="img" aria-label={label}>
      {lineSegments(plots).map((pts) => (
        <polyline key={pts} points={pts} className="rank-line-map" />
      ))}
      {plots.map((p, i) => (p ? <circle key={i} cx={p.x} cy={p.y} r="2.5" className="rank-dot-map" /> : null))}
      {spark.map((s, i) => (s.failed ? <line key={`f${i}`} className="rank-failed-tick" x1={x(i)} x2={x(i)} y1={SPARK_H - 4} y2={SPARK_H} data-failed /> : null))}
    </svg>
  );
}

/** A history chart's dates along its foot: about six of them, always the last; the first and last kept inside. */
export function ChartDateLabels({ dates, x, y }: { dates: readonly string[]; x: (i: number) => number; y: number }) {
  const every = Math.max(1, Math.ceil(dates.length / 6));
  const anchor = (i: number) => (dates.length < 2 ? "middle" : i === 0 ? "start" : i === dates.length - 1 ? "end" : "middle");
  return (
    <>
      {dates.map((d, i) =>
        i % every === 0 || i === dates.length - 1 ? (
          <text key={`d${i}`} className="rank-chart-date" x={x(i)} y={y} textAnchor={anchor(i)}>
            {formatCreated(d).replace(/, \d{4}$/, "")}
          </text>
        ) : null,
      )}
    </>
  );
}

const CHART_W = 640;
const CHART_H = 240;
const PAD = { left: 36, right: 12, top: 12, bottom: 28 };
const TICKS = [1, 3, 10];

/** The history chart: map pack and organic lines, rank 1 at the top, failed checks as gaps marked on the axis. */
export function RankHistoryChart({ checks }: { checks: readonly KeywordCheckView[] }) {
  const inner = { w: CHART_W - PAD.left - PAD.right, h: CHART_H - PAD.top - PAD.bottom };
  const x = (i: number) => PAD.left + (checks.length > 1 ? (i / (checks.length - 1)) * inner.w : inner.w / 2);
  const series = (pick: (c: KeywordCheckView) => PointResult): Plot[] =>
    checks.map((c, i) => {
      const rank = plottedRank(pick(c));
      return rank === null ? null : { x: x(i), y: rankY(rank, PAD.top, inner.h) };
    });
  const map = series((c) => c.map);
  const organic = series((c) => c.organic);
  return (
    <figure className="rank-chart">
      <div className="rank-chart-scroll">
        <svg viewBox={`0 0 ${CHART_W} ${CHART_H}`} role="img" aria-label="Position history: map pack and organic, rank 1 at the top; failed checks are gaps">
          {TICKS.map((t) => (
            <g key={t} className="rank-chart-grid">
              <line x1={PAD.left} x2={CHART_W - PAD.right} y1={rankY(t, PAD.top, inner.h)} y2={rankY(t, PAD.top, inner.h)} />
              <text x={PAD.left - 6} y={rankY(t, PAD.top, inner.h)} dy="0.35em" textAnchor="end">
                {t}
              </text>
            </g>
          ))}
          <g className="rank-chart-grid">
            <text x={PAD.left - 6} y={rankY(MISS_RANK, PAD.top, inner.h)} dy="0.35em" textAnchor="end">
              20+
            </text>
          </g>
          {checks.map((c, i) =>
            c.map.status === "failed" || c.organic.status === "failed" ? (
              <rect key={`f${i}`} className="rank-chart-failed" x={x(i) - 3} y={PAD.top} width="6" height={inner.h} data-failed>
                <title>{`${formatCreated(c.checkedAt)}: ${c.map.status === "failed" && c.organic.status === "failed" ? "check failed" : c.map.status === "failed" ? "map pack check failed" : "organic check failed"}`}</title>
              </rect>
            ) : null,
          )}
          {lineSegments(organic).map((pts) => (
            <polyline key={`o${pts}`} points={pts} className="rank-line-organic" />
          ))}
          {lineSegments(map).map((pts) => (
            <polyline key={`m${pts}`} points={pts} className="rank-line-map" />
          ))}
          {map.map((p, i) => (p ? <circle key={`md${i}`} cx={p.x} cy={p.y} r="3" className="rank-dot-map" /> : null))}
          {organic.map((p, i) => (p ? <circle key={`od${i}`} cx={p.x} cy={p.y} r="3" className="rank-dot-organic" /> : null))}
          <ChartDateLabels dates={checks.map((c) => c.checkedAt)} x={x} y={CHART_H - 8} />
        </svg>
      </div>
      <figcaption>
        <ul className="rank-legend" aria-label="Legend">
          <li>
            <span className="rank-swatch rank-top3" aria-hidden="true" />
            Map pack
          </li>
          <li>
            <span className="rank-swatch rank-organic" aria-hidden="true" />
            Organic
          </li>
          <li>
            <span className="rank-swatch is-gap" aria-hidden="true" />
            Failed check (gap)
          </li>
        </ul>
      </figcaption>
    </figure>
  );
}
