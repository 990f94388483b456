// Names shared by the shared page's script and the beacon endpoint, without zod (the page's script stays small).
export const REPORT_EVENT_NAMES = ["opened", "section_viewed", "print", "chat_started"] as const;
export type ReportEventName = (typeof REPORT_EVENT_NAMES)[number];

/** The section ids the shared page can report (web/components/report-sections.tsx SECTION_IDS). */
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

