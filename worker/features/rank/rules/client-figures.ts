// The rank figures on the agency's clients view (issue 41): the latest finished own grid scan's SoLV and ATRP (Local
// Falcon's definitions, worker/features/rank/rules/metrics.ts) against the same keyword's finished scan before it, and
// the tracked own keywords' latest moves in the map pack. Refreshed when a grid scan finishes or a keyword check lands.
// Pure: the web reads the shape.
import { compareScans, type GridMetrics, type PointResult } from "./metrics";
import type { PositionChange } from "./tracker";

export type RankClientFigures = {
  /** SoLV (0–100, one decimal) of the latest finished own grid scan; null without one (or with no point searched). */
  solv: number | null;
  /** ATRP (one decimal) of that scan. */
  atrp: number | null;
  /** When that scan finished. */
  scannedAt: string | null;
  /** SoLV points gained (negative: lost) since the same keyword's finished scan before it; null without one. */
  solvChange: number | null;
  /** Own keywords tracked. */
  keywords: number;
  /** Keywords whose latest completed map-pack check moved up / down against the one before it; null before any check. */
  keywordsUp: number | null;
  keywordsDown: number | null;
  /** Keywords in the map pack's top 3 by their latest completed check; null before any check. */
  top3: number | null;
  /** Keywords that were in the map pack's top 3 at the check before their latest and are not now (the attention queue's item). */
  leftTop3: { keywordId: string; keyword: string; from: number; to: number | null; checkedAt: string }[];
};

const round1 = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);

export function rankClientFiguresOf(input: {
  latest: { metrics: GridMetrics; finishedAt: string | null } | null;
  previous: GridMetrics | null;
  keywords: number;
  /** Each tracked keyword's map-pack position now and its latest change (as the tracker's list shows them). */
  moves: { keywordId: string; keyword: string; checkedAt: string | null; current: PointResult | null; sinceLast: PositionChange }[];
}): RankClientFigures {
  const { latest, previous } = input;
  const checked = input.moves.filter((m) => m.current !== null);
  return {
    solv: round1(latest?.metrics.solv ?? null),
    atrp: round1(latest?.metrics.atrp ?? null),
    scannedAt: latest?.finishedAt ?? null,
    solvChange: latest && previous ? round1(compareScans(previous, latest.metrics).solv.delta) : null,
    keywords: input.keywords,
    keywordsUp: checked.length ? checked.filter((m) => (m.sinceLast.gained ?? 0) > 0).length : null,
    keywordsDown: checked.length ? checked.filter((m) => (m.sinceLast.gained ?? 0) < 0).length : null,
    top3: checked.length ? checked.filter((m) => m.current?.status === "found" && m.current.rank <= 3).length : null,
    leftTop3: checked.flatMap((m) => {
      const { from, to } = m.sinceLast;
      return from !== null && from <= 3 && (to === null || to > 3) && m.checkedAt ? [{ keywordId: m.keywordId, keyword: m.keyword, from, to, checkedAt: m.checkedAt }] : [];
    }),
  };
}
