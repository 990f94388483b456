// The attention queue (issue 41): a 1–3 star review unanswered for a day becomes one item (however often the cron
// runs), answered from the queue by an admin it closes; connections to renew and failed posts come and go with their
// cause; snooze until a date and done keep who and when; only admins read or act; each new item alerts the agency and
// goes out as webhook `attention.created`.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { ReviewsMessage } from "../../../worker/platform/env";
import { sweepAttention } from "../../../worker/features/command-center/attention";
import { api, callWorker, signUp, signUpAdmin } from "../helpers";
import { queueEnv } from "../reports/reports-fixtures";

type Item = { id: string; kind: string; title: string; detail: string | null; status: string; snoozedUntil: string | null; doneBy: string | null; review: { id: string; draft: string | null } | null; client: { userId: string; name: string }; happenedAt: string };
type Body = { items: Item[]; counts: { open: number; snoozed: number; done: number } };

let admin: Awaited<ReturnType<typeof signUpAdmin>>;
beforeAll(async () => {
  admin = await signUpAdmin();
});

async function queue(userId: string, status = "open"): Promise<Body> {
  const res = await api(`/api/agency/attention?status=${status}&userId=${userId}`, { token: admin.session.access_token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Body;
}

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();

/** A Google review of the user's business, stored as the reviews sync stores it. */
async function review(userId: string, p: { stars: number; hoursAgo: number; reply?: string; draft?: string }) {
  const id = crypto.randomUUID();
  const at = hoursAgo(p.hoursAgo);
  await env.DB.prepare(
    `insert into reviews (id, user_id, location_name, google_review_id, google_name, reviewer_name, stars, comment, create_time, update_time, reply_comment, draft, draft_source)
     values (?, ?, 'accounts/1001/locations/2001', ?, ?, 'Dana R.', ?, 'Nobody showed up for the estimate.', ?, ?, ?, ?, 'template')`,
  )
    .bind(id, userId, `g-${id}`, `accounts/1001/locations/2001/reviews/g-${id}`, p.stars, at, at, p.reply ?? null, p.draft ?? "Dana, we're sorry we missed you.")
    .run();
  return id;
}

describe("low reviews", () => {
  it("a 1–3 star review unanswered for over a day is one item, answered from the queue it closes", async () => {
    const client = await signUp();
    const userId = client.user.id;
    await env.DB.prepare("update profiles set company_name = 'Ridge Roofing' where id = ?").bind(userId).run();
    const waiting = await review(userId, { stars: 2, hoursAgo: 30 });
    await review(userId, { stars: 2, hoursAgo: 3 }); // not a day yet
    await review(userId, { stars: 5, hoursAgo: 48 }); // not low
    await review(userId, { stars: 1, hoursAgo: 48, reply: "Sorry!" }); // answered
    await sweepAttention(env);
    await sweepAttention(env);
    const { items, counts } = await queue(userId);
    expect(items).toHaveLength(1);
    expect(counts.open).toBe(1);
    const [item] = items;
    expect(item).toMatchObject({ kind: "low_review", status: "open", client: { userId, name: "Ridge Roofing" }, review: { id: waiting, draft: "Dana, we're sorry we missed you." } });
    expect(item!.title).toBe("2-star review from Dana R. unanswered");
    expect(item!.detail).toBe("Nobody showed up for the estimate.");

    // The admin publishes the drafted reply from the queue (not viewing as: view-as stays read-only).
    const reviews = queueEnv<ReviewsMessage>("REVIEWS");
    const viewing = await callWorker(`/api/reviews/${waiting}/reply`, { method: "PUT", token: admin.session.access_token, headers: { "X-View-As": userId }, json: { comment: "Dana, we're sorry." } }, { REVIEWS: reviews.env.REVIEWS });
    expect(viewing.status).toBe(403);
    const stranger = await signUp();
    const notTheirs = await callWorker(`/api/reviews/${waiting}/reply`, { method: "PUT", token: stranger.session.access_token, json: { comment: "Hi" } }, { REVIEWS: reviews.env.REVIEWS });
    expect(notTheirs.status).toBe(404);
    const published = await callWorker(`/api/reviews/${waiting}/reply`, { method: "PUT", token: admin.session.access_token, json: { comment: "Dana, we're sorry." } }, { REVIEWS: reviews.env.REVIEWS });
    expect(published.status, published.text).toBe(202);
    expect(reviews.sent).toEqual([{ kind: "publish", reviewIds: [waiting] }]);
    // While the reply is on its way the item stays; once Google has it, the next sweep closes the item.
    await sweepAttention(env);
    expect((await queue(userId)).items).toHaveLength(1);
    await env.DB.prepare("update reviews set reply_comment = 'Dana, we''re sorry.', reply_state = 'published' where id = ?").bind(waiting).run();
    await sweepAttention(env);
    expect((await queue(userId)).items).toEqual([]);
    expect((await queue(userId, "done")).items.map((i) => i.status)).toEqual(["closed"]);
  });

  it("each new item alerts the agency's admins in the app", async () => {
    const client = await signUp();
    await review(client.user.id, { stars: 1, hoursAgo: 26 });
    await sweepAttention(env);
    const rows = await env.DB.prepare("select data from notifications where user_id = ? and kind = 'attention_new'").bind(admin.user.id).all<{ data: string }>();
    const mine = rows.results.map((r) => JSON.parse(r.data)).filter((d) => d.user_id === client.user.id);
    // The bell and the mail quote the review's words; one alert however often the cron runs.
    expect(mine.map((d) => d.title)).toEqual(["1-star review from Dana R. unanswered: “Nobody showed up for the estimate.”"]);
    await sweepAttention(env);
    expect((await env.DB.prepare("select count(*) as n from notifications where user_id = ? and kind = 'attention_new' and data like ?").bind(admin.user.id, `%${client.user.id}%`).first<{ n: number }>())!.n).toBe(1);
  });
});

describe("connections and posts", () => {
  it("a connection to renew and a failed post are items until their cause is gone", async () => {
    const client = await signUp();
    const userId = client.user.id;
    const connection = crypto.randomUUID();
    const post = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare("insert into gbp_connections (id, user_id, status, last_error) values (?, ?, 'needs_reconnect', 'Google refused the saved sign-in.')").bind(connection, userId),
      env.DB.prepare("insert into scheduled_posts (id, user_id, body, scheduled_at, timezone, state, reason, location_title) values (?, ?, ?, ?, 'America/Chicago', 'rejected', 'Google rejected the post: it breaks the content policy.', 'Ridge Roofing — Austin')").bind(
        post,
        userId,
        JSON.stringify({ type: "STANDARD", summary: "Spring roof checks" }),
        hoursAgo(2),
      ),
    ]);
    await sweepAttention(env);
    const kinds = (await queue(userId)).items.map((i) => i.kind);
    expect(kinds).toEqual(["google_reconnect", "post_failed"]);
    await env.DB.batch([
      env.DB.prepare("update gbp_connections set status = 'connected' where id = ?").bind(connection),
      env.DB.prepare("update scheduled_posts set state = 'scheduled' where id = ?").bind(post),
    ]);
    await sweepAttention(env);
    expect((await queue(userId)).items).toEqual([]);
  });
});

describe("what the clients view's figures say", () => {
  it("a ranking fall, a keyword out of the top 3, wrong listings on the biggest sources, AI visibility down, a report unopened for a week and an allowance 90% used are items until the figures change", async () => {
    const client = await signUp();
    const userId = client.user.id;
    const scanned = hoursAgo(5);
    const sent = hoursAgo(24 * 8);
    const figures = {
      rank: {
        solv: 30, atrp: 6.2, scannedAt: scanned, solvChange: -14, keywords: 3, keywordsUp: 0, keywordsDown: 2, top3: 1,
        leftTop3: [{ keywordId: "kw-1", keyword: "roof repair", from: 2, to: 7, checkedAt: hoursAgo(3) }],
      },
      citations: { score: 61, scoreChange: -5, wrong: 3, gaps: 4, scannedAt: scanned, wrongMajor: ["Yelp", "BBB", "Angi"] },
      ai: { mentionRate: 0.2, low: 0.1, high: 0.3, previousRate: 0.6, direction: "down", scannedAt: scanned },
      report: { month: "2026-10", status: "ready", sentAt: sent, openedAt: null, enabled: true },
      usage: { spentCents: 2850, allowanceCents: 3000 },
    };
    await env.DB.prepare("insert into client_summaries (user_id, rank, citations, ai, report, usage) values (?, ?, ?, ?, ?, ?)")
      .bind(userId, ...[figures.rank, figures.citations, figures.ai, figures.report, figures.usage].map((f) => JSON.stringify(f)))
      .run();
    await sweepAttention(env);
    await sweepAttention(env);
    const items = (await queue(userId)).items;
    expect(items.map((i) => i.kind)).toEqual(["rank_fell", "keyword_left_top3", "listing_wrong", "ai_fell", "report_unopened", "allowance_high"]);
    expect(items.map((i) => i.title)).toEqual([
      "Map ranking fell 14 points (share of local voice 30%)",
      "“roof repair” left the map pack's top 3 (now #7, was #2)",
      "Wrong details on Yelp, BBB and 1 more",
      "Named less often by AI assistants (20%, was 60%)",
      "The 2026-10 report was not opened 7 days after it was sent",
      "95% of the monthly AI allowance used",
    ]);
    // A new grid that did not fall, the listings fixed, the report opened: those close; the rest stay.
    await env.DB.prepare("update client_summaries set rank = ?, citations = ?, report = ? where user_id = ?")
      .bind(
        JSON.stringify({ ...figures.rank, scannedAt: hoursAgo(1), solvChange: 3, leftTop3: [] }),
        JSON.stringify({ ...figures.citations, wrong: 0, wrongMajor: [] }),
        JSON.stringify({ ...figures.report, openedAt: hoursAgo(2) }),
        userId,
      )
      .run();
    await sweepAttention(env);
    expect((await queue(userId)).items.map((i) => i.kind)).toEqual(["ai_fell", "allowance_high"]);
  });
});

describe("the ranked list", () => {
  it("shows the most urgent first however many wait: tonight's lost verification is never cut by older low reviews", async () => {
    const client = await signUp();
    const userId = client.user.id;
    const old = (i: number) => new Date(Date.now() - (200 - i) * 3600_000).toISOString();
    const rows = Array.from({ length: 110 }, (_, i) =>
      env.DB.prepare("insert into attention_items (id, user_id, kind, subject, data, happened_at) values (?, ?, 'low_review', ?, '{\"stars\":2}', ?)").bind(crypto.randomUUID(), userId, `r${i}`, old(i)),
    );
    rows.push(env.DB.prepare("insert into attention_items (id, user_id, kind, subject, data, happened_at) values (?, ?, 'verification_lost', 'loc@now', '{}', ?)").bind(crypto.randomUUID(), userId, new Date().toISOString()));
    await env.DB.batch(rows);
    const body = await queue(userId);
    expect(body.items[0]!.kind).toBe("verification_lost");
    expect(body.items).toHaveLength(100);
    expect(body.counts).toMatchObject({ open: 111, snoozed: 0 });
    // Within a kind, the longest waiting first.
    expect(body.items[1]!.happenedAt < body.items[2]!.happenedAt).toBe(true);
  });
});

describe("snooze and done", () => {
  it("keep who and when; a snoozed item comes back on its date; bad input is a clear error", async () => {
    const client = await signUp();
    const userId = client.user.id;
    await review(userId, { stars: 3, hoursAgo: 40 });
    await review(userId, { stars: 1, hoursAgo: 50 });
    await sweepAttention(env);
    const [first, second] = (await queue(userId)).items;
    const token = admin.session.access_token;
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10);
    const snoozed = await api(`/api/agency/attention/${first!.id}`, { method: "POST", token, body: JSON.stringify({ action: "snooze", until: tomorrow }) });
    expect(snoozed.status, JSON.stringify(snoozed.body)).toBe(200);
    const done = await api(`/api/agency/attention/${second!.id}`, { method: "POST", token, body: JSON.stringify({ action: "done" }) });
    expect(done.body.item).toMatchObject({ status: "done", doneBy: admin.user.id });
    const body = await queue(userId);
    expect(body.items).toEqual([]);
    expect(body.counts).toEqual({ open: 0, snoozed: 1, done: 1 });
    expect((await queue(userId, "snoozed")).items[0]).toMatchObject({ id: first!.id, snoozedUntil: tomorrow });
    // Its date has come: open again.
    await env.DB.prepare("update attention_items set snoozed_until = ? where id = ?").bind(new Date().toISOString().slice(0, 10), first!.id).run();
    expect((await queue(userId)).items.map((i) => i.id)).toEqual([first!.id]);

    const past = await api(`/api/agency/attention/${first!.id}`, { method: "POST", token, body: JSON.stringify({ action: "snooze", until: "2020-01-01" }) });
    expect(past.status).toBe(400);
    expect(past.body.error.code).toBe("snooze_past");
    const unknown = await api(`/api/agency/attention/${first!.id}`, { method: "POST", token, body: JSON.stringify({ action: "explode" }) });
    expect(unknown.status).toBe(400);
    const missing = await api(`/api/agency/attention/${crypto.randomUUID()}`, { method: "POST", token, body: JSON.stringify({ action: "done" }) });
    expect(missing.status).toBe(404);
  });

  it("is for admins only", async () => {
    const user = await signUp();
    const read = await api("/api/agency/attention", { token: user.session.access_token });
    expect(read.status).toBe(403);
    const act = await api(`/api/agency/attention/${crypto.randomUUID()}`, { method: "POST", token: user.session.access_token, body: JSON.stringify({ action: "done" }) });
    expect(act.status).toBe(403);
  });
});
