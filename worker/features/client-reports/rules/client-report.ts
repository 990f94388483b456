// The monthly client report (issue 30): what a built report holds, and what the API answers about reports. Pure types
// and rules, shared by the builder (worker/features/client-reports), the shared page and PDF, the mail, and the web screens.
//
// Every figure comes from stored data (or, for Google, from the Performance API at build time) and is frozen in the
// report's payload when it is built: the page, the PDF and the mail show the same numbers. A section whose source has
// no data for the month is null (left out), never zeros; Google's section says why it is missing instead.
import type { PerformanceMonth } from "./gbp-performance";
import { utcToZoned, zonedToUtc } from "../../../domain/time-zone";

export const CLIENT_REPORT_PAYLOAD_VERSION = 1;

/** A figure beside the month before: `previous` null when there is nothing to compare with. */
export interface Compared {
  current: number | null;
  previous: number | null;
  /** current − previous; null when either is null. */
  delta: number | null;
  /** Percentage change (one decimal); null when either is null or previous is 0. */
  percent: number | null;
}

/** One of the three figures at the top of the page and in the mail. `higherIsBetter` colours the change. */
export interface HeadlineFigure {
  key: string;
  label: string;
  value: string;
  change: string | null;
  direction: "up" | "down" | "flat" | null;
  higherIsBetter: boolean;
}

export type ReportGoogleSection =
  | {
      status: "ok";
      locationTitle: string;
      calls: Compared;
      websiteClicks: Compared;
      directions: Compared;
      /** Impressions on Search and Maps (mobile + desktop); null parts were not given by Google. */
      impressions: { search: Compared; maps: Compared; total: Compared };
      current: PerformanceMonth;
      previous: PerformanceMonth;
      /** Top search terms that found the profile this month (Google gives a count, or a "fewer than" threshold). */
      keywords: { keyword: string; impressions: number | null; threshold: number | null }[];
      /**
       * The parts Google did not give when the report was built: "figures" (calls, clicks, directions and views: their
       * figures are null) or "keywords" (the search terms). What did arrive is kept. Absent in reports built before.
       */
      unavailable?: ("figures" | "keywords")[];
    }
  /** Never connected (whether or not Google is set up on the app): the section's "connect Google" explainer. */
  | { status: "not_connected" }
  /** Google stopped accepting the connection: the client reconnects. */
  | { status: "token_refused" }
  /** Google answered neither part (or is not set up) for a connected client: the section says the figures could not be fetched this month. */
  | { status: "unavailable" };

/** One grid scan as the report draws it: a size × size grid of ranks (null = not in the top 20), row-major. */
export interface ReportGridMap {
  scanId: string;
  finishedAt: string;
  size: number;
  radiusMiles: number;
  ranks: (number | null)[];
  /** Share of Local Voice (0–100, one decimal) and average true rank position (one decimal). */
  solv: number;
  atrp: number;
}

export interface ReportGridSection {
  keyword: string;
  current: ReportGridMap;
  /** The same keyword's scan from the month before, when there is one. */
  previous: ReportGridMap | null;
}

export interface ReportTrackerSection {
  keywords: { keyword: string; mapRank: Compared; organicRank: Compared }[];
  /** Counts of keywords that moved up, down, or held (by map rank, then organic). */
  improved: number;
  declined: number;
  unchanged: number;
}

export interface ReportAiVisibilitySection {
  scanId: string;
  scannedAt: string;
  engines: string[];
  questions: number;
  answers: number;
  /** Overall mention rate with its 95% Wilson interval, 0–1. */
  mentionRate: number;
  low: number;
  high: number;
  shareOfVoice: number | null;
  /** The month before's scan, when there is one. */
  previous: { mentionRate: number; low: number; high: number } | null;
}

export interface ReportCitationsSection {
  scanId: string;
  scannedAt: string;
  checked: number;
  consistent: number;
  inconsistent: number;
  duplicate: number;
  notFound: number;
  /** consistent ÷ (sources where the business was found), 0–100, one decimal; null when found nowhere. */
  consistencyPercent: number | null;
  previousPercent: number | null;
}

export interface ReportReviewsSection {
  newReviews: Compared;
  /** Average stars of the month's new reviews (one decimal), and of all reviews to the month's end. */
  monthAverage: number | null;
  overallAverage: number | null;
  totalReviews: number;
  /** Replied ÷ new reviews in the month, 0–100; null when there were none. */
  replyRate: number | null;
  requestsSent: number;
}

export interface ReportPostsSection {
  published: Compared;
  items: { publishedAt: string; excerpt: string; url: string | null }[];
}

export interface ClientReportPayload {
  payloadVersion: typeof CLIENT_REPORT_PAYLOAD_VERSION;
  /** "YYYY-MM". */
  month: string;
  previousMonth: string;
  /** e.g. "October 2026". */
  monthLabel: string;
  timeZone: string;
  builtAt: string;
  business: { name: string; website: string | null; location: string | null; category: string | null };
  /** Up to three, the mail's headline figures too. */
  headline: HeadlineFigure[];
  summary: { text: string; source: "ai" | "template" };
  google: ReportGoogleSection;
  grid: ReportGridSection[] | null;
  tracker: ReportTrackerSection | null;
  aiVisibility: ReportAiVisibilitySection | null;
  citations: ReportCitationsSection | null;
  reviews: ReportReviewsSection | null;
  posts: ReportPostsSection | null;
  /** From our own records in the month: posts published, replies published, listings fixed, requests sent. */
  whatWeDid: { key: string; label: string; count: number }[];
  /** From the tools' fix lists: what comes next, each with the screen that does it. */
  whatsNext: { text: string; href: string }[];
}

export type ClientReportStatus = "queued" | "building" | "ready" | "failed";

/** A report in a list (admin's and the client's). Links are paths on the app's origin. */
export interface ClientReportSummary {
  id: string;
  userId: string;
  month: string;
  monthLabel: string;
  status: ClientReportStatus;
  version: number;
  trigger: "cron" | "admin" | "user";
  builtAt: string | null;
  sentAt: string | null;
  sentTo: string[];
  firstOpenedAt: string | null;
  views: number;
  /** `/shared/client-reports/:token` and its `.pdf`; null until built. */
  shareUrl: string | null;
  pdfUrl: string | null;
  /** Admins only: "template" with the reason when the AI summary was unavailable. */
  summarySource?: "ai" | "template" | null;
  summaryNote?: string | null;
  /** Admins only: why a build failed. */
  error?: string | null;
}

export interface ClientReportSettings {
  userId: string;
  enabled: boolean;
  /** The listed addresses (empty: the account's own). */
  recipients: string[];
  /** Listed addresses a user added that wait for their owner to confirm by the mailed link: they get nothing until then. */
  pending: string[];
  enabledBy: "admin" | "user" | null;
}

/** GET /api/client-reports as an admin: every business user, on or off, with their last report. */
export interface ClientReportClientRow {
  userId: string;
  email: string | null;
  businessName: string | null;
  timeZone: string;
  settings: ClientReportSettings;
  lastReport: ClientReportSummary | null;
  /** When the cron builds this client's next report (ISO, the 1st of next month in the business's time zone). */
  nextRunAt: string | null;
}

export type ClientReportListResponse =
  | { role: "admin"; clients: ClientReportClientRow[] }
  /** A user (or an admin with `?userId=`): that business's reports, newest month first, and its settings. */
  | { role: "user"; settings: ClientReportSettings; reports: ClientReportSummary[] };

/** GET /api/client-reports/:id. */
export interface ClientReportDetail {
  report: ClientReportSummary;
  payload: ClientReportPayload | null;
}

/** POST /api/client-reports `{userId, month?}`: the month defaults to the last whole month in the business's zone. */
export interface ClientReportBuildRequest {
  userId: string;
  month?: string;
}

/** PUT /api/client-reports/settings/:userId. At most 5 recipients. */
export interface ClientReportSettingsUpdate {
  enabled: boolean;
  recipients?: string[];
}

export const CLIENT_REPORT_MAX_RECIPIENTS = 5;

// ---- Rules the builder, the mail and the screens share (pure) ----

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "2026-10" → "October 2026". */
export function monthLabel(month: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  return m ? `${MONTH_NAMES[Number(m[2]) - 1]} ${m[1]}` : month;
}

/** The month after "YYYY-MM". */
export function nextMonth(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
}

/** The month before "YYYY-MM". */
export function previousMonthOf(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
}

/** The month ("YYYY-MM") an instant falls in, on the business's wall clock. */
export function monthAt(now: Date, timeZone: string): string {
  return utcToZoned(now, timeZone).date.slice(0, 7);
}

/** Whether it is the 1st of the month on the business's wall clock (the cron's day). */
export function isFirstOfMonth(now: Date, timeZone: string): boolean {
  return utcToZoned(now, timeZone).date.endsWith("-01");
}

/** The last whole month on the business's wall clock (the report's default month). */
export function lastWholeMonth(now: Date, timeZone: string): string {
  return previousMonthOf(monthAt(now, timeZone));
}

/** The UTC instants a month starts and ends at in the business's zone: `[start, end)` as ISO strings. */
export function monthRangeUtc(month: string, timeZone: string): { start: string; end: string } {
  const start = zonedToUtc(`${month}-01`, "00:00", timeZone);
  const end = zonedToUtc(`${nextMonth(month)}-01`, "00:00", timeZone);
  if (!start || !end) throw new RangeError(`not a month: ${month}`);
  return { start: start.toISOString(), end: end.toISOString() };
}

/** When the cron builds the next report: midnight starting the 1st of next month in the business's zone. */
export function nextRunAt(now: Date, timeZone: string): string {
  return monthRangeUtc(nextMonth(monthAt(now, timeZone)), timeZone).start;
}

/** A figure beside the month before. */
export function compared(current: number | null, previous: number | null): Compared {
  if (current === null || previous === null) return { current, previous, delta: null, percent: null };
  return { current, previous, delta: current - previous, percent: previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10 };
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

function directionOf(delta: number | null): HeadlineFigure["direction"] {
  if (delta === null) return null;
  return delta > 0 ? "up" : delta < 0 ? "down" : "flat";
}

function countFigure(key: string, label: string, c: Compared): HeadlineFigure {
  const change = c.delta === null ? null : c.percent !== null ? `${c.percent > 0 ? "+" : ""}${c.percent}% vs last month` : `${c.delta > 0 ? "+" : ""}${c.delta} vs last month`;
  return { key, label, value: String(c.current ?? 0), change, direction: directionOf(c.delta), higherIsBetter: true };
}

export type HeadlineInput = Pick<ClientReportPayload, "google" | "grid" | "tracker" | "aiVisibility" | "citations" | "reviews" | "posts">;

/**
 * The three figures at the top: chosen by what exists, in this order of interest to a business owner: calls from
 * Google, the map's Share of Local Voice, new reviews, AI mention rate, listings consistency, keywords improved,
 * posts published. A figure whose source is missing is skipped (never shown as 0).
 */
export function headlineFigures(p: HeadlineInput): HeadlineFigure[] {
  const out: HeadlineFigure[] = [];
  if (p.google.status === "ok" && p.google.calls.current !== null) out.push(countFigure("calls", "Calls from Google", p.google.calls));
  const grid = p.grid?.[0];
  if (grid) {
    const delta = grid.previous ? round1(grid.current.solv - grid.previous.solv) : null;
    out.push({
      key: "solv",
      label: `Share of Local Voice for "${grid.keyword}"`,
      value: `${grid.current.solv}%`,
      change: delta === null ? null : `${delta > 0 ? "+" : ""}${delta} points vs last month`,
      direction: directionOf(delta),
      higherIsBetter: true,
    });
  }
  if (p.reviews && p.reviews.newReviews.current !== null) out.push(countFigure("reviews", "New reviews", p.reviews.newReviews));
  if (p.aiVisibility) {
    const prev = p.aiVisibility.previous;
    const delta = prev ? Math.round((p.aiVisibility.mentionRate - prev.mentionRate) * 100) : null;
    out.push({
      key: "ai_mention_rate",
      label: "Named by AI assistants",
      value: `${Math.round(p.aiVisibility.mentionRate * 100)}%`,
      change: delta === null ? null : `${delta > 0 ? "+" : ""}${delta} points vs last month`,
      direction: directionOf(delta),
      higherIsBetter: true,
    });
  }
  if (p.citations && p.citations.consistencyPercent !== null) {
    const prev = p.citations.previousPercent;
    const delta = prev === null ? null : round1(p.citations.consistencyPercent - prev);
    out.push({
      key: "citations",
      label: "Listings consistent",
      value: `${p.citations.consistencyPercent}%`,
      change: delta === null ? null : `${delta > 0 ? "+" : ""}${delta} points vs last month`,
      direction: directionOf(delta),
      higherIsBetter: true,
    });
  }
  if (p.tracker && p.tracker.keywords.length > 0) {
    out.push({ key: "keywords_improved", label: "Keywords that moved up", value: `${p.tracker.improved} of ${p.tracker.keywords.length}`, change: null, direction: null, higherIsBetter: true });
  }
  if (p.posts && p.posts.published.current !== null) out.push(countFigure("posts", "Google posts published", p.posts.published));
  return out.slice(0, 3);
}

/** The figures the AI summary may use (and nothing else): one line each. */
export function summaryFacts(p: Omit<ClientReportPayload, "summary" | "headline"> & { headline: HeadlineFigure[] }): string[] {
  const facts: string[] = [];
  for (const h of p.headline) facts.push(`${h.label}: ${h.value}${h.change ? ` (${h.change})` : ""}`);
  if (p.google.status === "ok") {
    const g = p.google;
    if (g.websiteClicks.current !== null) facts.push(`Website clicks from Google: ${g.websiteClicks.current} (month before: ${g.websiteClicks.previous ?? "not given"})`);
    if (g.directions.current !== null) facts.push(`Direction requests: ${g.directions.current} (month before: ${g.directions.previous ?? "not given"})`);
    if (g.impressions.total.current !== null) facts.push(`Times the profile was shown on Search and Maps: ${g.impressions.total.current}`);
  }
  if (p.reviews) {
    if (p.reviews.monthAverage !== null) facts.push(`Average rating of the month's new reviews: ${p.reviews.monthAverage}`);
    if (p.reviews.replyRate !== null) facts.push(`Reviews replied to: ${p.reviews.replyRate}%`);
  }
  if (p.tracker) facts.push(`Tracked keywords: ${p.tracker.improved} moved up, ${p.tracker.declined} moved down, ${p.tracker.unchanged} held`);
  for (const w of p.whatWeDid) if (w.count > 0) facts.push(`${w.label}: ${w.count}`);
  return facts;
}

/** The summary when AI is unavailable: built from the same figures, nothing added. */
export function templateSummary(p: Pick<ClientReportPayload, "business" | "monthLabel" | "headline" | "whatWeDid">): string {
  const name = p.business.name;
  if (p.headline.length === 0) return `Here is ${name}'s report for ${p.monthLabel}. Not enough was measured this month to compare figures yet; the sections below show what we have.`;
  const parts = p.headline.map((h) => `${h.label.charAt(0).toLowerCase()}${h.label.slice(1)} ${h.value}${h.change ? ` (${h.change})` : ""}`);
  const did = p.whatWeDid.filter((w) => w.count > 0).map((w) => `${w.count} ${w.label.toLowerCase()}`);
  return `In ${p.monthLabel}, ${name}'s figures were: ${parts.join("; ")}.${did.length ? ` This month we worked on: ${did.join(", ")}.` : ""}`;
}

/** The report's shared page and its PDF, as paths on the app's origin. */
export function clientReportPaths(shareToken: string): { shareUrl: string; pdfUrl: string } {
  return { shareUrl: `/shared/client-reports/${shareToken}`, pdfUrl: `/shared/client-reports/${shareToken}.pdf` };
}

/** The mail's lead: the month, the business and the three headline figures. */
export function reportMailDetail(p: Pick<ClientReportPayload, "business" | "monthLabel" | "headline">): string {
  return `${p.business.name}'s results for ${p.monthLabel} are ready${p.headline.length ? ": the month's headline figures are below" : ""}.`;
}
