// The guard's words and shapes (issue 41): the statuses its rows move through, what the screens read, and the wording
// the owner and the agency see. Pure: the web imports it.
import { z } from "zod";
import type { GuardedField, VoiceOfMerchantAction } from "../../../platform/providers/rules/gbp-location";
import type { EditRisk } from "./risk";

export { GUARDED_FIELDS, GUARDED_FIELD_LABELS, type GuardedField } from "../../../platform/providers/rules/gbp-location";

export const GUARD_CHECK_STATUSES = ["idle", "queued", "checking", "checked", "failed"] as const;
export type GuardCheckStatus = (typeof GUARD_CHECK_STATUSES)[number];
export const GUARD_CHANGE_SOURCES = ["google", "outside"] as const;
export type GuardChangeSource = (typeof GUARD_CHANGE_SOURCES)[number];
export const GUARD_CHANGE_STATUSES = ["open", "accepting", "rejecting", "accepted", "rejected", "gone"] as const;
export type GuardChangeStatus = (typeof GUARD_CHANGE_STATUSES)[number];

/** How many locations one gbp-guard message carries (each costs three Google calls; a Worker keeps 6 connections). */
export const GUARD_LOCATIONS_PER_MESSAGE = 2;
/** A check claimed this long ago and not finished is sent again by the cron. */
export const GUARD_STALE_CLAIM_MS = 15 * 60_000;
/** A location is checked at most this many times in a night before it shows "could not be checked". */
export const GUARD_MAX_ATTEMPTS = 4;

export const GUARD_SOURCE_TEXT: Record<GuardChangeSource, string> = {
  google: "Google changed it",
  outside: "Changed outside Porchlight",
};

export const GUARD_STATUS_TEXT: Record<GuardChangeStatus, string> = {
  open: "Waiting for a decision",
  accepting: "Accepting…",
  rejecting: "Rejecting…",
  accepted: "Accepted",
  rejected: "Rejected",
  gone: "Google no longer shows it",
};

/** What the owner must do, by the Verifications API's answer. */
export const VOICE_ACTION_TEXT: Record<VoiceOfMerchantAction, string> = {
  none: "Verified: your edits go live on Google.",
  wait: "Google is processing the verification. Nothing to do but wait; edits go live once it finishes.",
  verify: "Not verified: your edits do not go live. Verify the profile in Google Business Profile (a code by phone, text, mail or video).",
  resolve_ownership_conflict: "Someone else has verified this business. Request access to the profile in Google Business Profile to get it back.",
  comply_with_guidelines: "Google has suspended this profile. Fix what breaks Google's guidelines, then ask for reinstatement in Google Business Profile.",
};

/** Google's suspension reasons in plain words. */
export const VOICE_REASON_TEXT: Record<string, string> = {
  BUSINESS_LOCATION_SUSPENDED: "Google suspended the profile for not following its guidelines.",
  BUSINESS_LOCATION_DISABLED: "Google disabled the profile.",
};

/** What to do about a location's verification, in words: Google's reason first when it adds to the action's text. */
export function voiceText(action: VoiceOfMerchantAction | null | undefined, reason: string | null): string {
  const todo = VOICE_ACTION_TEXT[action ?? "verify"] ?? VOICE_ACTION_TEXT.verify;
  if (!reason || action === "none" || reason === "BUSINESS_LOCATION_SUSPENDED") return todo;
  return `${VOICE_REASON_TEXT[reason] ?? reason} ${todo}`;
}

export const GUARD_WORDING = {
  notConnected: "Connect Google Business Profile to watch your profile for changes.",
  neverChecked: "Not checked yet: the guard checks every connected profile each night.",
  couldNotCheck: "Could not be checked",
  noChanges: "No changes: your profile shows what you set.",
  changeNotFound: "Change not found",
  alreadyResolved: "This change was already decided.",
  checkQueued: "Checking your profile now. Changes show here in a minute.",
  googleRefused: "Google refused the change",
  locationNotFound: "That location is not watched by the profile guard. Choose it on Integrations first.",
  edited: "Sent to Google. Google may review the edit before it shows on the profile.",
} as const;

/** The stable codes of the guard's refusals. */
export const GuardErrorCode = { changeResolved: "change_resolved", risky: "edit_risky", googleRefused: "google_refused", notConnected: "gbp_not_connected" } as const;

/** Accept or reject: `confirmRisks` sends a value the risk check warned about anyway. */
export const GuardDecision = z.object({ confirmRisks: z.boolean().optional() }).strict();
export type GuardDecision = z.infer<typeof GuardDecision>;

/** One change as the screens show it: each side's value in words, and the risks of sending the value a decision would send. */
export type GuardChangeView = {
  id: string;
  locationName: string;
  locationTitle: string;
  field: GuardedField;
  label: string;
  source: GuardChangeSource;
  sourceText: string;
  /** The owner's value (Google edit) or the value before (outside change), in words ("" shows as "(none)"). */
  beforeText: string;
  /** Google's value, or the new value. */
  afterText: string;
  status: GuardChangeStatus;
  statusText: string;
  detectedAt: string;
  resolvedAt: string | null;
  error: string | null;
  /** The risks of Reject (sending `before`) and of Accept for a Google edit (Google's value made the owner's). */
  rejectRisks: EditRisk[];
  acceptRisks: EditRisk[];
};

export type GuardLocationView = {
  locationName: string;
  title: string;
  status: GuardCheckStatus;
  lastCheckedAt: string | null;
  /** Plain words: "could not be checked" with why, never shown as "no changes". */
  checkText: string;
  verified: boolean | null;
  voiceAction: VoiceOfMerchantAction | null;
  voiceText: string | null;
};

export type GuardResponse = {
  connection: "none" | "connected" | "needs_reconnect";
  business: { userId: string; name: string };
  locations: GuardLocationView[];
  open: GuardChangeView[];
  recent: GuardChangeView[];
  notice: string | null;
};
