// What the review inbox page reads (issue 28): the connection in customer words, the sync state, the reviews of a
// filter with their replies, drafts and earlier versions, and the figures (monthly counts, ratings, reply rate and
// time, competitors' review counts from the own audits, and the pace forecast).
import type { Db } from "../../platform/db/client";
import { findConnection } from "../integrations";
import { findReviewSettings, historyOf, listReviews, ownAuditCompetitors, ownGridTopListings, replyBusinessOf, reviewTimes, type ReviewRow } from "./queries";
import { parseJson } from "../../domain/json";
import type { LocalResult } from "../rank/rules/metrics";
import {
  passForecast,
  REVIEWS_CONNECT_HINT,
  REVIEWS_RECONNECT_HINT,
  REVIEWS_UNAVAILABLE_HINT,
  reviewFigures,
  type ReplyState,
  type ReviewFigures,
  type ReviewFilter,
  type ReviewInboxResponse,
  type ReviewJson,
} from "./rules/reviews";
import type { Env } from "../../platform/env";
import { aiConfigured } from "../../platform/providers/ai";
import { googleConfig } from "../../platform/providers/google";

export function reviewJson(row: ReviewRow, history: { stars: number; comment: string | null; updateTime: string }[]): ReviewJson {
  return {
    id: row.id,
    googleReviewId: row.googleReviewId,
    locationName: row.locationName,
    reviewer: { name: row.reviewerName, photoUrl: row.reviewerPhotoUrl, anonymous: row.reviewerAnonymous },
    stars: row.stars,
    comment: row.comment,
    createTime: row.createTime,
    updateTime: row.updateTime,
    edited: history.length > 0,
    deletedAtGoogle: row.deletedAt !== null,
    reply: row.replyComment ? { comment: row.replyComment, updateTime: row.replyUpdateTime ?? row.updateTime } : null,
    draft: row.draft ? { comment: row.draft, source: row.draftSource ?? "template", notice: row.draftNotice } : null,
    replyState: row.replyState as ReplyState,
    replyError: row.replyError,
    autoPublishAt: row.autoPublishAt,
    history: history.map((h) => ({ stars: h.stars, comment: h.comment, updateTime: h.updateTime })),
  };
}

/** The most competitors the page lists (the pace forecast looks at these). */
const MAX_COMPETITORS = 8;

/**
 * Competitors' review counts over time, from the stored own audits (each audit's top map-pack competitors) and the
 * own Local Search Grid scans (the top three listings at every point carry their review counts); the business itself
 * (its place id) is left out. Listed by their latest count, highest first.
 */
export function competitorSeries(
  audits: { at: string; result: string | null }[],
  grids: { at: string; business: string; top3: (string | null)[] }[] = [],
): ReviewFigures["competitors"] {
  const seen: { name: string; at: string; count: number }[] = [];
  for (const a of audits) {
    let parsed: { competitors?: { status?: string; competitors?: { name?: unknown; reviewCount?: unknown }[] } } = {};
    try {
      parsed = JSON.parse(a.result ?? "{}") as typeof parsed;
    } catch {
      continue;
    }
    if (parsed.competitors?.status !== "ok") continue;
    for (const c of parsed.competitors.competitors ?? []) {
      if (typeof c.name === "string" && typeof c.reviewCount === "number") seen.push({ name: c.name, at: a.at, count: c.reviewCount });
    }
  }
  for (const g of grids) {
    const own = parseJson<{ placeId?: string | null }>(g.business)?.placeId ?? null;
    const counts = new Map<string, number>();
    for (const listing of g.top3.flatMap((t) => parseJson<LocalResult[]>(t) ?? [])) {
      if (!listing.title || typeof listing.reviews !== "number" || (own && listing.place_id === own)) continue;
      counts.set(listing.title, Math.max(counts.get(listing.title) ?? 0, listing.reviews));
    }
    for (const [name, count] of counts) seen.push({ name, at: g.at, count });
  }
  const byName = new Map<string, { at: string; count: number }[]>();
  for (const p of seen.sort((x, y) => x.at.localeCompare(y.at))) byName.set(p.name, [...(byName.get(p.name) ?? []), { at: p.at, count: p.count }]);
  return [...byName.entries()]
    .map(([name, points]) => ({ name, points }))
    .sort((a, b) => b.points[b.points.length - 1]!.count - a.points[a.points.length - 1]!.count || a.name.localeCompare(b.name))
    .slice(0, MAX_COMPETITORS);
}

export async function buildInbox(env: Env, db: Db, userId: string, filter: ReviewFilter, now = new Date()): Promise<ReviewInboxResponse> {
  const [connection, settings, list, times, audits, business, grids] = await Promise.all([
    findConnection(db, userId),
    findReviewSettings(db, userId),
    listReviews(db, userId, filter),
    reviewTimes(db, userId),
    ownAuditCompetitors(db, userId),
    replyBusinessOf(db, userId),
    ownGridTopListings(db, userId),
  ]);
  const history = await historyOf(
    db,
    list.rows.map((r) => r.id),
  );
  const configured = googleConfig(env) !== null;
  const state: ReviewInboxResponse["connection"] = !configured
    ? "not_configured"
    : !connection?.refreshTokenCiphertext
      ? "not_connected"
      : connection.status === "needs_reconnect"
        ? "needs_reconnect"
        : connection.status === "connected"
          ? "connected"
          : "not_connected";
  const hint = state === "connected" ? null : state === "needs_reconnect" ? REVIEWS_RECONNECT_HINT : state === "not_configured" ? REVIEWS_UNAVAILABLE_HINT : REVIEWS_CONNECT_HINT;
  const competitors = competitorSeries(audits, grids);
  const base = reviewFigures(times, now);
  const pass = passForecast(
    times.map((t) => t.createTime),
    settings?.googleTotal ?? times.length,
    competitors,
    now,
  );
  return {
    connection: state,
    connectHint: hint,
    sync: {
      lastSyncAt: settings?.lastSyncAt ?? null,
      nextSyncAt: settings?.nextSyncAt ?? null,
      error: settings?.lastSyncError ?? null,
      googleAverage: settings?.googleAverage ?? null,
      googleTotal: settings?.googleTotal ?? null,
    },
    aiAvailable: aiConfigured(env),
    counts: list.counts,
    reviews: list.rows.map((r) =>
      reviewJson(
        r,
        history.filter((h) => h.reviewId === r.id),
      ),
    ),
    figures: { ...base, competitors, pass },
    timeZone: business.timeZone,
  };
}
