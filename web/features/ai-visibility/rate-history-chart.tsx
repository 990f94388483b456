// A rate over time with its interval band, one line per series (AI Visibility's history, issue 29): 0–100% upwards,
// each point's 95% interval as a shaded band around its line; a scan where the series has no answers is a gap.
import "../../design/scan-results.css";
import "./ai-visibility.css";
import { ChartDateLabels, lineSegments } from "../rank";

export type RatePoint = { rate: number; low: number; high: number } | null;
export type RateSeries = { key: string; label: string; color: string; points: readonly RatePoint[] };

const W = 640;
const H = 220;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };
const TICKS = [0, 0.5, 1];

/** `dates`: one per scan, oldest first; each series has a point (or null) per date. */
export function RateHistoryChart({ dates, series, label }: { dates: readonly string[]; series: readonly RateSeries[]; label: string }) {
  const inner = { w: W - PAD.left - PAD.right, h: H - PAD.top - PAD.bottom };
  const x = (i: number) => PAD.left + (dates.length > 1 ? (i / (dates.length - 1)) * inner.w : inner.w / 2);
  const y = (v: number) => PAD.top + (1 - v) * inner.h;
  return (
    <figure className="rank-chart">
      <div className="rank-chart-scroll">
        <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
          {TICKS.map((t) => (
            <g key={t} className="rank-chart-grid">
              <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} />
              <text x={PAD.left - 6} y={y(t)} dy="0.35em" textAnchor="end">
                {Math.round(t * 100)}%
              </text>
            </g>
          ))}
          {series.map((s) => {
            // The band: one polygon per unbroken run of points (upper edge forwards, lower edge back).
            const runs: number[][] = [[]];
            s.points.forEach((p, i) => (p === null ? runs.push([]) : runs.at(-1)!.push(i)));
            return (
              <g key={s.key} data-series={s.key}>
                {runs
                  .filter((r) => r.length > 0)
                  .map((r) => {
                    // A lone point's band is a short bar, so it still shows.
                    const xs = r.length === 1 ? [x(r[0]!) - 4, x(r[0]!) + 4] : r.map(x);
                    const at = (j: number) => s.points[r.length === 1 ? r[0]! : r[j]!]!;
                    const up = xs.map((px, j) => `${px.toFixed(1)},${y(at(j).high).toFixed(1)}`);
                    const down = xs.map((px, j) => `${px.toFixed(1)},${y(at(j).low).toFixed(1)}`).reverse();
                    const pts = [...up, ...down];
                    return <polygon key={r.join("-")} points={pts.join(" ")} fill={s.color} fillOpacity={0.15} stroke="none" />;
                  })}
                {lineSegments(s.points.map((p, i) => (p ? { x: x(i), y: y(p.rate) } : null))).map((pts) => (
                  <polyline key={pts} points={pts} stroke={s.color} />
                ))}
                {s.points.map((p, i) => (p ? <circle key={i} cx={x(i)} cy={y(p.rate)} r="3" fill={s.color} /> : null))}
              </g>
            );
          })}
          <ChartDateLabels dates={dates} x={x} y={H - 8} />
        </svg>
      </div>
      <figcaption>
        <ul className="rank-legend" aria-label="Legend">
          {series.map((s) => (
            <li key={s.key}>
              <span className="rank-swatch" style={{ background: s.color }} aria-hidden="true" />
              {s.label}
            </li>
          ))}
          <li>
            <span className="rank-swatch" style={{ background: "var(--ink-200)", borderRadius: 2 }} aria-hidden="true" />
            Shaded: 95% interval
          </li>
        </ul>
      </figcaption>
    </figure>
  );
}
