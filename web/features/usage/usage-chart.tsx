// Daily tokens (bars) and cost (line) over the last 30 days: a small inline SVG, no chart library.
import { formatCost } from "../../../worker/domain/usage-cost";
import type { DailyUsage } from "../../../worker/features/usage/rules/usage-stats";
import "./usage.css";

const W = 600;
const H = 160;
const PAD = { top: 12, right: 8, bottom: 6, left: 8 };

function shortDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
}

export function UsageChart({ days }: { days: DailyUsage[] }) {
  const peakTokens = Math.max(0, ...days.map((d) => d.tokens));
  // Bars are scaled to at least 1 so an empty month draws no bars (and divides by nothing).
  const maxTokens = Math.max(1, peakTokens);
  const maxCost = Math.max(...days.map((d) => d.cost));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = innerW / Math.max(1, days.length);
  const barW = Math.max(2, step * 0.62);
  const totalTokens = days.reduce((n, d) => n + d.tokens, 0);
  const totalCost = days.reduce((n, d) => n + d.cost, 0);
  const costPoints = days
    .map((d, i) => {
      const x = PAD.left + step * i + step / 2;
      const y = PAD.top + innerH - (maxCost > 0 ? (d.cost / maxCost) * innerH : 0);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(" ");
  const first = days[0];
  const last = days[days.length - 1];
  return (
    <figure className="usage-chart">
      <figcaption className="usage-chart-head">
        <span className="usage-chart-title">Last {days.length} days</span>
        <span className="usage-chart-legend">
          <span className="usage-chart-item">
            <span className="usage-key is-tokens" aria-hidden="true" /> Tokens (peak {peakTokens.toLocaleString("en-US")})
          </span>
          <span className="usage-chart-item">
            <span className="usage-key is-cost" aria-hidden="true" /> Cost (peak {formatCost(maxCost)})
          </span>
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Daily AI usage over the last ${days.length} days: ${totalTokens.toLocaleString("en-US")} tokens, ${formatCost(totalCost)} in total.`}
      >
        <line className="usage-chart-axis" x1={PAD.left} x2={W - PAD.right} y1={PAD.top + innerH} y2={PAD.top + innerH} />
        {days.map((d, i) => {
          const h = (d.tokens / maxTokens) * innerH;
          return (
            <rect
              key={d.day}
              className="usage-chart-bar"
              x={PAD.left + step * i + (step - barW) / 2}
              y={PAD.top + innerH - h}
              width={barW}
              height={Math.max(0, h)}
              rx={1.5}
            >
              <title>{`${shortDay(d.day)}: ${d.tokens.toLocaleString("en-US")} tokens, ${formatCost(d.cost)}`}</title>
            </rect>
          );
        })}
        {maxCost > 0 ? <polyline className="usage-chart-line" points={costPoints} /> : null}
      </svg>
      {/* The axis labels are HTML, not SVG text: SVG text shrinks with the chart and is unreadable on phones. */}
      {first && last ? (
        <p className="usage-chart-labels" aria-hidden="true">
          <span>{shortDay(first.day)}</span>
          <span>{shortDay(last.day)}</span>
        </p>
      ) : null}
    </figure>
  );
}
