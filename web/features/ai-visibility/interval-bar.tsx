import "./ai-visibility.css";
// A proportion with its 95% interval (AI Visibility, issue 29): the words ("2 of 5 answers (40%, 95% interval 12–77%)")
// and a small bar, the interval as a band on 0–100% with the rate as a dot, so a wide interval reads as unsure at a glance.

/** 0.4 → "40%". */
export function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}

export type IntervalFigure = { k: number; n: number; mention_rate: number; low: number; high: number };

/** "2 of 5 answers (40%, 95% interval 12–77%)". */
export function rateText(f: IntervalFigure, unit = "answers"): string {
  return `${f.k} of ${f.n} ${unit} (${percent(f.mention_rate)}, 95% interval ${Math.round(f.low * 100)}–${percent(f.high)})`;
}

const clamp = (x: number) => Math.min(100, Math.max(0, x * 100));

export function IntervalBar({ rate, low, high }: { rate: number; low: number; high: number }) {
  return (
    <span className="ivl-bar" role="img" aria-label={`${percent(rate)}, 95% interval ${Math.round(low * 100)}–${percent(high)}`}>
      <span className="ivl-band" style={{ left: `${clamp(low)}%`, width: `${Math.max(1, clamp(high) - clamp(low))}%` }} />
      <span className="ivl-dot" style={{ left: `${clamp(rate)}%` }} />
    </span>
  );
}
