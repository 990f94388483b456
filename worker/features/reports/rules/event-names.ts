// Names shared by the shared page's script and the beacon endpoint, without zod (the page's script stays small).
export const REPORT_EVENT_NAMES = ["opened", "section_viewed", "print", "chat_started"] as const;
export type ReportEventName = (typeof REPORT_EVENT_NAMES)[number];

/** The section ids the shared page can report (web/features/reports/report-sections.tsx SECTION_IDS). */
export const TRACKED_SECTIONS = [
  "seo-potential",
  "google-ads",
  "meta-tags",
  "business-description",
  "gmb-articles",
  "blog-structures",
  "facebook-posts",
] as const;

/**
 * localStorage key the SPA sets to "1" once anyone signs in on this browser (web/lib/auth.ts): the
 * shared page's script then sends staff: true and the view is not counted. It stays after sign-out:
 * the browser still belongs to the agency. A prospect could only use it to hide their own views.
 */
export const STAFF_MARKER_KEY = "porchlight.staff";

export const REPORT_EVENTS_PATH = (id: string) => `/api/shared/reports/${encodeURIComponent(id)}/events`;


/** What the admin screens show for one report. */
export type ReportViewStats = {
  opens: number;
  last_opened_at: string | null;
};

export type ReportTimelineEntry = { event: ReportEventName; section: string | null; at: string; visit: string };

export type ReportTimelineResponse = {
  stats: ReportViewStats & { first_opened_at: string | null; visits: number; chat_started: number; prints: number };
  /** Sections read at least once, with how many visits read each. */
  sections: { section: string; visits: number }[];
  /** Latest events first. */
  events: ReportTimelineEntry[];
};

/** 'Opened {n}× · last {time ago}' (issue 10). */
export function openedLabel(stats: ReportViewStats, now = Date.now()): string | null {
  if (!stats.opens || !stats.last_opened_at) return null;
  return `Opened ${stats.opens}× · last ${timeAgo(stats.last_opened_at, now)}`;
}

export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds)) return "";
  if (seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 30) return `${days} ${days === 1 ? "day" : "days"} ago`;
  const months = Math.round(days / 30);
  return months < 12 ? `${months} mo ago` : `${Math.round(months / 12)} y ago`;
}

/** The monthly client report's view beacon (issue 30): one `opened` per visit, signed like the shared report's. */
export const CLIENT_REPORT_EVENTS_PATH = (token: string) => `/api/shared/client-reports/${encodeURIComponent(token)}/events`;
