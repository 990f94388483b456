// The GMB Post Scheduler and the Google Business Profile connection (issue 20): request schemas shared by the routes
// and the web forms, the answers' shapes, state labels and Google's refusals in plain words.
import { z } from "zod";
import { GmbPost } from "../../../platform/providers/rules/gmb-post";
import { validTimeZone } from "../../../domain/time-zone";

export const SCHEDULE_STATES = ["scheduled", "publishing", "processing", "live", "rejected", "failed", "reminded"] as const;
export type ScheduleState = (typeof SCHEDULE_STATES)[number];

export const SCHEDULE_STATE_LABELS: Record<ScheduleState, string> = {
  scheduled: "Scheduled",
  publishing: "Publishing",
  processing: "Google is reviewing",
  live: "Live",
  rejected: "Rejected",
  failed: "Failed",
  reminded: "Due — copy and post it",
};

/** How far in the past a time may be and still be accepted ("now", give or take a slow form). */
export const SCHEDULE_PAST_GRACE_MS = 5 * 60_000;
/** How far ahead a post may be placed. */
export const SCHEDULE_MAX_AHEAD_DAYS = 366;


const TimeZone = z.string().trim().min(1).max(64).refine(validTimeZone, { message: "Unknown time zone" });
/** ISO 8601 with a zone (the browser sends UTC from the date and time the person picked). */
const Instant = z.iso.datetime({ offset: true, message: "Pick a date and time" });
const LocationName = z
  .string()
  .regex(/^accounts\/[^/]+\/locations\/[^/]+$/, { message: "Pick one of your Google locations" })
  .nullable();

export const ScheduleRequest = z.object({
  post: GmbPost,
  scheduledAt: Instant,
  timezone: TimeZone,
  /** Null or absent: no connection, the post becomes a reminder when due. */
  locationName: LocationName.optional(),
  /** The GMB Post Generator's history item it came from. */
  contentId: z.string().trim().min(1).max(100).nullable().optional(),
});
export type ScheduleRequest = z.infer<typeof ScheduleRequest>;

export const SchedulePatch = z
  .object({
    post: GmbPost.optional(),
    scheduledAt: Instant.optional(),
    timezone: TimeZone.optional(),
    locationName: LocationName.optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: "Nothing to change" });
export type SchedulePatch = z.infer<typeof SchedulePatch>;

/** The time must be now or later (with a short grace) and within a year; returns the problem or null. */
export function scheduleTimeProblem(scheduledAt: string, now = Date.now()): string | null {
  const t = Date.parse(scheduledAt);
  if (Number.isNaN(t)) return "Pick a date and time";
  if (t < now - SCHEDULE_PAST_GRACE_MS) return "That time has passed: pick a time from now on";
  if (t > now + SCHEDULE_MAX_AHEAD_DAYS * 86_400_000) return "Pick a time within the next year";
  return null;
}

export interface GbpLocationJson {
  name: string;
  title: string;
  address: string;
  canOperateLocalPost: boolean;
  /** Google's place id of the location (absent on connections made before it was kept: connecting again adds it). */
  placeId?: string | null;
}

export type GbpConnectionStatus = "not_configured" | "not_connected" | "choosing" | "connected" | "needs_reconnect";

export interface IntegrationsResponse {
  google: {
    status: GbpConnectionStatus;
    /** False when ENCRYPTION_KEY is missing in production: connecting would fail, the page says so. */
    canConnect: boolean;
    locations: GbpLocationJson[];
    available: GbpLocationJson[];
    lastSyncAt: string | null;
    error: { code: string; message: string } | null;
  };
}

export const ChooseLocationsRequest = z.object({
  locations: z.array(z.string().regex(/^accounts\/[^/]+\/locations\/[^/]+$/)).min(1, { message: "Pick at least one location" }).max(50),
});

export interface ScheduledPostJson {
  id: string;
  post: GmbPost;
  scheduledAt: string;
  timezone: string;
  locationName: string | null;
  locationTitle: string | null;
  contentId: string | null;
  state: ScheduleState;
  reason: string | null;
  googlePostName: string | null;
  googleSearchUrl: string | null;
  publishedAt: string | null;
  createdAt: string;
}

export interface ScheduleListResponse {
  posts: ScheduledPostJson[];
  /** Whether a due post will be published (a connected Google Business Profile) or reminded. */
  publishing: boolean;
}

/** States a person may still change (reschedule, edit, delete before it leaves). */
export function editableState(state: ScheduleState): boolean {
  return state === "scheduled" || state === "reminded" || state === "failed";
}

/** Google's refusals of the connection in plain words (what the Integrations page shows). */
export const GOOGLE_ERROR_MESSAGES: Record<string, string> = {
  api_not_enabled:
    "Google says its Business Profile APIs are not switched on for this app yet, so nothing was connected. Ask your agency to switch them on (the admin Set-up page lists how), then connect again.",
  not_approved:
    "Google has not approved this app for its Business Profile APIs yet, so posts cannot be published. Ask your agency; once Google approves, connect again.",
  token_refused: "Google no longer accepts this connection (access was removed or expired). Reconnect Google Business Profile to keep publishing.",
  refused: "Google refused the request.",
  unavailable: "Google did not answer. Try again in a few minutes.",
  access_denied: "You cancelled at Google, so nothing was connected.",
  state_mismatch: "That sign-in link expired or was not started here. Start connecting again.",
  other_browser: "That Google sign-in was started in another browser, so nothing was connected. If you started it, connect again from this page in this browser; if someone sent you the link, ignore it.",
  no_locations: "Google lists no locations for this account where posts are allowed. Check that the account manages a verified Business Profile.",
};

export const GOOGLE_NOT_CONFIGURED_MESSAGE =
  "Connecting Google Business Profile isn't available yet; your agency has been told. Until it is, the scheduler reminds you to post instead of publishing.";
