// The monthly client report (issue 30): what a built report holds, and what the API answers about reports. Pure types
// and rules, shared by the builder (worker/client-reports), the shared page and PDF, the mail, and the web screens.
//
// Every figure comes from stored data (or, for Google, from the Performance API at build time) and is frozen in the
// report's payload when it is built: the page, the PDF and the mail show the same numbers. A section whose source has
// no data for the month is null (left out), never zeros; Google's section says why it is missing instead.
import type { PerformanceMonth } from "./gbp-performance";

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
    }
  /** No Google connection: the section's "connect Google" explainer. */
  | { status: "not_connected" }
  /** Google stopped accepting the connection: the client reconnects. */
  | { status: "token_refused" }
  /** Google did not answer (or is not set up): the section says the figures could not be fetched this month. */
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
  recipients: string[];
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
