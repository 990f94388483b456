// The Local Search Grid drawn as a heat map (issue 19): one circle per point, coloured by rank band with the rank in
// it, the centre ringed, a legend, and a label per point. A failed search is "Search failed", never "not ranked".
// Pure (no hooks): the tool, the shared grid page and both reports (the edge-rendered one too) draw the same SVG.
import type { PointResult, RankBand } from "../../../worker/features/rank/rules/metrics";
import { rankBand } from "../../../worker/features/rank/rules/metrics";
import type { GridPointView } from "../../../worker/features/rank/rules/view";

export const BAND_LABELS: Record<RankBand, string> = {
  top3: "1–3",
  top10: "4–10",
  top20: "11–20",
  not_found: "Not in the top 20",
  failed: "Search failed",
  pending: "Not searched yet",
};
const BAND_ORDER: RankBand[] = ["top3", "top10", "top20", "not_found", "failed", "pending"];

/** A rank result in words, for labels, tables and the tracker. */
export function resultText(result: PointResult | null): string {
  if (!result) return "No check yet";
  if (result.status === "found") return `#${result.rank}`;
  return BAND_LABELS[result.status];
}

/** What a point says on hover and to a screen reader. */
export function pointLabel(point: GridPointView, running: boolean): string {
  const where = point.center ? "Centre" : `Row ${point.row + 1}, column ${point.col + 1}`;
  const r = point.result;
  let what: string;
  if (r.status === "found") what = `rank ${r.rank}`;
  else if (r.status === "not_found") what = "not in the top 20";
  else if (r.status === "failed") what = running ? "Search failed — retrying" : `Search failed${point.failedReason ? ` (${point.failedReason})` : ""} — not counted`;
  else what = "not searched yet";
  const rivals = point.top3.length ? `. Top 3 here: ${point.top3.join(", ")}` : "";
  return `${where}: ${what}${rivals}`;
}

/** The text inside a point's circle. */
function pointMark(result: PointResult): string {
  if (result.status === "found") return String(result.rank);
  if (result.status === "not_found") return "20+";
  if (result.status === "failed") return "!";
  return "";
}

const CELL = 40;
const TILE = 256;

function worldPx(lat: number, lng: number, z: number): { x: number; y: number } {
  const scale = TILE * 2 ** z;
  const sin = Math.sin((Math.max(-85, Math.min(85, lat)) * Math.PI) / 180);
  return { x: ((lng + 180) / 360) * scale, y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * scale };
}

/** The map tiles under the grid (Web Mercator), placed so the points sit on their ground. */
export function underlayTiles(points: readonly GridPointView[], size: number, template: string) {
  const nw = points.find((p) => p.row === 0 && p.col === 0);
  const se = points.find((p) => p.row === size - 1 && p.col === size - 1);
  if (!nw || !se || size < 2) return [];
  const span0 = Math.abs(worldPx(nw.lat, se.lng, 0).x - worldPx(nw.lat, nw.lng, 0).x);
  if (!(span0 > 0)) return [];
  const z = Math.max(1, Math.min(18, Math.floor(Math.log2(512 / span0))));
  const a = worldPx(nw.lat, nw.lng, z);
  const b = worldPx(se.lat, se.lng, z);
  const sx = ((size - 1) * CELL) / (b.x - a.x);
  const sy = ((size - 1) * CELL) / (b.y - a.y);
  const toSvg = (x: number, y: number) => ({ x: (x - a.x) * sx + CELL / 2, y: (y - a.y) * sy + CELL / 2 });
  const topLeft = { x: a.x - CELL / 2 / sx, y: a.y - CELL / 2 / sy };
  const bottomRight = { x: b.x + CELL / 2 / sx, y: b.y + CELL / 2 / sy };
  const tiles: Array<{ href: string; x: number; y: number; w: number; h: number }> = [];
  for (let tx = Math.floor(topLeft.x / TILE); tx <= Math.floor(bottomRight.x / TILE); tx++) {
    for (let ty = Math.floor(topLeft.y / TILE); ty <= Math.floor(bottomRight.y / TILE); ty++) {
      const at = toSvg(tx * TILE, ty * TILE);
      const href = template.replace("{z}", String(z)).replace("{x}", String(tx)).replace("{y}", String(ty));
      tiles.push({ href, x: at.x, y: at.y, w: TILE * sx, h: TILE * sy });
    }
  }
  return tiles;
}

export function HeatMapLegend() {
  return (
    <ul className="rank-legend" aria-label="Legend">
      {BAND_ORDER.map((band) => (
        <li key={band}>
          <span className={`rank-swatch rank-${band}`} aria-hidden="true" />
          {BAND_LABELS[band]}
        </li>
      ))}
      <li>
        <span className="rank-swatch rank-centre" aria-hidden="true" />
        Centre
      </li>
    </ul>
  );
}

export function RankHeatMap({
  points,
  size,
  running = false,
  mapTileUrl = null,
  label,
  legend = true,
}: {
  points: readonly GridPointView[];
  size: number;
  /** While the scan runs, a failed point is being retried. */
  running?: boolean;
  mapTileUrl?: string | null;
  /** The map's accessible name (keyword and business). */
  label: string;
  /** Off where several maps share one legend. */
  legend?: boolean;
}) {
  const side = size * CELL;
  const tiles = mapTileUrl ? underlayTiles(points, size, mapTileUrl) : [];
  return (
    <figure className="rank-map">
      <svg viewBox={`0 0 ${side} ${side}`} role="group" aria-label={label} className={tiles.length ? "has-underlay" : undefined}>
        <defs>
          <clipPath id="rank-map-clip">
            <rect width={side} height={side} rx="8" />
          </clipPath>
        </defs>
        <rect className="rank-map-ground" width={side} height={side} rx="8" />
        {tiles.length ? (
          <g clipPath="url(#rank-map-clip)" aria-hidden="true">
            {tiles.map((t) => (
              <image key={t.href} href={t.href} x={t.x} y={t.y} width={t.w} height={t.h} preserveAspectRatio="none" />
            ))}
          </g>
        ) : null}
        {points.map((p) => {
          const band = rankBand(p.result);
          const cx = p.col * CELL + CELL / 2;
          const cy = p.row * CELL + CELL / 2;
          const text = pointLabel(p, running);
          return (
            <g key={`${p.row}-${p.col}`} className={`rank-point rank-${band}`} role="img" aria-label={text} data-band={band} data-centre={p.center || undefined}>
              <title>{text}</title>
              {p.center ? <circle className="rank-centre-ring" cx={cx} cy={cy} r={CELL * 0.47} /> : null}
              <circle cx={cx} cy={cy} r={CELL * 0.36} />
              <text x={cx} y={cy} dy="0.35em" textAnchor="middle" aria-hidden="true">
                {pointMark(p.result)}
              </text>
            </g>
          );
        })}
      </svg>
      {legend ? (
        <figcaption>
          <HeatMapLegend />
        </figcaption>
      ) : null}
    </figure>
  );
}
