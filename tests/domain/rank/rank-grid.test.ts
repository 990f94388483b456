// Tests the Local Search Grid's rules: the request schema, the points on the ground, the zoom, `ll` and the estimate.
import { describe, it, expect } from "vitest";
import { itReturns } from "../each";
import {
  GRID_RADIUS_MESSAGE,
  GRID_SIZE_MESSAGE,
  GridRequest,
  gridEstimateMicro,
  gridEstimateUsd,
  gridPoints,
  gridSizeAllowed,
  gridSpacingMiles,
  haversineMiles,
  searchesFor,
  serpLl,
  zoomFor,
} from "../../../worker/features/rank/rules/grid";
import { SEARCH_USD_PER_CALL } from "../../../worker/domain/metering";
import { RANK_BUSINESS_MESSAGE, RANK_KEYWORD_MESSAGE } from "../../../worker/features/rank/rules/metrics";

function firstError(input: unknown): string | undefined {
  const parsed = GridRequest.safeParse(input);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

describe("GridRequest", () => {
  it("accepts the user's own business and coerces form strings", () => {
    expect(GridRequest.parse({ own: true, keyword: " plumber ", size: "5", radiusMiles: "2.5" })).toEqual({ own: true, keyword: "plumber", size: 5, radiusMiles: 2.5 });
  });

  it("accepts a prospect", () => {
    expect(GridRequest.parse({ prospectId: "p1", keyword: "roofer", size: 13, radiusMiles: 25 }).prospectId).toBe("p1");
  });

  itReturns("refuses %o with a clear message", firstError, [
    [{ keyword: "x", size: 5, radiusMiles: 1 }, RANK_BUSINESS_MESSAGE],
    [{ own: true, prospectId: "p1", keyword: "x", size: 5, radiusMiles: 1 }, RANK_BUSINESS_MESSAGE],
    [{ own: true, keyword: "  ", size: 5, radiusMiles: 1 }, RANK_KEYWORD_MESSAGE],
    [{ own: true, size: 5, radiusMiles: 1 }, RANK_KEYWORD_MESSAGE],
    [{ own: true, keyword: "x", size: 4, radiusMiles: 1 }, GRID_SIZE_MESSAGE],
    [{ own: true, keyword: "x", size: 15, radiusMiles: 1 }, GRID_SIZE_MESSAGE],
    [{ own: true, keyword: "x", size: 1, radiusMiles: 1 }, GRID_SIZE_MESSAGE],
    [{ own: true, keyword: "x", size: "five", radiusMiles: 1 }, GRID_SIZE_MESSAGE],
    [{ own: true, keyword: "x", size: 5, radiusMiles: 0.4 }, GRID_RADIUS_MESSAGE],
    [{ own: true, keyword: "x", size: 5, radiusMiles: 25.1 }, GRID_RADIUS_MESSAGE],
    [{ own: true, keyword: "x", size: 5, radiusMiles: "far" }, GRID_RADIUS_MESSAGE],
  ]);

  it.each([
    [3, false, true],
    [9, false, true],
    [11, false, false],
    [13, false, false],
    [11, true, true],
    [13, true, true],
    [15, true, false],
    [4, true, false],
  ])("size %i for admin=%s is allowed: %s", (size, isAdmin, allowed) => {
    expect(gridSizeAllowed(size, isAdmin)).toBe(allowed);
  });
});

describe("gridPoints", () => {
  const centers = [
    { name: "the equator", lat: 0, lng: 10 },
    { name: "45° north", lat: 45, lng: -93.2 },
    { name: "60° north", lat: 60, lng: 24.9 },
    { name: "the southern hemisphere", lat: -33.87, lng: 151.21 },
    { name: "the antimeridian", lat: -17.7, lng: 179.99 },
  ];

  describe.each(centers)("at $name", (center) => {
    it.each([
      { size: 3, radius: 0.5 },
      { size: 5, radius: 2 },
      { size: 7, radius: 10 },
      { size: 13, radius: 25 },
    ])("a $size×$size grid of radius $radius mi lies on the ground", ({ size, radius }) => {
      const points = gridPoints(center, size, radius);
      const spacing = gridSpacingMiles(size, radius);
      const half = (size - 1) / 2;
      expect(points).toHaveLength(size * size);

      // The centre is the business's own location, exactly, and the only one marked.
      const mid = points.filter((p) => p.center);
      expect(mid).toEqual([{ lat: center.lat, lng: center.lng, row: half, col: half, center: true }]);

      for (const p of points) {
        const north = half - p.row;
        const east = p.col - half;
        // North–south offsets are exact along the meridian; east–west ones exact along the centre's parallel.
        expect(haversineMiles(center, { lat: p.lat, lng: center.lng })).toBeCloseTo(Math.abs(north) * spacing, 6);
        const alongRow = haversineMiles(center, { lat: center.lat, lng: p.lng });
        expect(Math.abs(alongRow - Math.abs(east) * spacing) / radius).toBeLessThan(1e-3);
        // Straight-line distance from the centre: the square's diagonal, within 1.5% up to 60° and 25 miles.
        const expected = Math.hypot(north, east) * spacing;
        expect(Math.abs(haversineMiles(center, p) - expected)).toBeLessThanOrEqual(expected * 0.015 + 1e-9);
        expect(p.lng).toBeGreaterThanOrEqual(-180);
        expect(p.lng).toBeLessThan(180);
      }

      // Symmetric about the centre in degrees: the point opposite is the mirror image (same offsets, reversed).
      const offset = (a: number, b: number) => ((((a - b + 180) % 360) + 360) % 360) - 180;
      for (const p of points) {
        const q = points.find((o) => o.row === size - 1 - p.row && o.col === size - 1 - p.col)!;
        expect(p.lat - center.lat).toBeCloseTo(center.lat - q.lat, 9);
        expect(offset(p.lng, center.lng)).toBeCloseTo(-offset(q.lng, center.lng), 9);
        // Mirrored east–west: same row, opposite column, same distance from the centre.
        const m = points.find((o) => o.row === p.row && o.col === size - 1 - p.col)!;
        expect(haversineMiles(center, p)).toBeCloseTo(haversineMiles(center, m), 6);
      }
    });
  });

  it("lays the rows from north to south and the columns from west to east", () => {
    const [nw, , ne, , , , sw] = gridPoints({ lat: 40, lng: -74 }, 3, 1);
    expect(nw!.lat).toBeGreaterThan(40);
    expect(nw!.lng).toBeLessThan(-74);
    expect(ne!.lng).toBeGreaterThan(-74);
    expect(sw!.lat).toBeLessThan(40);
  });

  it("wraps longitudes across the antimeridian", () => {
    const points = gridPoints({ lat: 0, lng: 179.99 }, 3, 5);
    expect(points[2]!.lng).toBeLessThan(-179.9);
    expect(haversineMiles(points[1]!, points[2]!)).toBeCloseTo(5, 3);
  });

  it.each([
    [{ lat: 0, lng: 0 }, 4, 1],
    [{ lat: 0, lng: 0 }, 1, 1],
    [{ lat: 0, lng: 0 }, 3, 0],
    [{ lat: 86, lng: 0 }, 3, 1],
    [{ lat: Number.NaN, lng: 0 }, 3, 1],
  ])("refuses centre %o, size %i, radius %d", (center, size, radius) => {
    expect(() => gridPoints(center, size, radius)).toThrow(RangeError);
  });
});

describe("zoomFor", () => {
  it.each([
    // spacing (mi), latitude, zoom: one map view (1024 px) is at least one cell wide.
    [25, 0, 11],
    [12.5, 0, 12],
    [25, 60, 10],
    [50, 0, 10], // clamped: a wider view would mix towns
    [1, 0, 16],
    [1, 45, 16],
    [1, 60, 15],
    [1, -60, 15],
    [0.5, 0, 17],
    [1 / 12, 0, 18], // 13×13 at 0.5 mi: clamped to 18
    [0, 0, 18],
  ])("spacing %d mi at latitude %d → zoom %i", (spacing, lat, zoom) => {
    expect(zoomFor(spacing, lat)).toBe(zoom);
  });

  it("never zooms out as the spacing shrinks", () => {
    let previous = 0;
    for (let spacing = 30; spacing > 0.05; spacing *= 0.8) {
      const zoom = zoomFor(spacing, 40);
      expect(zoom).toBeGreaterThanOrEqual(previous);
      previous = zoom;
    }
  });
});

describe("serpLl", () => {
  it.each([
    [{ lat: 40.7455096, lng: -74.0083012 }, 14, "@40.7455096,-74.0083012,14z"],
    [{ lat: 0, lng: 0 }, 10, "@0.0000000,0.0000000,10z"],
    [{ lat: -33.868820123, lng: 151.2092955 }, 18, "@-33.8688201,151.2092955,18z"],
  ])("%o at zoom %i → %s", (point, zoom, ll) => {
    expect(serpLl(point, zoom)).toBe(ll);
  });
});

describe("searches and estimate", () => {
  it.each([
    { size: 3, searches: 9, micro: 135_000, usd: 0.135 },
    { size: 5, searches: 25, micro: 375_000, usd: 0.375 },
    { size: 7, searches: 49, micro: 735_000, usd: 0.735 },
    { size: 9, searches: 81, micro: 1_215_000, usd: 1.215 },
    { size: 13, searches: 169, micro: 2_535_000, usd: 2.535 },
  ])("a $size×$size grid is $searches searches, $$usd at the meter's search price", ({ size, searches, micro, usd }) => {
    expect(SEARCH_USD_PER_CALL).toBe(0.015);
    expect(searchesFor(size)).toBe(searches);
    expect(gridEstimateMicro(size)).toBe(micro);
    expect(gridEstimateUsd(size)).toBe(usd);
  });
});
