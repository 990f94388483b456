// View tracking of shared reports: the beacon's shape, the event names, and who is not counted (pure rules).
import { z } from "zod";
import { REPORT_EVENT_NAMES, TRACKED_SECTIONS } from "./event-names";
import type { ReportStatus } from "./view";

export * from "./event-names";

/** "Read most of it": at least this share of the tracked sections seen in one visit. */
export const READ_MOST_SHARE = 0.6;
export const READ_MOST_SECTIONS = Math.ceil(TRACKED_SECTIONS.length * READ_MOST_SHARE);

/** True exactly when this visit's section count reaches the threshold (so one visit alerts once). */
export function readMostReached(sectionsThisVisit: number): boolean {
  return sectionsThisVisit === READ_MOST_SECTIONS;
}

/** Largest beacon body read, in bytes (a real one is under 150). */
export const MAX_BEACON_BYTES = 1024;

/**
 * One beacon. `visit` is the visit token the worker signed into the page: one visit counts each event
 * (and each section) once. `staff` is true when the browser belongs to a signed-in user of the app.
 */
export const ReportBeacon = z
  .object({
    event: z.enum(REPORT_EVENT_NAMES),
    section: z.enum(TRACKED_SECTIONS).optional(),
    /** The visit token the page was served with (worker/features/reports/visit-token.ts): `<visit id>.<expires>.<mac>`. */
    visit: z.string().regex(/^[A-Za-z0-9.-]{8,160}$/),
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


/** Events one visit may record (opened, every section, print, chat started: far fewer in a real read). */
export const BEACON_EVENTS_PER_VISIT = 30;

/**
 * The monthly client report's beacon (issue 30): only `opened`, with the page's visit token. `staff` is accepted and
 * ignored: the client is a user of the app too, so their browser carries the staff marker; the admin's own look is
 * the Preview (`?preview=1`), whose page carries no visit token.
 */
export const ClientReportBeacon = z.object({
  event: z.literal("opened"),
  visit: z.string().regex(/^[A-Za-z0-9.-]{8,160}$/),
  staff: z.boolean().optional(),
});
