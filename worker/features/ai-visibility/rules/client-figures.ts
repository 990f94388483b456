// The AI Visibility figures on the agency's clients view (issue 41): the latest finished own scan's overall mention
// rate with its 95% interval, against the finished scan before it; a direction only where the two intervals no longer
// overlap (the alert's rule: anything less is noise). Refreshed when a scan finishes. Pure: the web reads the shape.
import { intervalsSeparate } from "./ai-visibility";

type Overall = { mention_rate: number; low: number; high: number };

export type AiClientFigures = {
  /** Share of answers (0..1) naming the business, each question and engine weighing the same; null without a scan. */
  mentionRate: number | null;
  /** Its 95% interval. */
  low: number | null;
  high: number | null;
  /** The finished scan before it's rate; null without one. */
  previousRate: number | null;
  /** "up" or "down" only when the intervals separate; null when they overlap or there is nothing to compare. */
  direction: "up" | "down" | null;
  scannedAt: string | null;
};

export function aiClientFiguresOf(latest: { overall: Overall | null; scannedAt: string } | null, previous: Overall | null): AiClientFigures {
  const now = latest?.overall ?? null;
  const moved = now && previous && intervalsSeparate(previous, now) ? (now.mention_rate > previous.mention_rate ? "up" : "down") : null;
  return {
    mentionRate: now?.mention_rate ?? null,
    low: now?.low ?? null,
    high: now?.high ?? null,
    previousRate: previous?.mention_rate ?? null,
    direction: moved,
    scannedAt: latest?.scannedAt ?? null,
  };
}
