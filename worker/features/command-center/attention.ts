// The attention queue (issue 41): what needs a person across every client. Items come from the other capabilities'
// events (the guard's findings) and from the cron's sweep over their tables (low reviews waiting, connections to
// renew, failed posts); each is made once per client, kind and subject, closes itself when its cause is gone, and is
// announced to the agency (the bell, the alert digest, webhook `attention.created`).
import { getDb, type Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import type { Events } from "../../platform/events";
import { emitAgencyEvent } from "../../platform/notifications/emit";
import { addItems, closeItems, closeItemsLike, listItems, countItems, sweepFinds, type AttentionRow, type ListedItem } from "./queries";
import {
  ATTENTION_ACTION_LABELS,
  ATTENTION_KIND_LABELS,
  attentionRank,
  LOW_REVIEW_WAIT_MS,
  type AttentionItemView,
  type AttentionKind,
  type AttentionResponse,
} from "./rules/attention";
import { attentionTitle } from "./rules/titles";
import { REPORT_UNOPENED_MS } from "./rules/health";
import { refreshHealth } from "./clients";
import { voiceText } from "../gbp-guard/rules/guard";
import type { VoiceOfMerchantAction } from "../../platform/providers/rules/gbp-location";

/** Failed posts older than this are not brought up (a post that failed months ago needs no one today). */
const POSTS_LOOKBACK_MS = 14 * 24 * 3600_000;
/** Items a list shows: the most urgent first (the tabs count them all). */
const LIST_LIMIT = 100;

/** Tells the agency about items made now: one alert each (the bell, mail as their settings say) and the webhook. */
async function announceItems(env: Env, rows: AttentionRow[]) {
  for (const row of rows) {
    const data = JSON.parse(row.data) as Record<string, unknown>;
    await emitAgencyEvent(env, {
      alert: "attention_new",
      webhook: "attention.created",
      at: row.happenedAt,
      dedupeKey: `attention:${row.id}`,
      data: { item_id: row.id, user_id: row.userId, kind: row.kind, title: attentionTitle(row.kind as AttentionKind, data) },
    });
  }
}

/** The cron's part: low reviews waiting more than 24 hours, connections to renew, failed posts; closed what is gone. */
export async function sweepAttention(env: Env, now = new Date()) {
  const db = getDb(env);
  const { made, closedFor } = await sweepFinds(db, {
    now: now.toISOString(),
    lowReviewCut: new Date(now.getTime() - LOW_REVIEW_WAIT_MS).toISOString(),
    postsSince: new Date(now.getTime() - POSTS_LOOKBACK_MS).toISOString(),
    reportCut: new Date(now.getTime() - REPORT_UNOPENED_MS).toISOString(),
  });
  await announceItems(env, made);
  await refreshHealth(db, [...made.map((r) => r.userId), ...closedFor]);
  return { made: made.length };
}

/** The guard's reactions: a change to decide is an item; decided or gone, it closes; verification lost or back. */
export const attentionReactions = {
  "gbp.changes-found": async ({ env, db, userId, changes }: Events["gbp.changes-found"]) => {
    const rows = await addItems(
      db,
      changes.map((c) => ({ userId, kind: "google_updated" as const, subject: c.id, happenedAt: c.detectedAt, data: { ...c, changeId: c.id } })),
    );
    await announceItems(env, rows);
    await refreshHealth(db, [userId]);
  },
  "review.answered": async ({ db, reviewIds }: Events["review.answered"]) => {
    await refreshHealth(db, await closeItems(db, "low_review", reviewIds, new Date().toISOString()));
  },
  "gbp.changes-resolved": async ({ db, changeIds }: Events["gbp.changes-resolved"]) => {
    await refreshHealth(db, await closeItems(db, "google_updated", changeIds, new Date().toISOString()));
  },
  "gbp.verification-changed": async (e: Events["gbp.verification-changed"]) => {
    if (e.verified) await closeItemsLike(e.db, e.userId, "verification_lost", `${e.locationName}@`, e.at);
    else {
      const rows = await addItems(e.db, [
        { userId: e.userId, kind: "verification_lost", subject: `${e.locationName}@${e.at}`, happenedAt: e.at, data: { locationName: e.locationName, locationTitle: e.locationTitle, action: e.action, reason: e.reason } },
      ]);
      await announceItems(e.env, rows);
    }
    await refreshHealth(e.db, [e.userId]);
  },
};

/** A screen of the agency's own that acts on the item (the others act in the card, or need the client). */
function linkOf(kind: AttentionKind): string | null {
  return kind === "report_unopened" ? "/admin/client-reports" : null;
}

function itemView(row: ListedItem): AttentionItemView {
  const kind = row.kind as AttentionKind;
  const data = JSON.parse(row.data) as Record<string, unknown>;
  const { title, detail } = { title: attentionTitle(kind, data, false), detail: attentionDetail(kind, data, row) };
  return {
    id: row.id,
    kind,
    kindLabel: ATTENTION_KIND_LABELS[kind],
    actionLabel: ATTENTION_ACTION_LABELS[kind],
    client: { userId: row.userId, name: row.clientName || row.clientEmail, email: row.clientEmail },
    title,
    detail,
    happenedAt: row.happenedAt,
    status: row.status,
    snoozedUntil: row.snoozedUntil,
    doneBy: row.doneByEmail ?? row.doneBy,
    doneAt: row.doneAt,
    link: linkOf(kind),
    changeId: kind === "google_updated" ? row.subject : null,
    review: kind === "low_review" ? { id: row.subject, draft: row.draft, replyState: row.replyState } : null,
    change: kind === "google_updated" ? { field: String(data.field ?? ""), beforeText: String(data.beforeText ?? ""), afterText: String(data.afterText ?? ""), source: String(data.source ?? "google") } : null,
  };
}

function attentionDetail(kind: AttentionKind, data: Record<string, unknown>, _row: ListedItem): string | null {
  if (kind === "verification_lost") {
    return voiceText(data.action as VoiceOfMerchantAction, typeof data.reason === "string" ? data.reason : null);
  }
  if (kind === "low_review") return data.comment ? String(data.comment) : null;
  if (kind === "google_reconnect") return data.error ? String(data.error) : null;
  if (kind === "post_failed") return data.reason ? String(data.reason) : null;
  return null;
}

/** The ranked queue: most urgent kind first, the longest waiting first within a kind. */
export async function attentionList(db: Db, p: { status: "open" | "snoozed" | "done"; userId?: string }): Promise<AttentionResponse> {
  const today = new Date().toISOString().slice(0, 10);
  const [rows, counts] = await Promise.all([listItems(db, { ...p, today, limit: LIST_LIMIT }), countItems(db, { userId: p.userId, today })]);
  const items = rows.map(itemView);
  if (p.status !== "done") items.sort((a, b) => attentionRank(a.kind) - attentionRank(b.kind) || a.happenedAt.localeCompare(b.happenedAt));
  return { items, counts };
}
