// Local rank tracking (issue 19) through the real rank-checks consumer against the search fake (tests/fakes): a grid
// end to end, failed points stored failed and retried (never counted, never "not ranked"), the dead-letter path, a run
// refused past the allowance before any call, permissions, the share page, CSV, tracked keywords and the cron.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env, RankCheckMessage } from "../../../worker/platform/env";
import { RANK_CHECKS_MAX_RETRIES, TRACKER_ZOOM } from "../../../worker/features/rank/config";
import { enqueueDueKeywords, mailAlertDigests } from "../../../worker/features/rank/tracker";
import { resendStalePoints } from "../../../worker/features/rank/grid";
import { gridMetrics, type PointResult } from "../../../worker/features/rank/rules/metrics";
import { serpLl } from "../../../worker/features/rank/rules/grid";
import { GRID_SIZE_ADMIN_MESSAGE } from "../../../worker/features/rank/rules/grid";
import type { GridScanView, TrackedKeywordDetail, TrackedKeywordList } from "../../../worker/features/rank/rules/view";
import { FAKE_SITE_BUSINESS } from "../../fakes/audit-data";
import { gridPointFails, gridRank } from "../../fakes/audit-data";
import { consumerSettings, drainQueue, queueEnv } from "../reports/reports-fixtures";
import { callWorker, signUp, signUpAdmin } from "../helpers";

type RankEnv = { env: Env; sent: RankCheckMessage[] };

const rankEnv = (overrides: Partial<Env> = {}): RankEnv => queueEnv<RankCheckMessage>("RANK_CHECKS", overrides);
const bind = (t: RankEnv) => t.env as unknown as Record<string, unknown>;

/** Delivers what was sent through the real consumer; a retried message comes back with attempts + 1, the last one to the DLQ. */
function drain(t: RankEnv, opts: { rounds?: number } = {}) {
  return drainQueue("rank-checks", t, { maxRetries: RANK_CHECKS_MAX_RETRIES, rounds: opts.rounds });
}

async function searchRequests(): Promise<{ q: string; engine?: string; ll?: string; status?: number }[]> {
  return ((await (await fetch(`${env.SERPAPI_BASE_URL}/__requests`)).json()) as { requests: { q: string; engine?: string; ll?: string; status?: number }[] }).requests;
}

const PROFILE = {
  company_name: FAKE_SITE_BUSINESS.name,
  company_location: "1200 Main St, Suite 300, Austin, TX 78701",
  company_phone: FAKE_SITE_BUSINESS.phone,
  company_category: "Plumbing",
};

async function ownerWithProfile(t: RankEnv) {
  const user = await signUp();
  const token = user.session.access_token;
  const put = await callWorker("/api/profile", { method: "PUT", token, json: PROFILE }, bind(t));
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return { user, token };
}

const uniqueKeyword = (word = "plumber") => `${word} ${crypto.randomUUID().slice(0, 8)}`;

async function runGrid(t: RankEnv, token: string, body: Record<string, unknown>) {
  return callWorker("/api/rank/grids", { method: "POST", token, json: { own: true, radiusMiles: 2, ...body } }, bind(t));
}

async function readGrid(t: RankEnv, token: string, id: string): Promise<GridScanView> {
  const res = await callWorker(`/api/rank/grids/${id}`, { token }, bind(t));
  expect(res.status).toBe(200);
  return res.body as GridScanView;
}

/** What the fake answers at this point: Joe's rank, or not in the top 20. */
function expected(point: { lat: number; lng: number }, zoom: number): PointResult {
  const r = gridRank(serpLl(point, zoom));
  return r <= 20 ? { status: "found", rank: r } : { status: "not_found" };
}

describe("rank-checks settings", () => {
  it("keeps the consumer's max_retries and its dead-letter queue in wrangler.toml", () => {
    const block = consumerSettings("rank-checks", RANK_CHECKS_MAX_RETRIES);
    for (const setting of ["max_batch_size", "max_batch_timeout", "max_concurrency", "retry_delay"]) expect(block).toMatch(new RegExp(`^${setting} = \\d+`, "m"));
  });
});

describe("a 5×5 grid end to end", () => {
  it("searches every point once from its own spot, stores each rank, and finishes with Local Falcon's metrics", async () => {
    const t = rankEnv();
    const { token } = await ownerWithProfile(t);
    const keyword = uniqueKeyword();
    const started = await runGrid(t, token, { keyword, size: 5 });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const view = started.body as GridScanView;
    expect(view).toMatchObject({ keyword, size: 5, status: "queued", business: { kind: "own", placeId: FAKE_SITE_BUSINESS.placeId }, estimate: { searches: 25 } });
    expect(view.points).toHaveLength(25);
    expect(view.points.every((p) => p.result.status === "pending")).toBe(true);
    expect(view.points.filter((p) => p.center)).toHaveLength(1);
    // A few points a message, each sent once.
    expect(t.sent.every((m) => m.kind === "grid" && m.points.length <= 5)).toBe(true);
    expect(t.sent.flatMap((m) => (m.kind === "grid" ? m.points : [])).sort((a, b) => a - b)).toEqual([...Array(25).keys()]);

    // Every message delivered twice (at least once): no point is searched twice.
    t.sent.push(...t.sent.map((m) => ({ ...m })));
    await drain(t);
    const done = await readGrid(t, token, view.id);
    expect(done.status).toBe("done");
    expect(done.finishedAt).not.toBeNull();
    const calls = (await searchRequests()).filter((r) => r.q === keyword);
    expect(calls).toHaveLength(25);
    expect(new Set(calls.map((r) => r.ll)).size).toBe(25);
    for (const p of done.points) expect(p.result, `${p.row},${p.col}`).toEqual(expected(p, done.zoom));
    expect(done.metrics).toEqual(gridMetrics(done.points.map((p) => expected(p, done.zoom))));
    expect(done.metrics.pending + done.metrics.failed).toBe(0);
    expect(done.competitors.length).toBeGreaterThan(0);
    expect(done.points.find((p) => p.result.status === "found" && p.result.rank > 3)?.top3).toHaveLength(3);

    // History and a second scan that compares with this one.
    const again = await runGrid(t, token, { keyword, size: 3 });
    expect((again.body as GridScanView).previous).toMatchObject({ id: view.id });
    const list = await callWorker(`/api/rank/grids?business=own&keyword=${encodeURIComponent(keyword)}`, { token }, bind(t));
    expect(list.status).toBe(200);
    expect(list.body.scans.map((s: { id: string }) => s.id)).toEqual([(again.body as GridScanView).id, view.id]);

    // CSV: a row per point, ranks as the view has them.
    const csv = await callWorker(`/api/rank/grids/${view.id}/export.csv`, { token }, bind(t));
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    const lines = csv.text.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines[0]).toBe('"Row","Column","Latitude","Longitude","Status","Rank"');
    expect(lines).toHaveLength(26);

    // The reviews page counts competitors' reviews from the grid's listings (issue 28): each stored listing keeps its
    // review count, and the page lists the highest seen per competitor, the business itself left out.
    const stored = await env.DB.prepare("select top3 from grid_points where scan_id = ? and status = 'done'").bind(view.id).all<{ top3: string }>();
    const best = new Map<string, number>();
    for (const l of stored.results.flatMap((r) => JSON.parse(r.top3) as { title: string; place_id?: string; reviews?: number }[])) {
      expect(typeof l.reviews, JSON.stringify(l)).toBe("number");
      if (l.place_id !== FAKE_SITE_BUSINESS.placeId) best.set(l.title, Math.max(best.get(l.title) ?? 0, l.reviews!));
    }
    const inbox = await callWorker("/api/reviews?business=own&filter=all", { token }, bind(t));
    expect(inbox.status).toBe(200);
    const listed = inbox.body.figures.competitors as { name: string; points: { count: number }[] }[];
    expect(listed.length).toBe(Math.min(8, best.size));
    for (const c of listed) expect(c.points.at(-1)!.count, c.name).toBe(best.get(c.name));
    expect(listed.map((c) => c.points.at(-1)!.count)).toEqual([...best.values()].sort((a, b) => b - a).slice(0, 8));

    // The share page: public, no prospect id, no share path; a wrong token is 404.
    const shared = await callWorker(done.sharePath!.replace("/shared/grids/", "/api/shared/grids/"), {}, bind(t));
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ id: view.id, sharePath: null, previous: null, business: { prospectId: null } });
    expect(shared.headers.get("ETag")).toBeTruthy();
    expect(done.sharePath).toMatch(/^\/shared\/grids\/[0-9a-f]{32}$/);
    expect((await callWorker(`/api/shared/grids/${"0".repeat(32)}`, {}, bind(t))).status).toBe(404);
    expect((await callWorker(`/api/shared/grids/not-a-token`, {}, bind(t))).status).toBe(404);
  });
});

describe("failed points", () => {
  /** A grid for a keyword the search fake fails at some points (`flaky`: once, `deadpoint`: always), and those points. */
  async function gridWithFailures(keywordBase: string, size: number) {
    const t = rankEnv();
    const { token } = await ownerWithProfile(t);
    const keyword = uniqueKeyword(keywordBase);
    const view = (await runGrid(t, token, { keyword, size })).body as GridScanView;
    const chosen = view.points.filter((p) => gridPointFails(keyword, serpLl(p, view.zoom), 1) !== null);
    return { t, token, keyword, view, chosen };
  }

  it("are stored failed (not ranked, not counted), retried with backoff, and counted once they answer", async () => {
    const { t, token, keyword, view, chosen } = await gridWithFailures("flaky plumber", 5);
    expect(chosen.length).toBeGreaterThan(0);

    // First deliveries only.
    const first = await drain(t, { rounds: 1 });
    expect(first.log.some((d) => d.outcome === "retry")).toBe(true);
    const mid = await readGrid(t, token, view.id);
    expect(mid.status).toBe("running");
    const failed = mid.points.filter((p) => p.result.status === "failed");
    expect(failed.map((p) => `${p.row},${p.col}`).sort()).toEqual(chosen.map((p) => `${p.row},${p.col}`).sort());
    expect(failed.every((p) => /500.*trying again/.test(p.failedReason ?? ""))).toBe(true);
    // Failed is not "not ranked": out of every figure.
    expect(mid.metrics.failed).toBe(chosen.length);
    expect(mid.metrics.found + mid.metrics.notFound).toBe(25 - chosen.length);
    expect(mid.metrics).toEqual(gridMetrics(mid.points.map((p) => p.result)));

    // The retries (next attempt) answer.
    t.sent.push(...first.left.map((m) => m.body));
    const rest = await drain(t);
    expect(rest.log.every((d) => d.outcome === "ack")).toBe(true);
    const done = await readGrid(t, token, view.id);
    expect(done.status).toBe("done");
    expect(done.metrics.failed).toBe(0);
    for (const p of done.points) expect(p.result).toEqual(expected(p, done.zoom));
    // Each chosen point searched twice (the failure and the retry), every other point once.
    expect((await searchRequests()).filter((r) => r.q === keyword)).toHaveLength(25 + chosen.length);
  });

  it("that never succeed end failed with the reason through the dead-letter queue, so the scan finishes", async () => {
    const { t, token, view, chosen } = await gridWithFailures("deadpoint plumber", 3);
    await drain(t);
    const done = await readGrid(t, token, view.id);
    expect(done.status).toBe("done");
    const failed = done.points.filter((p) => p.result.status === "failed");
    expect(failed).toHaveLength(chosen.length);
    expect(done.metrics.failed).toBe(chosen.length);
    expect(done.metrics.found + done.metrics.notFound).toBe(9 - chosen.length);
    if (chosen.length > 0) expect(failed.every((p) => /429/.test(p.failedReason ?? ""))).toBe(true);
    const csv = await callWorker(`/api/rank/grids/${view.id}/export.csv`, { token }, bind(t));
    expect(csv.text.match(/"Search failed",""/g) ?? []).toHaveLength(chosen.length);
  });
});

describe("lost messages", () => {
  it("the cron sends a scan's unfinished points again, and the scan finishes", async () => {
    const t = rankEnv();
    const { token } = await ownerWithProfile(t);
    const keyword = uniqueKeyword();
    const view = (await runGrid(t, token, { keyword, size: 3 })).body as GridScanView;
    // The first message delivered, the others lost.
    const [kept] = t.sent.splice(0);
    t.sent.push(kept!);
    await drain(t);
    expect((await readGrid(t, token, view.id)).status).toBe("running");
    expect(await resendStalePoints(t.env)).toBe(0);
    await env.DB.prepare("update grid_scans set created_at = ? where id = ?").bind(new Date(Date.now() - 11 * 60_000).toISOString(), view.id).run();
    expect(await resendStalePoints(t.env)).toBe(9 - (kept!.kind === "grid" ? kept!.points.length : 0));
    await drain(t);
    const done = await readGrid(t, token, view.id);
    expect(done.status).toBe("done");
    expect((await searchRequests()).filter((r) => r.q === keyword)).toHaveLength(9);
  });
});

describe("the allowance and grid sizes", () => {
  it("refuses a run past the allowance with 402 before any call, and says so in the estimate", async () => {
    const t = rankEnv();
    const { token } = await ownerWithProfile(t);
    const keyword = uniqueKeyword();
    const before = (await searchRequests()).length;
    // Free plan: $1 a month; a 9×9 grid is 81 searches at $0.015 = $1.215.
    const estimate = await callWorker(`/api/rank/grids?estimate=1&size=9`, { token }, bind(t));
    expect(estimate.status).toBe(200);
    expect(estimate.body).toMatchObject({ size: 9, searches: 81, allowed: false, allowanceLeftUsd: 1 });
    expect(estimate.body.estimateUsd).toBeCloseTo(1.215);
    const postEstimate = await callWorker(`/api/rank/grids?estimate=1`, { method: "POST", token, json: { own: true, keyword, size: 3, radiusMiles: 1 } }, bind(t));
    expect(postEstimate.body).toMatchObject({ searches: 9, allowed: true });
    const refused = await runGrid(t, token, { keyword, size: 9 });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe("allowance_exceeded");
    expect(t.sent).toHaveLength(0);
    // Only this test's keyword: the search fake also answers the other worker's files at the same time.
    expect((await searchRequests()).slice(before).filter((r) => r.q === keyword)).toEqual([]);

    const tooBig = await runGrid(t, token, { keyword, size: 13 });
    expect(tooBig.status).toBe(403);
    expect(tooBig.body.error).toMatchObject({ code: "grid_size_not_allowed", message: GRID_SIZE_ADMIN_MESSAGE });
    expect((await runGrid(t, token, { keyword, size: 4 })).status).toBe(400);
    expect((await runGrid(t, token, { keyword, size: 3, radiusMiles: 30 })).status).toBe(400);
    expect((await searchRequests()).slice(before).filter((r) => r.q === keyword)).toEqual([]);
  });

  it("lets admins run up to 13×13", async () => {
    const t = rankEnv();
    const admin = await signUpAdmin();
    await callWorker("/api/profile", { method: "PUT", token: admin.session.access_token, json: PROFILE }, bind(t));
    const res = await runGrid(t, admin.session.access_token, { keyword: uniqueKeyword(), size: 13 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((res.body as GridScanView).points).toHaveLength(169);
  });
});

describe("permissions", () => {
  it("keeps scans and keywords to their owner; prospects are admins'", async () => {
    const t = rankEnv();
    const { token } = await ownerWithProfile(t);
    const other = await signUp();
    const otherToken = other.session.access_token;
    const view = (await runGrid(t, token, { keyword: uniqueKeyword(), size: 3 })).body as GridScanView;
    expect((await callWorker(`/api/rank/grids/${view.id}`, {}, bind(t))).status).toBe(401);
    expect((await callWorker(`/api/rank/grids/${view.id}`, { token: otherToken }, bind(t))).status).toBe(404);
    expect((await callWorker(`/api/rank/grids/${view.id}/export.csv`, { token: otherToken }, bind(t))).status).toBe(404);
    const otherList = await callWorker(`/api/rank/grids?business=own`, { token: otherToken }, bind(t));
    expect(otherList.body.scans).toEqual([]);

    const prospectRun = await runGrid(t, token, { own: undefined, prospectId: crypto.randomUUID(), keyword: "plumber", size: 3 });
    expect(prospectRun.status).toBe(403);
    expect((await callWorker(`/api/rank/grids?business=${crypto.randomUUID()}`, { token }, bind(t))).status).toBe(403);
    expect((await callWorker(`/api/rank/keywords?business=${crypto.randomUUID()}`, { token }, bind(t))).status).toBe(403);

    const kw = await callWorker("/api/rank/keywords", { method: "POST", token, json: { own: true, keyword: uniqueKeyword() } }, bind(t));
    expect(kw.status, JSON.stringify(kw.body)).toBe(201);
    for (const [method, path] of [["GET", ""], ["PATCH", ""], ["DELETE", ""], ["GET", "/export.csv"]] as const) {
      const res = await callWorker(`/api/rank/keywords/${kw.body.id}${path}`, { method, token: otherToken, ...(method === "PATCH" ? { json: { paused: true } } : {}) }, bind(t));
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    // A profile without a company: a clear code the page explains.
    const bare = await runGrid(t, otherToken, { keyword: "plumber", size: 3 });
    expect(bare.status).toBe(400);
    expect(bare.body.error.code).toBe("profile_required");
  });

  it("answers listing_not_found when the business is not on Google Maps", async () => {
    const t = rankEnv();
    const user = await signUp();
    const token = user.session.access_token;
    await callWorker("/api/profile", { method: "PUT", token, json: { ...PROFILE, company_name: "Nomatch Plumbing Co", company_phone: "(512) 555-9999" } }, bind(t));
    const res = await runGrid(t, token, { keyword: "plumber", size: 3 });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("listing_not_found");
    expect(res.body.error.message).toContain("Pick it in Local Search Audit");
  });

  it("lets an admin scan a prospect, and the prospect's report gains its local visibility", async () => {
    const t = rankEnv();
    const admin = await signUpAdmin();
    const token = admin.session.access_token;
    const made = await callWorker(
      "/api/reports",
      { method: "POST", token, json: { name: FAKE_SITE_BUSINESS.name, area: "Austin, TX", keyword: "plumber austin", phone: FAKE_SITE_BUSINESS.phone, website: "", generate: false } },
      bind(t),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const prospectId = made.body.prospect.id as string;
    const reportId = made.body.report?.id ?? made.body.id;
    const res = await runGrid(t, token, { own: undefined, prospectId, keyword: uniqueKeyword(), size: 3 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((res.body as GridScanView).business).toMatchObject({ kind: "prospect", prospectId });
    await drain(t);
    const list = await callWorker(`/api/rank/grids?business=${prospectId}`, { token }, bind(t));
    expect(list.body.scans).toHaveLength(1);
    const report = await callWorker(`/api/reports/${reportId}`, { token }, bind(t));
    expect(report.status).toBe(200);
    expect(report.body.localVisibility).toMatchObject({ size: 3, business: { prospectId: null } });
    expect(report.body.localVisibility.points).toHaveLength(9);
  });
});

describe("tracked keywords", () => {
  it("checks a new keyword at once (map pack and organic), and keeps to the plan's limit", async () => {
    const t = rankEnv();
    const { token } = await ownerWithProfile(t);
    const keyword = uniqueKeyword();
    const added = await callWorker("/api/rank/keywords", { method: "POST", token, json: { own: true, keyword } }, bind(t));
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(t.sent).toEqual([{ kind: "keyword", checkIds: [expect.any(String)] }]);
    await drain(t);
    const detail = (await callWorker(`/api/rank/keywords/${added.body.id}`, { token }, bind(t))).body as TrackedKeywordDetail;
    expect(detail.checks).toHaveLength(1);
    expect(["found", "not_found"]).toContain(detail.checks[0]!.map.status);
    // The website comes from the listing (the fake site's), 7th in the fake's organic results.
    expect(detail.checks[0]!.organic).toEqual({ status: "found", rank: 7 });
    expect(detail.map.current).toEqual(detail.checks[0]!.map);
    const calls = (await searchRequests()).filter((r) => r.q === keyword);
    expect(calls.map((r) => r.engine).sort()).toEqual(["google", "google_maps"]);

    expect((await callWorker("/api/rank/keywords", { method: "POST", token, json: { own: true, keyword } }, bind(t))).body.error.code).toBe("keyword_already_tracked");
    for (let i = 0; i < 2; i++) expect((await callWorker("/api/rank/keywords", { method: "POST", token, json: { own: true, keyword: uniqueKeyword() } }, bind(t))).status).toBe(201);
    const over = await callWorker("/api/rank/keywords", { method: "POST", token, json: { own: true, keyword: uniqueKeyword() } }, bind(t));
    expect(over.status).toBe(403);
    expect(over.body.error.code).toBe("keyword_limit_reached");
    const list = (await callWorker("/api/rank/keywords?business=own", { token }, bind(t))).body as TrackedKeywordList;
    expect(list).toMatchObject({ limit: 3, used: 3 });
    expect(list.keywords).toHaveLength(3);

    const paused = await callWorker(`/api/rank/keywords/${added.body.id}`, { method: "PATCH", token, json: { paused: true, frequency: "weekly" } }, bind(t));
    expect(paused.body).toMatchObject({ paused: true, frequency: "weekly", nextCheckAt: null });
    const csv = await callWorker(`/api/rank/keywords/${added.body.id}/export.csv`, { token }, bind(t));
    expect(csv.text.trim().split("\r\n")).toHaveLength(2);
    expect((await callWorker(`/api/rank/keywords/${added.body.id}`, { method: "DELETE", token }, bind(t))).status).toBe(200);
    expect((await callWorker(`/api/rank/keywords/${added.body.id}`, { token }, bind(t))).status).toBe(404);
  });

  it("the cron enqueues exactly the due keywords, once per period (run twice)", async () => {
    const t = rankEnv();
    const admin = await signUpAdmin();
    const token = admin.session.access_token;
    await callWorker("/api/profile", { method: "PUT", token, json: PROFILE }, bind(t));
    const ids: Record<string, string> = {};
    for (const name of ["dailyDue", "dailyFresh", "weeklyDue", "weeklyFresh", "paused", "never"]) {
      const res = await callWorker("/api/rank/keywords", { method: "POST", token, json: { own: true, keyword: uniqueKeyword(), frequency: name.startsWith("weekly") ? "weekly" : "daily" } }, bind(t));
      expect(res.status).toBe(201);
      ids[name] = res.body.id;
    }
    // The first checks (sent when added) run first.
    await drain(t);
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
    const set = (id: string, last: string | null, paused = 0) => env.DB.prepare("update tracked_keywords set last_check_at = ?, paused = ? where id = ?").bind(last, paused, id).run();
    await set(ids.dailyDue!, hoursAgo(24));
    await set(ids.dailyFresh!, hoursAgo(2));
    await set(ids.weeklyDue!, hoursAgo(24 * 7 - 0.5));
    await set(ids.weeklyFresh!, hoursAgo(48));
    await set(ids.paused!, hoursAgo(72), 1);
    await set(ids.never!, null);

    const first = await enqueueDueKeywords(t.env);
    const second = await enqueueDueKeywords(t.env);
    expect(second).toBe(0);
    const checkIds = t.sent.flatMap((m) => (m.kind === "keyword" ? m.checkIds : []));
    expect(checkIds).toHaveLength(first);
    const rows = await env.DB.prepare(`select keyword_id from keyword_checks where id in (${checkIds.map(() => "?").join(",")})`).bind(...checkIds).all<{ keyword_id: string }>();
    const mine = rows.results.map((r) => r.keyword_id).filter((id) => Object.values(ids).includes(id));
    expect(mine.sort()).toEqual([ids.dailyDue, ids.weeklyDue, ids.never].sort());
    // Checked through the queue: each once.
    await drain(t);
    for (const name of ["dailyDue", "weeklyDue", "never"]) {
      const detail = (await callWorker(`/api/rank/keywords/${ids[name]}`, { token }, bind(t))).body as TrackedKeywordDetail;
      expect(detail.checks, name).toHaveLength(2);
      expect(detail.checks.every((c) => c.map.status !== "pending"), name).toBe(true);
    }
  });

  it("records a drop as an alert and mails one digest a day", async () => {
    const t = rankEnv();
    const { token, user } = await ownerWithProfile(t);
    const added = await callWorker("/api/rank/keywords", { method: "POST", token, json: { own: true, keyword: uniqueKeyword() } }, bind(t));
    await drain(t);
    const first = (await callWorker(`/api/rank/keywords/${added.body.id}`, { token }, bind(t))).body as TrackedKeywordDetail;
    const before = first.checks[0]!.map;
    expect(before.status === "found" && before.rank <= 3, "the fake ranks the business in the top 3 from its own spot").toBe(true);
    // The business seen from a spot where the fake ranks it 4th or worse: the next check is a drop out of the top 3.
    const row = await env.DB.prepare("select business from tracked_keywords where id = ?").bind(added.body.id).first<{ business: string }>();
    const business = JSON.parse(row!.business) as { latitude: number; longitude: number };
    let lat = business.latitude;
    while (gridRank(serpLl({ lat, lng: business.longitude }, TRACKER_ZOOM)) <= 6) lat += 0.001;
    const after = gridRank(serpLl({ lat, lng: business.longitude }, TRACKER_ZOOM));
    await env.DB.prepare("update tracked_keywords set business = ?, last_check_at = ? where id = ?")
      .bind(JSON.stringify({ ...business, latitude: lat }), "2020-01-02T00:00:00.000Z", added.body.id)
      .run();
    expect(await enqueueDueKeywords(t.env)).toBeGreaterThan(0);
    await drain(t);
    const detail = (await callWorker(`/api/rank/keywords/${added.body.id}`, { token }, bind(t))).body as TrackedKeywordDetail;
    expect(detail.checks.at(-1)!.map).toEqual(after <= 20 ? { status: "found", rank: after } : { status: "not_found" });
    expect(detail.alerts).toEqual(["dropped", "left_top3"]);
    expect(await mailAlertDigests(t.env)).toBeGreaterThanOrEqual(1);
    expect(await mailAlertDigests(t.env)).toBe(0);
    const mails = await env.DB.prepare("select subject from outbox where to_email = ?").bind(user.email.toLowerCase()).all<{ subject: string }>();
    expect(mails.results.filter((m) => m.subject === "Your tracked keywords moved")).toHaveLength(1);
  });
});
