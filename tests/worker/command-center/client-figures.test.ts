// The clients view's figures (issue 41): each capability reads its own group of one client's figures in one D1 round
// trip, from the business's own rows only (a second client's and a prospect's rows never count), null where there is
// no data; and announces `client.figures-changed` where those figures change (a reviews sync through the real consumer,
// a citation scan finished by its dead-letter consumer, an AI Visibility scan finishing, usage rows stored).
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { ClientFigureGroup } from "../../../worker/platform/events";
import { react } from "../../../worker/platform/events";
import type { Env, ReviewsMessage, UsageEventMessage } from "../../../worker/platform/env";
import { getDb } from "../../../worker/platform/db/client";
import { reviewClientFigures } from "../../../worker/features/reviews";
import { rankClientFigures } from "../../../worker/features/rank";
import { citationClientFigures } from "../../../worker/features/citations";
import { aiClientFigures } from "../../../worker/features/ai-visibility";
import { postClientFigures } from "../../../worker/features/content";
import { reportClientFigures } from "../../../worker/features/client-reports";
import { usageClientFigures } from "../../../worker/features/usage";
import { finishAiScanIfComplete } from "../../../worker/features/ai-visibility/finish";
import { DEFAULT_PLAN_ALLOWANCE_FREE_USD, meterSettings, userCapKey } from "../../../worker/domain/metering";
import reviewsList from "../../fakes/fixtures/google/reviews-list.json";
import { signUp, signUpAdmin } from "../helpers";
import { connectedGoogleUser, googleReviews } from "../integrations/google-connect";
import { deliver, recorder } from "../reports/reports-fixtures";

const db = getDb(env);
const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const ahead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const run = (sql: string, ...values: unknown[]) => env.DB.prepare(sql).bind(...values).run();

/** Every announcement of the figures' event, as the reactions see it (filtered by user in each test). */
const told: { userId: string; group: ClientFigureGroup }[] = [];
react("client.figures-changed", ({ userId, group }) => void told.push({ userId, group }));
const toldOf = (userId: string) => told.filter((t) => t.userId === userId).map((t) => t.group);

let me: string;
let other: string;
let empty: string;
let prospectId: string;
beforeAll(async () => {
  [me, other, empty] = (await Promise.all([signUp(), signUp(), signUp()])).map((u) => u.user.id) as [string, string, string];
  prospectId = crypto.randomUUID();
  await run("insert into prospects (id, name, area, user_id) values (?, 'Rival Plumbing', 'Austin, TX', ?)", prospectId, me);
});

// ——— seeding, as each capability stores its rows ———

async function review(userId: string, p: { stars: number; at: string; reply?: string; deleted?: boolean }) {
  const id = crypto.randomUUID();
  await run(
    `insert into reviews (id, user_id, location_name, google_review_id, google_name, reviewer_name, stars, create_time, update_time, reply_comment, reply_state, deleted_at)
     values (?, ?, 'accounts/1/locations/2', ?, ?, 'Dana R.', ?, ?, ?, ?, ?, ?)`,
    id, userId, `g-${id}`, `accounts/1/locations/2/reviews/g-${id}`, p.stars, p.at, p.at, p.reply ?? null, p.reply ? "published" : "none", p.deleted ? p.at : null,
  );
}

const BUSINESS = JSON.stringify({ kind: "own", prospectId: null, name: "Joe's Plumbing", area: "Austin, TX", placeId: "place-1", latitude: 30.27, longitude: -97.74 });

/** A grid scan and its points (`ranks`: a rank, null for "not in the top 20", "failed"). */
async function gridScan(userId: string, p: { keyword: string; finishedAt: string | null; ranks: (number | null | "failed")[]; prospect?: boolean }) {
  const id = crypto.randomUUID();
  await run(
    `insert into grid_scans (id, kind, user_id, prospect_id, business, keyword, size, radius_miles, zoom, status, estimate_searches, estimate_micro, share_token, created_at, finished_at)
     values (?, ?, ?, ?, ?, ?, 3, 2, 13, ?, 9, 90000, ?, ?, ?)`,
    id, p.prospect ? "prospect" : "own", userId, p.prospect ? prospectId : null, BUSINESS, p.keyword, p.finishedAt ? "done" : "running", crypto.randomUUID(), p.finishedAt ?? ago(0), p.finishedAt,
  );
  for (const [idx, rank] of p.ranks.entries()) {
    await run(
      "insert into grid_points (scan_id, idx, row, col, lat, lng, status, rank) values (?, ?, ?, ?, 30.27, -97.74, ?, ?)",
      id, idx, Math.floor(idx / 3), idx % 3, rank === "failed" ? "failed" : "done", rank === "failed" ? null : rank,
    );
  }
}

/** A tracked keyword and its checks, oldest first (`map`: a rank, null for "not in the top 20", "failed"). */
async function keyword(userId: string, text: string, map: (number | null | "failed")[], prospect = false) {
  const id = crypto.randomUUID();
  await run(
    "insert into tracked_keywords (id, kind, user_id, prospect_id, owner_key, business, keyword) values (?, ?, ?, ?, ?, ?, ?)",
    id, prospect ? "prospect" : "own", userId, prospect ? prospectId : null, prospect ? `prospect:${prospectId}` : `own:${userId}`, BUSINESS, text,
  );
  for (const [i, rank] of map.entries()) {
    const at = ago(map.length - i);
    const status = rank === "failed" ? "failed" : rank === null ? "not_found" : "found";
    await run(
      "insert into keyword_checks (id, keyword_id, status, map_status, map_rank, organic_status, created_at, checked_at) values (?, ?, ?, ?, ?, 'not_found', ?, ?)",
      crypto.randomUUID(), id, rank === "failed" ? "failed" : "done", status, typeof rank === "number" ? rank : null, at, at,
    );
  }
}

type Verdict = "consistent" | "inconsistent" | "duplicate" | "not_found";
async function citationScan(userId: string, p: { createdAt: string; verdicts: Record<string, Verdict>; status?: "done" | "running"; prospect?: boolean; pending?: string[] }) {
  const id = crypto.randomUUID();
  await run(
    `insert into citation_scans (id, kind, user_id, prospect_id, owner_key, business, status, estimate_searches, estimate_micro, created_at, finished_at)
     values (?, ?, ?, ?, ?, '{}', ?, 0, 0, ?, ?)`,
    id, p.prospect ? "prospect" : "own", userId, p.prospect ? prospectId : null, p.prospect ? `prospect:${prospectId}` : `own:${userId}`, p.status ?? "done", p.createdAt, p.status === "running" ? null : p.createdAt,
  );
  for (const [source, verdict] of Object.entries(p.verdicts)) {
    const result = { source, name: source, lookup: "search", state: "done", verdict, gap: false, competitors: [], listings: [] };
    await run("insert into citation_checks (scan_id, source, status, result, finished_at) values (?, ?, 'done', ?, ?)", id, source, JSON.stringify(result), p.createdAt);
  }
  for (const source of p.pending ?? []) await run("insert into citation_checks (scan_id, source, status) values (?, ?, 'pending')", id, source);
  return id;
}

const overall = (rate: number, low: number, high: number) => ({ k: 0, n: 0, mention_rate: rate, low, high, share_of_voice: null, share_low: null, share_high: null });
const AI_BUSINESS = JSON.stringify({ name: "Joe's Plumbing", website: null, phone: null, gbpUrl: null, category: "Plumbing", area: "Austin, TX", location: { city: "Austin", region: "TX", country: "US" } });

async function aiScan(userId: string, p: { createdAt: string; overall: ReturnType<typeof overall> | null; status?: "done" | "running" | "failed"; prospect?: boolean }) {
  const id = crypto.randomUUID();
  const summary = p.status === "running" ? null : JSON.stringify({ overall: p.overall, perEngine: [], figures: [], citedDomains: [], engineErrors: [] });
  await run(
    `insert into ai_scans (id, owner_key, kind, user_id, prospect_id, business, status, samples, engines, questions, total, done, summary, created_at, finished_at)
     values (?, ?, ?, ?, ?, ?, ?, 1, '[]', '[]', 0, 0, ?, ?, ?)`,
    id, p.prospect ? `prospect:${prospectId}` : `own:${userId}`, p.prospect ? "prospect" : "own", userId, p.prospect ? prospectId : null, AI_BUSINESS, p.status ?? "done", summary, p.createdAt, p.status === "running" ? null : p.createdAt,
  );
  return id;
}

async function post(userId: string, p: { state: string; scheduledAt: string; publishedAt?: string; updatedAt?: string }) {
  await run(
    "insert into scheduled_posts (id, user_id, body, scheduled_at, timezone, state, published_at, updated_at) values (?, ?, '{}', ?, 'America/Chicago', ?, ?, ?)",
    crypto.randomUUID(), userId, p.scheduledAt, p.state, p.publishedAt ?? null, p.updatedAt ?? ago(0),
  );
}

async function report(userId: string, p: { month: string; status: string; sentAt?: string; openedAt?: string }) {
  await run(
    "insert into client_reports (id, user_id, month, status, share_token, sent_at, first_opened_at) values (?, ?, ?, ?, ?, ?, ?)",
    crypto.randomUUID(), userId, p.month, p.status, crypto.randomUUID(), p.sentAt ?? null, p.openedAt ?? null,
  );
}

// ——— the figures ———

describe("each capability's figures for one client", () => {
  it("reviews: listed reviews only, this month's, Google's average once stored, the unanswered and the reply rate", async () => {
    await review(me, { stars: 5, at: ago(0), reply: "Thanks!" });
    await review(me, { stars: 2, at: ago(0) });
    await review(me, { stars: 3, at: ago(40) });
    await review(me, { stars: 4, at: ago(45) });
    await review(me, { stars: 1, at: ago(1), deleted: true }); // Google no longer lists it
    await review(other, { stars: 1, at: ago(0) });
    await review(other, { stars: 1, at: ago(0) });

    expect(await reviewClientFigures(db, me)).toEqual({ total: 4, newThisMonth: 2, average: 3.5, unanswered: 3, lowUnanswered: 2, replyRate: 0.25 });
    await run("insert into review_settings (user_id, google_average, google_total) values (?, 4.3, 12)", me);
    expect((await reviewClientFigures(db, me)).average).toBe(4.3);
    expect(await reviewClientFigures(db, other)).toMatchObject({ total: 2, unanswered: 2, lowUnanswered: 2, replyRate: 0, average: 1 });
    expect(await reviewClientFigures(db, empty)).toEqual({ total: 0, newThisMonth: 0, average: null, unanswered: 0, lowUnanswered: 0, replyRate: null });
  });

  it("rank: the latest finished own grid against the same keyword's finished grid before it, and the own keywords' moves", async () => {
    await gridScan(me, { keyword: "plumber", finishedAt: ago(10), ranks: [1, 5, null, 2] }); // SoLV 50
    await gridScan(me, { keyword: "drain cleaning", finishedAt: ago(5), ranks: [9, 9, 9] }); // another keyword: not compared
    const latest = ago(1);
    await gridScan(me, { keyword: "plumber", finishedAt: latest, ranks: [1, 2, 3, "failed"] }); // SoLV 100, ATRP 2
    await gridScan(me, { keyword: "plumber", finishedAt: null, ranks: [20, 20, 20] }); // still running
    await gridScan(me, { keyword: "plumber", finishedAt: ago(0), ranks: [15, 15, 15], prospect: true });
    await gridScan(other, { keyword: "plumber", finishedAt: ago(0), ranks: [15, 15, 15] });
    await keyword(me, "plumber", [5, 2]); // up, in the top 3
    await keyword(me, "drain cleaning", [1, null, "failed"]); // down (the failed check is a gap)
    await keyword(me, "water heater", [3]); // one check: no move yet, in the top 3
    await keyword(me, "sewer line", []); // never checked
    await keyword(me, "plumber near me", [1, 1], true); // a prospect's
    await keyword(other, "plumber", [9, 1]);

    // "drain cleaning" was #1 and is now out of the top 20: it left the top 3 (the attention queue's item).
    expect(await rankClientFigures(db, me)).toEqual({
      solv: 100, atrp: 2, scannedAt: latest, solvChange: 50, keywords: 4, keywordsUp: 1, keywordsDown: 1, top3: 2,
      leftTop3: [{ keywordId: expect.any(String), keyword: "drain cleaning", from: 1, to: null, checkedAt: expect.any(String) }],
    });
    expect(await rankClientFigures(db, other)).toMatchObject({ solv: 0, atrp: 15, solvChange: null, keywords: 1, keywordsUp: 1, keywordsDown: 0, top3: 1, leftTop3: [] });
    expect(await rankClientFigures(db, empty)).toEqual({ solv: null, atrp: null, scannedAt: null, solvChange: null, keywords: 0, keywordsUp: null, keywordsDown: null, top3: null, leftTop3: [] });
  });

  it("citations: the latest finished own scan's score against the one before, its wrong listings (those on the biggest sources named) and gaps", async () => {
    await citationScan(me, { createdAt: ago(10), verdicts: { yelp: "consistent", facebook: "consistent", bbb: "not_found" } }); // 83
    const latest = ago(1);
    await citationScan(me, { createdAt: latest, verdicts: { yelp: "consistent", facebook: "inconsistent", bbb: "duplicate", angi: "not_found", houzz: "not_found" } }); // 47
    await citationScan(me, { createdAt: ago(0), verdicts: { yelp: "not_found" }, status: "running" });
    await citationScan(me, { createdAt: ago(0), verdicts: { yelp: "inconsistent" }, prospect: true });
    await citationScan(other, { createdAt: ago(0), verdicts: { yelp: "consistent" } });

    // Both wrong listings are on the biggest sources (Facebook 85, BBB 80), most important first.
    expect(await citationClientFigures(db, me)).toEqual({ score: 47, scoreChange: -36, wrong: 2, gaps: 2, scannedAt: latest, wrongMajor: ["Facebook", "BBB"] });
    expect(await citationClientFigures(db, other)).toMatchObject({ score: 100, scoreChange: null, wrong: 0, gaps: 0, wrongMajor: [] });
    expect(await citationClientFigures(db, empty)).toEqual({ score: null, scoreChange: null, wrong: null, gaps: null, scannedAt: null, wrongMajor: [] });
  });

  it("ai: the latest finished own scan's rate and interval, a direction only when the intervals separate", async () => {
    await aiScan(me, { createdAt: ago(8), overall: overall(0.3, 0.18, 0.45) });
    const latest = ago(1);
    await aiScan(me, { createdAt: latest, overall: overall(0.7, 0.55, 0.82) });
    await aiScan(me, { createdAt: ago(0), overall: null, status: "running" });
    await aiScan(me, { createdAt: ago(0), overall: overall(0.1, 0, 0.2), prospect: true });
    await aiScan(other, { createdAt: ago(8), overall: overall(0.5, 0.3, 0.7) });
    await aiScan(other, { createdAt: ago(1), overall: overall(0.4, 0.2, 0.6) }); // overlaps: noise

    expect(await aiClientFigures(db, me)).toEqual({ mentionRate: 0.7, low: 0.55, high: 0.82, previousRate: 0.3, direction: "up", scannedAt: latest });
    expect(await aiClientFigures(db, other)).toMatchObject({ mentionRate: 0.4, previousRate: 0.5, direction: null });
    expect(await aiClientFigures(db, empty)).toEqual({ mentionRate: null, low: null, high: null, previousRate: null, direction: null, scannedAt: null });
  });

  it("posts: the last live one, failed or rejected in the last 30 days, the upcoming", async () => {
    await post(me, { state: "live", scheduledAt: ago(10), publishedAt: ago(10) });
    const last = ago(2);
    await post(me, { state: "live", scheduledAt: last, publishedAt: last });
    await post(me, { state: "processing", scheduledAt: ago(1), publishedAt: ago(1) }); // in Google's review: not live yet
    await post(me, { state: "failed", scheduledAt: ago(5), updatedAt: ago(5) });
    await post(me, { state: "rejected", scheduledAt: ago(1), updatedAt: ago(1) });
    await post(me, { state: "failed", scheduledAt: ago(40), updatedAt: ago(40) }); // too long ago
    await post(me, { state: "scheduled", scheduledAt: ahead(1) });
    await post(me, { state: "scheduled", scheduledAt: ahead(7) });
    await post(me, { state: "reminded", scheduledAt: ago(3) });
    await post(other, { state: "live", scheduledAt: ago(0), publishedAt: ago(0) });
    await post(other, { state: "failed", scheduledAt: ago(0) });

    expect(await postClientFigures(db, me)).toEqual({ lastPublishedAt: last, failed: 2, scheduled: 2 });
    expect(await postClientFigures(db, empty)).toEqual({ lastPublishedAt: null, failed: 0, scheduled: 0 });
  });

  it("report: the latest month's report and whether the monthly report is on", async () => {
    await report(me, { month: "2025-01", status: "ready", sentAt: "2025-02-01T09:00:00.000Z", openedAt: "2025-02-02T10:00:00.000Z" });
    await report(me, { month: "2025-02", status: "ready", sentAt: "2025-03-01T09:00:00.000Z" });
    await report(other, { month: "2025-03", status: "failed" });
    await run("insert into client_report_settings (user_id, enabled, enabled_by) values (?, 1, 'admin')", me);

    expect(await reportClientFigures(db, me)).toEqual({ month: "2025-02", status: "ready", sentAt: "2025-03-01T09:00:00.000Z", openedAt: null, enabled: true });
    expect(await reportClientFigures(db, other)).toEqual({ month: "2025-03", status: "failed", sentAt: null, openedAt: null, enabled: false });
    expect(await reportClientFigures(db, empty)).toEqual({ month: null, status: null, sentAt: null, openedAt: null, enabled: false });
  });

  it("usage: this month's settled spend in cents against the allowance (none for an admin without an override)", async () => {
    const now = new Date();
    await run("insert into meter_counters (key, reserved_micro, settled_micro, expires_at) values (?, 500000, 1234567, ?)", userCapKey(me, now), ahead(31));
    await run("insert into meter_counters (key, reserved_micro, settled_micro, expires_at) values (?, 0, 9000000, ?)", userCapKey(other, now), ahead(31));
    await run("insert into ai_budgets (user_id, monthly_usd) values (?, 5)", me);
    const admin = (await signUpAdmin()).user.id;

    expect(await usageClientFigures(db, me)).toEqual({ spentCents: 123, allowanceCents: 500 });
    expect(await usageClientFigures(db, other)).toEqual({ spentCents: 900, allowanceCents: DEFAULT_PLAN_ALLOWANCE_FREE_USD * 100 });
    expect(await usageClientFigures(db, empty, meterSettings({ PLAN_ALLOWANCE_FREE_USD: "2" }))).toEqual({ spentCents: 0, allowanceCents: 200 });
    expect(await usageClientFigures(db, admin)).toEqual({ spentCents: 0, allowanceCents: null });
  });
});

// ——— the announcements ———

describe("where the figures change, the capability announces it", () => {
  it("a reviews sync through the real consumer announces the client's reviews", async () => {
    await googleReviews({ reviews: structuredClone(reviewsList.reviews) });
    const owner = await connectedGoogleUser();
    const userId = owner.user.id;
    const testEnv = { ...env, REVIEWS: recorder<ReviewsMessage>().queue, USAGE_EVENTS: recorder<UsageEventMessage>().queue } as Env;
    await deliver("reviews", [{ body: { kind: "sync", userIds: [userId] } }], testEnv);
    expect(toldOf(userId)).toEqual(["reviews"]);
    const stored = (await env.DB.prepare("select count(*) n, sum(reply_comment is null) open from reviews where user_id = ? and deleted_at is null").bind(userId).first<{ n: number; open: number }>())!;
    const average = (await env.DB.prepare("select google_average a from review_settings where user_id = ?").bind(userId).first<{ a: number }>())!.a;
    expect(stored.n).toBeGreaterThan(0);
    expect(await reviewClientFigures(db, userId)).toMatchObject({ total: stored.n, unanswered: stored.open, average });
  });

  it("a citation scan finished by its dead-letter consumer announces the client's citations; a prospect's does not", async () => {
    const user = (await signUp()).user.id;
    const scanId = await citationScan(user, { createdAt: ago(0), verdicts: { yelp: "consistent" }, status: "running", pending: ["facebook"] });
    const theirs = await citationScan(user, { createdAt: ago(0), verdicts: { yelp: "consistent" }, status: "running", pending: ["facebook"], prospect: true });
    await deliver("citations-dlq", [{ body: { scanId: theirs, sources: ["facebook"] } }], env);
    expect(toldOf(user)).toEqual([]);
    await deliver("citations-dlq", [{ body: { scanId, sources: ["facebook"] } }], env);
    expect(toldOf(user)).toEqual(["citations"]);
    expect(await citationClientFigures(db, user)).toMatchObject({ score: 100, wrong: 0, gaps: 0 });
  });

  it("an AI Visibility scan finishing announces the client's ai figures", async () => {
    const user = (await signUp()).user.id;
    const scanId = await aiScan(user, { createdAt: ago(0), overall: null, status: "running" });
    await finishAiScanIfComplete(env, scanId);
    expect(toldOf(user)).toEqual(["ai"]);
    expect(await aiClientFigures(db, user)).toMatchObject({ mentionRate: null, direction: null });
    expect((await aiClientFigures(db, user)).scannedAt).not.toBeNull();
  });

  it("stored usage rows announce each user's usage once per batch", async () => {
    const [a, b] = (await Promise.all([signUp(), signUp()])).map((u) => u.user.id) as [string, string];
    const event = (userId: string | null) => ({
      body: { event_id: crypto.randomUUID(), user_id: userId, tool_name: "Review Reply", model: "test-model", input_tokens: 10, output_tokens: 5, total_tokens: 15, estimated_cost: 0.001, request_data: null, response_data: null, created_at: ago(0) },
    });
    await deliver("usage-events", [event(a), event(a), event(b), event(null)], env);
    expect(toldOf(a)).toEqual(["usage"]);
    expect(toldOf(b)).toEqual(["usage"]);
  });
});
