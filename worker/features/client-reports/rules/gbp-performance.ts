// Google Business Profile performance for the monthly client report (issue 30): a month's totals per metric from the
// Performance API's daily series, the month before beside it, and the change. Pure rules, shared with the web.

/** A calendar month as "YYYY-MM". */
export type Month = `${number}-${number}`;

export const MONTH_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The month's first and last day, and the month before. */
export function monthBounds(month: string): { start: { year: number; month: number; day: number }; end: { year: number; month: number; day: number }; previous: string } {
  const m = MONTH_RE.exec(month);
  if (!m) throw new RangeError(`not a month: ${month}`);
  const year = Number(m[1]);
  const mon = Number(m[2]);
  const last = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  const prev = mon === 1 ? `${year - 1}-12` : `${year}-${String(mon - 1).padStart(2, "0")}`;
  return { start: { year, month: mon, day: 1 }, end: { year, month: mon, day: last }, previous: prev };
}

/** What the report shows of a month; null where Google gave no series for the metric (shown as "not given", never 0). */
export interface PerformanceMonth {
  month: string;
  calls: number | null;
  websiteClicks: number | null;
  directions: number | null;
  conversations: number | null;
  impressions: { searchMobile: number | null; searchDesktop: number | null; mapsMobile: number | null; mapsDesktop: number | null; search: number | null; maps: number | null; total: number | null };
}

const sum = (values: (number | null)[]): number | null => (values.some((v) => v === null) ? null : values.reduce<number>((a, b) => a + (b ?? 0), 0));

/** Totals of one month from daily series keyed by metric, then "YYYY-MM-DD". Days outside the month are ignored. */
export function performanceMonth(series: ReadonlyMap<string, ReadonlyMap<string, number>>, month: string): PerformanceMonth {
  monthBounds(month);
  const total = (metric: string): number | null => {
    const days = series.get(metric);
    if (!days) return null;
    let n = 0;
    for (const [day, value] of days) if (day.startsWith(`${month}-`)) n += value;
    return n;
  };
  const searchMobile = total("BUSINESS_IMPRESSIONS_MOBILE_SEARCH");
  const searchDesktop = total("BUSINESS_IMPRESSIONS_DESKTOP_SEARCH");
  const mapsMobile = total("BUSINESS_IMPRESSIONS_MOBILE_MAPS");
  const mapsDesktop = total("BUSINESS_IMPRESSIONS_DESKTOP_MAPS");
  const search = sum([searchMobile, searchDesktop]);
  const maps = sum([mapsMobile, mapsDesktop]);
  return {
    month,
    calls: total("CALL_CLICKS"),
    websiteClicks: total("WEBSITE_CLICKS"),
    directions: total("BUSINESS_DIRECTION_REQUESTS"),
    conversations: total("BUSINESS_CONVERSATIONS"),
    impressions: { searchMobile, searchDesktop, mapsMobile, mapsDesktop, search, maps, total: sum([search, maps]) },
  };
}

/** The change from one month to the next: the difference and the percentage (null when either is missing, or from 0). */
export function change(current: number | null, previous: number | null): { delta: number | null; percent: number | null } {
  if (current === null || previous === null) return { delta: null, percent: null };
  return { delta: current - previous, percent: previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10 };
}
