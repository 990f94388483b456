// The clients view's bulk actions (issue 41): one estimate for the whole selection (each client's cost, what is left of
// its allowance, why a client cannot run); a selection past a client's allowance or the operator's ceiling is a 402
// with the estimate before anything starts; otherwise each client's run is started by its own capability (the grid's
// points on the rank queue, the reviews' sync on the reviews queue, the month's report created and queued), and a
// client that cannot run is reported beside its name while the others go ahead. Admins only.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../../worker/platform/env";
import { getDb } from "../../../worker/platform/db/client";
import { runBulk } from "../../../worker/features/command-center/bulk";
import { api, callWorker, countOf, setAllowance, signUp, signUpAdmin } from "../helpers";
import { connectedGoogleUser } from "../integrations/google-connect";
import { queueEnv } from "../reports/reports-fixtures";

type Item = { userId: string; name: string; status: string; costUsd: number; allowanceLeftUsd: number | null; code: string | null; message: string | null };
type Estimate = { action: string; allowed: boolean; costUsd: number; ready: number; ceilingLeftUsd: number; items: Item[] };

let admin: Awaited<ReturnType<typeof signUpAdmin>>;
beforeAll(async () => {
  admin = await signUpAdmin();
});

const BUSINESS = JSON.stringify({ kind: "own", prospectId: null, name: "Ridge Roofing", area: "Austin, TX", placeId: "place-1", latitude: 30.27, longitude: -97.74 });

async function client(name: string, opts: { grid?: number } = {}) {
  const made = await signUp();
  const userId = made.user.id;
  await env.DB.prepare("update profiles set company_name = ?, company_location = 'Austin, TX' where id = ?").bind(name, userId).run();
  if (opts.grid) {
    await env.DB.prepare(
      `insert into grid_scans (id, kind, user_id, prospect_id, business, keyword, size, radius_miles, zoom, status, estimate_searches, estimate_micro, share_token, created_at, finished_at)
       values (?, 'own', ?, null, ?, 'roofer', ?, 2, 13, 'done', 9, 90000, ?, ?, ?)`,
    )
      .bind(crypto.randomUUID(), userId, BUSINESS, opts.grid, crypto.randomUUID(), new Date(Date.now() - 86400_000).toISOString(), new Date().toISOString())
      .run();
  }
  return userId;
}

const bulk = (body: unknown, estimate = false, token = admin.session.access_token) =>
  api(`/api/agency/clients/bulk${estimate ? "?estimate=1" : ""}`, { method: "POST", token, body: JSON.stringify(body) });

describe("a bulk grid", () => {
  it("estimates the whole selection client by client, without starting anything", async () => {
    const a = await client("Ridge Roofing", { grid: 3 });
    const b = await client("Peak Plumbing", { grid: 5 });
    const none = await client("New HVAC");
    const scans = await countOf("select count(*) as n from grid_scans where user_id in (?, ?)", a, b);

    const res = await bulk({ action: "run_grid", userIds: [a, b, none, admin.user.id] }, true);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const est = res.body as Estimate;
    const byId = new Map(est.items.map((i) => [i.userId, i]));
    // 3×3 = 9 searches, 5×5 = 25; a search's estimate is the meter's.
    expect(byId.get(a)).toMatchObject({ name: "Ridge Roofing", status: "ready" });
    expect(byId.get(b)!.costUsd).toBeCloseTo((byId.get(a)!.costUsd * 25) / 9, 5);
    expect(est.costUsd).toBeCloseTo(byId.get(a)!.costUsd + byId.get(b)!.costUsd, 5);
    expect(byId.get(none)).toMatchObject({ status: "skipped", code: "no_grid_yet" });
    expect(byId.get(none)!.message).toContain("No grid yet");
    expect(byId.get(admin.user.id)).toMatchObject({ status: "skipped", code: "not_a_client" });
    expect(est).toMatchObject({ allowed: true, ready: 2 });
    expect(await countOf("select count(*) as n from grid_scans where user_id in (?, ?)", a, b)).toBe(scans);
  });

  it("starts each ready client's grid on the rank queue, and says why the others did not run", async () => {
    const a = await client("Ridge Roofing", { grid: 3 });
    const none = await client("New HVAC");
    const q = queueEnv<{ kind: string; scanId: string; points: number[] }>("RANK_CHECKS");
    const ran = await runBulk(q.env, getDb(env), "run_grid", [a, none], { origin: "http://localhost", actorId: admin.user.id });
    expect("result" in ran).toBe(true);
    const result = (ran as { result: { started: number; skipped: number; items: Item[] } }).result;
    expect(result).toMatchObject({ started: 1, skipped: 1 });
    expect(result.items.find((i) => i.userId === a)!.status).toBe("started");
    // The new scan repeats the last one (keyword, size) and its nine points went to the queue.
    const scan = await env.DB.prepare("select id, keyword, size from grid_scans where user_id = ? order by created_at desc limit 1").bind(a).first<{ id: string; keyword: string; size: number }>();
    expect(scan).toMatchObject({ keyword: "roofer", size: 3 });
    expect(q.sent.filter((m) => m.scanId === scan!.id).flatMap((m) => m.points).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    // On the record: who started what for whom.
    const audit = await env.DB.prepare("select detail from audit_log where actor_id = ? and action = 'clients_bulk'").bind(admin.user.id).first<{ detail: string }>();
    expect(JSON.parse(audit!.detail).started).toContain(a);
  });

  it("is refused with 402 and the estimate when a client's allowance cannot pay for it, before anything starts", async () => {
    const rich = await client("Rich Roofing", { grid: 3 });
    const poor = await client("Poor Plumbing", { grid: 5 });
    await setAllowance(poor, 0.01, {}, admin.session.access_token);
    const before = await countOf("select count(*) as n from grid_scans where user_id in (?, ?)", rich, poor);
    const res = await bulk({ action: "run_grid", userIds: [rich, poor] });
    expect(res.status, JSON.stringify(res.body)).toBe(402);
    const error = (res.body as { error: { code: string; message: string; estimate: Estimate } }).error;
    expect(error.code).toBe("allowance_exceeded");
    expect(error.message).toContain("One client does not have enough AI allowance left");
    expect(error.estimate.items.find((i) => i.userId === poor)).toMatchObject({ status: "over_allowance", allowanceLeftUsd: 0.01 });
    expect(await countOf("select count(*) as n from grid_scans where user_id in (?, ?)", rich, poor)).toBe(before);
  });

  it("is refused with 402 when the selection's sum passes the operator's daily ceiling", async () => {
    const a = await client("Ridge Roofing", { grid: 5 });
    const b = await client("Peak Plumbing", { grid: 5 });
    // Clients with an allowance of their own (not the Free pool, which has its own share of the ceiling).
    for (const id of [a, b]) await setAllowance(id, 5, {}, admin.session.access_token);
    // Each 5×5 grid alone (25 searches, $0.375) fits a 50-cent ceiling; the two together do not.
    const tight = { SPEND_CEILING_DAILY_USD: "0.50" } as Partial<Env>;
    const est = await callWorker("/api/agency/clients/bulk?estimate=1", { method: "POST", token: admin.session.access_token, json: { action: "run_grid", userIds: [a] } }, tight);
    expect((est.body as Estimate).allowed, JSON.stringify(est.body)).toBe(true);
    const res = await callWorker("/api/agency/clients/bulk", { method: "POST", token: admin.session.access_token, json: { action: "run_grid", userIds: [a, b] } }, tight);
    expect(res.status, JSON.stringify(res.body)).toBe(402);
    expect((res.body as { error: { code: string; message: string } }).error).toMatchObject({ code: "spend_ceiling_reached" });
    expect((res.body as { error: { message: string } }).error.message).toMatch(/more than is left of today's spending limit \(\$0\.\d\d\)/);
  });
});

describe("other bulk actions", () => {
  it("syncs the reviews of connected clients and says which are not connected", async () => {
    const connected = await connectedGoogleUser();
    const plain = await client("Offline Roofing");
    const q = queueEnv<{ kind: string; userIds: string[] }>("REVIEWS");
    const ran = (await runBulk(q.env, getDb(env), "sync_reviews", [connected.user.id, plain], { origin: "http://localhost", actorId: admin.user.id })) as { result: { items: Item[] } };
    expect(ran.result.items.find((i) => i.userId === connected.user.id)).toMatchObject({ status: "started", costUsd: 0 });
    expect(ran.result.items.find((i) => i.userId === plain)).toMatchObject({ status: "skipped", code: "google_not_connected" });
    expect(q.sent).toEqual([{ kind: "sync", userIds: [connected.user.id] }]);
    // Asked again at once: the check asked a moment ago is still running, said beside its name.
    const again = (await runBulk(q.env, getDb(env), "sync_reviews", [connected.user.id], { origin: "http://localhost", actorId: admin.user.id })) as { result: { items: Item[] } };
    expect(again.result.items[0]).toMatchObject({ status: "failed", code: "sync_in_progress", message: "Their reviews are being read from Google right now." });
  });

  it("builds last month's report of each client, and will not send one that is not built", async () => {
    const a = await client("Ridge Roofing");
    const q = queueEnv<{ reportIds: string[] }>("CLIENT_REPORTS");
    const built = (await runBulk(q.env, getDb(env), "build_reports", [a], { origin: "http://localhost", actorId: admin.user.id })) as { result: { started: number } };
    expect(built.result.started).toBe(1);
    const report = await env.DB.prepare("select id, status, trigger from client_reports where user_id = ?").bind(a).first<{ id: string; status: string; trigger: string }>();
    expect(report).toMatchObject({ status: "queued", trigger: "admin" });
    expect(q.sent.flatMap((m) => m.reportIds)).toContain(report!.id);

    const send = await bulk({ action: "send_reports", userIds: [a] }, true);
    expect((send.body as Estimate).items[0]).toMatchObject({ status: "skipped", code: "client_report_not_ready" });
    const refused = await bulk({ action: "send_reports", userIds: [a] });
    expect(refused.status).toBe(402);
    expect((refused.body as { error: { code: string } }).error.code).toBe("nothing_to_run");
  });
});

describe("who may", () => {
  it("is for admins, and checks its input", async () => {
    const user = await signUp();
    expect((await bulk({ action: "run_grid", userIds: [user.user.id] }, false, user.session.access_token)).status).toBe(403);
    expect((await bulk({ action: "paint_fence", userIds: [user.user.id] })).status).toBe(400);
    const tooMany = await bulk({ action: "run_grid", userIds: Array.from({ length: 51 }, (_, i) => `u${i}`) });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain("Select at most 50 clients at a time");
    expect((await bulk({ action: "run_grid", userIds: [] })).status).toBe(400);
  });
});
