// View tracking of shared reports: the beacon's shape, the event names, and who is not counted (pure rules).
import { z } from "zod";
import { REPORT_EVENT_NAMES, TRACKED_SECTIONS, type ReportEventName } from "./report-event-names";
import type { ReportStatus } from "./report-view";

export * from "./report-event-names";

/** Largest beacon body read, in bytes (a real one is under 150). */
export const MAX_BEACON_BYTES = 1024;

/**
 * One beacon. `visit` is a random id the page keeps in sessionStorage: one visit counts each event
 * (and each section) once. `staff` is true when the browser belongs to a signed-in user of the app.
 */
export const ReportBeacon = z
  .object({
    event: z.enum(REPORT_EVENT_NAMES),
    section: z.enum(TRACKED_SECTIONS).optional(),
    visit: z.string().regex(/^[A-Za-z0-9-]{8,64}$/),
    staff: z.boolean().optional(),
  })
  .refine((b) => (b.event === "section_viewed") === (b.section !== undefined), {
    message: "section is required for section_viewed and only for it",
    path: ["section"],
  });
export type ReportBeacon = z.infer<typeof ReportBeacon>;

/**
 * Link previewers and crawlers that fetch a pasted link (iMessage, WhatsApp, Slack, Facebook, email
 * scanners, search engines, headless tools). They never run the page's script, but a few do fetch
 * beacons or replay requests, so their user agents are refused here too.
 */
const PREVIEWER_PATTERN =
  /bot\b|bot\/|crawler|spider|slurp|facebookexternalhit|facebookcatalog|meta-externalagent|whatsapp|slack|skypeuripreview|discord|telegram|twitterbot|linkedinbot|pinterest|embedly|quora link preview|redditbot|applebot|bingpreview|google-inspectiontool|googleother|headlesschrome|lighthouse|chrome-lighthouse|vkshare|w3c_validator|outlook|microsoft office|ms-office|proofpoint|mimecast|barracuda|python-requests|curl\/|wget\/|go-http-client|okhttp|axios|node-fetch|undici/i;

export function isLinkPreviewer(userAgent: string | null | undefined): boolean {
  if (!userAgent || !userAgent.trim()) return true;
  return PREVIEWER_PATTERN.test(userAgent);
}

/** Beacons for a report that is not ready (nothing to read yet) are not counted. */
export function countsForStatus(status: ReportStatus): boolean {
  return status === "ready";
}

/** Rate limits of the public beacon endpoint: per client address, and per report. */
export const BEACONS_PER_IP_PER_MINUTE = 60;
export const BEACONS_PER_REPORT_PER_MINUTE = 300;

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
