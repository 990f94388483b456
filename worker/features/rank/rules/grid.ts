// The Local Search Grid's pure rules (issue 19): what a grid request may ask for, where its points lie on the ground,
// the map zoom and SerpAPI `ll` each point is searched with, and how many searches (and dollars) a grid costs.
import { z } from "zod";
import { estimateMicro, fromMicro } from "../../../domain/metering";
import { ONE_RANK_BUSINESS, RankTargetFields, oneRankBusiness } from "./metrics";

/** Grid sizes anyone may run (points per side). */
export const GRID_SIZES = [3, 5, 7, 9] as const;
/** Admins may also run these (a 13×13 grid is 169 searches). */
export const ADMIN_GRID_SIZES = [3, 5, 7, 9, 11, 13] as const;
export const GRID_RADIUS_MIN_MILES = 0.5;
export const GRID_RADIUS_MAX_MILES = 25;

export const GRID_SIZE_MESSAGE = "Choose a grid size of 3×3, 5×5, 7×7 or 9×9.";
export const GRID_SIZE_ADMIN_MESSAGE = "Grids larger than 9×9 (up to 13×13) are for admins only.";
export const GRID_RADIUS_MESSAGE = `Choose a radius between ${GRID_RADIUS_MIN_MILES} and ${GRID_RADIUS_MAX_MILES} miles.`;

/**
 * POST /api/rank/grids and the grid form. The business is the user's own (`own: true`) or a prospect
 * (`prospectId`, admins only: the route checks that). Sizes up to 13 pass the schema; `gridSizeAllowed`
 * says whether this caller may run one.
 */
export const GridRequest = z
  .object({
    ...RankTargetFields,
    size: z.coerce
      .number({ error: GRID_SIZE_MESSAGE })
      .int(GRID_SIZE_MESSAGE)
      .refine((n) => (ADMIN_GRID_SIZES as readonly number[]).includes(n), GRID_SIZE_MESSAGE),
    radiusMiles: z.coerce.number({ error: GRID_RADIUS_MESSAGE }).min(GRID_RADIUS_MIN_MILES, GRID_RADIUS_MESSAGE).max(GRID_RADIUS_MAX_MILES, GRID_RADIUS_MESSAGE),
  })
  .refine(oneRankBusiness, ONE_RANK_BUSINESS);
export type GridRequest = z.infer<typeof GridRequest>;

/** Whether this caller may run a grid of this size: admins up to 13×13, everyone else up to 9×9. */
export function gridSizeAllowed(size: number, isAdmin: boolean): boolean {
  return ((isAdmin ? ADMIN_GRID_SIZES : GRID_SIZES) as readonly number[]).includes(size);
}

export type LatLng = { lat: number; lng: number };

export type GridPoint = LatLng & {
  /** 0 at the top (north) row. */
  row: number;
  /** 0 at the left (west) column. */
  col: number;
  /** The business's own location. */
  center: boolean;
};

/**
 * The Earth as a sphere of the IUGG mean radius. The grid is a square on the ground converted to degrees at the
 * centre's latitude (the rule): a degree of latitude is R·π/180 miles, a degree of longitude that times
 * cos(latitude). The sphere's error against WGS84 (< 0.6%) is well below what a map pack can tell apart.
 */
export const EARTH_RADIUS_MILES = 3958.7613;
const MILES_PER_DEGREE = (EARTH_RADIUS_MILES * Math.PI) / 180;
/** Web Mercator (and so Google Maps) stops here; a grid nearer the poles is refused. */
export const MAX_GRID_LATITUDE = 85;

/** Miles between neighbouring points: the square is 2·radius wide. */
export function gridSpacingMiles(size: number, radiusMiles: number): number {
  return (2 * radiusMiles) / (size - 1);
}

function wrapLongitude(lng: number): number {
  return ((((lng + 180) % 360) + 360) % 360) - 180;
}

/** The grid's points, row by row from the north-west corner; the middle point is the centre itself, exactly. */
export function gridPoints(center: LatLng, size: number, radiusMiles: number): GridPoint[] {
  if (!Number.isInteger(size) || size < 3 || size % 2 === 0) throw new RangeError(`grid size must be an odd integer ≥ 3, got ${size}`);
  if (!(radiusMiles > 0)) throw new RangeError(`radius must be positive, got ${radiusMiles}`);
  if (!(Math.abs(center.lat) <= MAX_GRID_LATITUDE) || !Number.isFinite(center.lng)) throw new RangeError("centre outside the mapped latitudes");
  const spacing = gridSpacingMiles(size, radiusMiles);
  const half = (size - 1) / 2;
  const degLat = spacing / MILES_PER_DEGREE;
  const degLng = spacing / (MILES_PER_DEGREE * Math.cos((center.lat * Math.PI) / 180));
  const points: GridPoint[] = [];
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const north = half - row;
      const east = col - half;
      const isCenter = north === 0 && east === 0;
      points.push({
        lat: isCenter ? center.lat : center.lat + north * degLat,
        lng: isCenter ? center.lng : wrapLongitude(center.lng + east * degLng),
        row,
        col,
        center: isCenter,
      });
    }
  }
  return points;
}

/** Great-circle distance in miles on the same sphere. */
export function haversineMiles(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Google Maps (Web Mercator) ground resolution at zoom 0 on the equator, metres per pixel. */
const METERS_PER_PIXEL_Z0 = 156_543.03392;
const METERS_PER_MILE = 1609.344;
/** The width, in pixels, we take a map view to be (a desktop Maps window). */
export const MAP_VIEW_PX = 1024;
export const MIN_GRID_ZOOM = 10;
export const MAX_GRID_ZOOM = 18;

/**
 * The zoom at which one map view is at least one cell wide, so each point's search sees its own cell and its
 * neighbours' edges: the largest whole zoom whose view width (MAP_VIEW_PX at this latitude's resolution) is
 * ≥ the spacing, clamped to 10–18 (wider views mix towns; closer ones find nothing for sparse keywords).
 */
export function zoomFor(spacingMiles: number, lat: number): number {
  const metersPerPixelZ0 = METERS_PER_PIXEL_Z0 * Math.cos((lat * Math.PI) / 180);
  const zoom = Math.floor(Math.log2((metersPerPixelZ0 * MAP_VIEW_PX) / (spacingMiles * METERS_PER_MILE)));
  if (!Number.isFinite(zoom)) return MAX_GRID_ZOOM;
  return Math.min(MAX_GRID_ZOOM, Math.max(MIN_GRID_ZOOM, zoom));
}

/** SerpAPI google_maps `ll`: `@lat,lng,{zoom}z`, seven decimals (about a centimetre). */
export function serpLl(point: LatLng, zoom: number): string {
  return `@${point.lat.toFixed(7)},${point.lng.toFixed(7)},${zoom}z`;
}

/** One map search per point. */
export function searchesFor(size: number): number {
  return size * size;
}

/** The meter's estimate for a grid, in millionths of a dollar: N searches at the meter's search price. */
export function gridEstimateMicro(size: number): number {
  return searchesFor(size) * estimateMicro({ kind: "search" });
}

export function gridEstimateUsd(size: number): number {
  return fromMicro(gridEstimateMicro(size));
}
