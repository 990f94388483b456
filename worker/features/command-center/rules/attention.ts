// The attention queue's words and ranking (issue 41): what needs a person across every client, most urgent first.
// Pure: the web imports it.
import { z } from "zod";

/** What an item is about; the order is the queue's rank (most urgent first). */
export const ATTENTION_KINDS = [
  /** The profile lost its verification or was suspended (Verifications API). */
  "verification_lost",
  /** Google (or someone outside Porchlight) changed a field of the profile: accept or reject. */
  "google_updated",
  /** A 1–3 star review unanswered for more than 24 hours. */
  "low_review",
  /** The Google connection needs reconnecting. */
  "google_reconnect",
  /** A scheduled Google post failed or was rejected. */
  "post_failed",
  /** The latest grid's share of local voice fell 10 points or more (beyond a grid's noise). */
  "rank_fell",
  /** A tracked keyword left the map pack's top 3 at its latest check. */
  "keyword_left_top3",
  /** The latest citation scan found wrong details on one of the biggest sources. */
  "listing_wrong",
  /** AI assistants name the business less often (the intervals separate). */
  "ai_fell",
  /** The monthly report was not opened 7 days after it was sent. */
  "report_unopened",
  /** 90% of the monthly AI allowance is used. */
  "allowance_high",
] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

export const ATTENTION_STATUSES = ["open", "snoozed", "done", "closed"] as const;
export type AttentionStatus = (typeof ATTENTION_STATUSES)[number];

/** A 1–3 star review waits this long unanswered before it needs a person. */
export const LOW_REVIEW_WAIT_MS = 24 * 3600_000;
export const LOW_REVIEW_MAX_STARS = 3;

export const ATTENTION_KIND_LABELS: Record<AttentionKind, string> = {
  verification_lost: "Verification lost",
  google_updated: "Profile changed",
  low_review: "Low review unanswered",
  google_reconnect: "Reconnect Google",
  post_failed: "Post failed",
  rank_fell: "Map ranking fell",
  keyword_left_top3: "Keyword left the top 3",
  listing_wrong: "Wrong listings",
  ai_fell: "AI visibility fell",
  report_unopened: "Report not opened",
  allowance_high: "Allowance almost used",
};

/** What to do, as the item's action says it. */
export const ATTENTION_ACTION_LABELS: Record<AttentionKind, string> = {
  verification_lost: "What to do",
  google_updated: "Accept or reject",
  low_review: "Open the drafted reply",
  google_reconnect: "Reconnect",
  post_failed: "Open the post",
  rank_fell: "Look at the grid",
  keyword_left_top3: "Open the rank tracker",
  listing_wrong: "Fix the listings",
  ai_fell: "Look at the answers",
  report_unopened: "Open Client Reports",
  allowance_high: "Raise the allowance or talk to the client",
};

export function attentionRank(kind: AttentionKind): number {
  return ATTENTION_KINDS.indexOf(kind);
}

export const AttentionQuery = z.object({
  status: z.enum(["open", "snoozed", "done"]).optional(),
  userId: z.string().trim().min(1).max(100).optional(),
});

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: "Use a date like 2026-12-01" });

export const AttentionAction = z.discriminatedUnion("action", [
  z.object({ action: z.literal("done") }).strict(),
  z.object({ action: z.literal("snooze"), until: isoDate }).strict(),
  z.object({ action: z.literal("reopen") }).strict(),
]);
export type AttentionAction = z.infer<typeof AttentionAction>;

export const ATTENTION_WORDING = {
  empty: "Nothing needs you right now. New items appear here as they happen: low reviews, Google's edits, lost verifications, failed posts.",
  emptySnoozed: "No snoozed items.",
  emptyDone: "Nothing marked done yet.",
  loading: "Loading what needs attention...",
  failed: "Failed to load the attention queue: ",
  notFound: "Item not found",
  snoozePast: "Pick a date after today to snooze until.",
  closed: "This item closed itself: its cause is gone.",
} as const;

export const AttentionErrorCode = { closed: "attention_closed", snoozePast: "snooze_past" } as const;

/** One item as the queue shows it. */
export type AttentionItemView = {
  id: string;
  kind: AttentionKind;
  kindLabel: string;
  actionLabel: string;
  client: { userId: string; name: string; email: string };
  /** What happened, in words ("1-star review from Dana: “They never showed up.”"). */
  title: string;
  detail: string | null;
  /** When it happened. */
  happenedAt: string;
  status: AttentionStatus;
  snoozedUntil: string | null;
  /** Who marked it done or snoozed it (their email). */
  doneBy: string | null;
  doneAt: string | null;
  /** The screen that acts on it (scoped to the client), or, for a Google edit, the change to accept or reject inline. */
  link: string | null;
  changeId: string | null;
  /** A low review: its id and the drafted reply (publish it from the queue). */
  review: { id: string; draft: string | null; replyState: string | null } | null;
  /** A profile change: the field and both values in words (accept or reject from the queue). */
  change: { field: string; beforeText: string; afterText: string; source: string } | null;
};

export type AttentionResponse = { items: AttentionItemView[]; counts: { open: number; snoozed: number; done: number } };
