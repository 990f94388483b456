// POST /api/shared/reports/:id/events: validation, de-duplication per visit, link previewers and the agency's
// own views excluded, D1 rate limit, never an error status; and what the admin sees (list, sort, timeline).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BEACON_EVENTS_PER_VISIT, BEACONS_PER_IP_PER_MINUTE } from "../../../worker/features/reports/rules/events";
import type { Env } from "../../../worker/platform/env";
import { newVisitToken, VISIT_TOKEN_META } from "../../../worker/features/reports/visit-token";
import { api, awayFromWindowEdge, signUp, signUpAdmin, testIp, WINDOW_EDGE_TEST_TIMEOUT_MS } from "../helpers";
import { readyReport, seedReport } from "./reports-fixtures";

const BROWSER = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";

/** A beacon as the page sends it: the visit id goes out inside the visit token the page was served with. */
async function beacon(id: string, body: unknown, opts: { ua?: string; ip?: string; unsigned?: boolean } = {}) {
  const signed =
    body && typeof body === "object" && /^[0-9a-f-]{36}$/.test(String((body as { visit?: unknown }).visit)) && !opts.unsigned
      ? { ...body, visit: await newVisitToken(env as Env, id, Date.now(), (body as { visit: string }).visit) }
      : body;
  return api(`/api/shared/reports/${id}/events`, {
    method: "POST",
    body: typeof signed === "string" ? signed : JSON.stringify(signed),
    headers: { "Content-Type": "text/plain;charset=UTF-8", "User-Agent": opts.ua ?? BROWSER, "CF-Connecting-IP": opts.ip ?? testIp() },
  });
}

const visit = () => crypto.randomUUID();

async function events(reportId: string) {
  const { results } = await env.DB.prepare("select event, section, visit_id from report_events where report_id = ? order by id").bind(reportId).all();
  return results;
}

describe("POST /api/shared/reports/:id/events", () => {
  it("counts only visits the worker signed into the page, and at most BEACON_EVENTS_PER_VISIT events per visit", async () => {
    const report = await readyReport();
    const forged = await beacon(report.id, { event: "opened", visit: visit() }, { unsigned: true });
    expect(forged.status).toBe(204);
    expect(forged.headers.get("X-Beacon")).toBe("unsigned_visit");
    // A token for another report does not count here either.
    const other = await readyReport();
    const elsewhere = await newVisitToken(env as Env, other.id);
    expect((await api(`/api/shared/reports/${report.id}/events`, { method: "POST", body: JSON.stringify({ event: "opened", visit: elsewhere }), headers: { "User-Agent": BROWSER } })).headers.get("X-Beacon")).toBe("unsigned_visit");
    // The page carries a fresh token, and the beacon it signs counts.
    const page = await api(`/shared/reports/${report.id}`, { headers: { "User-Agent": BROWSER } });
    const token = new RegExp(`<meta name="${VISIT_TOKEN_META}" content="([^"]+)">`).exec(page.body as string)![1]!;
    const ok = await api(`/api/shared/reports/${report.id}/events`, { method: "POST", body: JSON.stringify({ event: "opened", visit: token }), headers: { "User-Agent": BROWSER, "CF-Connecting-IP": testIp() } });
    expect(ok.status).toBe(202);
    for (let i = 1; i < BEACON_EVENTS_PER_VISIT; i++) {
      await api(`/api/shared/reports/${report.id}/events`, { method: "POST", body: JSON.stringify({ event: "print", visit: token }), headers: { "User-Agent": BROWSER, "CF-Connecting-IP": testIp() } });
    }
    const over = await api(`/api/shared/reports/${report.id}/events`, { method: "POST", body: JSON.stringify({ event: "chat_started", visit: token }), headers: { "User-Agent": BROWSER, "CF-Connecting-IP": testIp() } });
    expect(over.headers.get("X-Beacon")).toBe("rate_limited");
  });

  it("records an open (202) and ignores the same visit's repeat (204), counting visits", async () => {
    const report = await readyReport();
    const v1 = visit();
    const first = await beacon(report.id, { event: "opened", visit: v1 });
    expect(first.status).toBe(202);
    expect(first.headers.get("X-Beacon")).toBe("recorded");
    const again = await beacon(report.id, { event: "opened", visit: v1 });
    expect(again.status).toBe(204);
    expect(again.headers.get("X-Beacon")).toBe("duplicate");
    expect((await beacon(report.id, { event: "opened", visit: visit() })).status).toBe(202);

    expect(await beacon(report.id, { event: "section_viewed", section: "google-ads", visit: v1 })).toMatchObject({ status: 202 });
    expect((await beacon(report.id, { event: "section_viewed", section: "google-ads", visit: v1 })).headers.get("X-Beacon")).toBe("duplicate");
    expect((await beacon(report.id, { event: "section_viewed", section: "meta-tags", visit: v1 })).status).toBe(202);
    expect((await beacon(report.id, { event: "print", visit: v1 })).status).toBe(202);
    expect((await beacon(report.id, { event: "chat_started", visit: v1 })).status).toBe(202);

    expect(await events(report.id)).toHaveLength(6);
    const stats = await env.DB.prepare("select opens, first_opened_at, last_opened_at from report_view_stats where report_id = ?")
      .bind(report.id)
      .first<{ opens: number; first_opened_at: string; last_opened_at: string }>();
    expect(stats?.opens).toBe(2);
    expect(stats!.last_opened_at >= stats!.first_opened_at).toBe(true);
  });

  it("accepts only known event names, sections and visit ids, and never answers an error status", async () => {
    const report = await readyReport();
    const bad: unknown[] = [
      { event: "hacked", visit: visit() },
      { event: "section_viewed", visit: visit() },
      { event: "section_viewed", section: "secret-admin-panel", visit: visit() },
      { event: "opened", section: "google-ads", visit: visit() },
      { event: "opened", visit: "x" },
      { event: "opened" },
      "not json at all",
      JSON.stringify({ event: "opened", visit: visit(), pad: "x".repeat(2000) }),
    ];
    for (const body of bad) {
      const res = await beacon(report.id, body);
      expect(res.status).toBe(204);
      expect(res.headers.get("X-Beacon")).toBe("invalid");
    }
    expect(await events(report.id)).toHaveLength(0);
  });

  it("ignores unknown report ids and reports that are not ready yet", async () => {
    for (const id of [crypto.randomUUID(), "x".repeat(300)]) {
      const res = await beacon(id, { event: "opened", visit: visit() });
      expect(res.status).toBe(204);
      expect(res.headers.get("X-Beacon")).toBe("unknown_report");
    }
    const queued = await seedReport();
    expect((await beacon(queued.id, { event: "opened", visit: visit() })).headers.get("X-Beacon")).toBe("not_ready");
    expect(await events(queued.id)).toHaveLength(0);
  });

  it("does not count link previewers or the agency's own signed-in browsers", async () => {
    const report = await readyReport();
    for (const ua of ["facebookexternalhit/1.1", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "WhatsApp/2.23.20.0", "Twitterbot/1.0", ""]) {
      const res = await beacon(report.id, { event: "opened", visit: visit() }, { ua });
      expect(res.status).toBe(204);
      expect(res.headers.get("X-Beacon")).toBe("previewer");
    }
    const staff = await beacon(report.id, { event: "opened", visit: visit(), staff: true });
    expect(staff.status).toBe(204);
    expect(staff.headers.get("X-Beacon")).toBe("staff");
    expect(await events(report.id)).toHaveLength(0);
  });

  it("rate-limits one address in D1 and still answers 204", { timeout: WINDOW_EDGE_TEST_TIMEOUT_MS }, async () => {
    const report = await readyReport();
    const ip = testIp();
    // The window is a fixed minute: the beacons are sent away from its edge, so all of them land in one window (they
    // split across two and none was limited once in CI).
    await awayFromWindowEdge(60, 15_000);
    const outcomes: string[] = [];
    for (let i = 0; i < BEACONS_PER_IP_PER_MINUTE + 3; i++) {
      const res = await beacon(report.id, { event: "opened", visit: visit() }, { ip });
      expect([202, 204]).toContain(res.status);
      outcomes.push(res.headers.get("X-Beacon")!);
    }
    const limited = outcomes.filter((o) => o === "rate_limited").length;
    expect(limited).toBeGreaterThanOrEqual(1);
    expect(outcomes.filter((o) => o === "recorded").length).toBe(outcomes.length - limited);
    expect((await beacon(report.id, { event: "opened", visit: visit() }, { ip: testIp() })).headers.get("X-Beacon")).toBe("recorded");
  });
});

describe("what the admin sees", () => {
  it("the prospects list carries opens and last open, and sorts by most recently opened", async () => {
    const admin = await signUpAdmin();
    const opened = await readyReport({ name: `Opened Roofing ${crypto.randomUUID().slice(0, 6)}` });
    const never = await readyReport();
    await beacon(opened.id, { event: "opened", visit: visit() });
    await beacon(opened.id, { event: "opened", visit: visit() });

    const newest = await api("/api/prospects?limit=200", { token: admin.session.access_token });
    expect(newest.status).toBe(200);
    const row = newest.body.prospects.find((p: { id: string }) => p.id === opened.prospect.id);
    expect(row.report).toMatchObject({ id: opened.id, opens: 2, last_opened_at: expect.any(String) });
    expect(newest.body.prospects.find((p: { id: string }) => p.id === never.prospect.id).report).toMatchObject({ opens: 0, last_opened_at: null });
    // Newest first: the never-opened report was made after the opened one.
    const ids = newest.body.prospects.map((p: { id: string }) => p.id);
    expect(ids.indexOf(never.prospect.id)).toBeLessThan(ids.indexOf(opened.prospect.id));

    const sorted = await api("/api/prospects?sort=opened&limit=1", { token: admin.session.access_token });
    expect(sorted.body.prospects[0].id).toBe(opened.prospect.id);
    // The next page continues after it (keyset on the last open time).
    const next = await api(`/api/prospects?sort=opened&limit=200&cursor=${sorted.body.nextCursor}`, { token: admin.session.access_token });
    const rest = next.body.prospects.map((p: { id: string }) => p.id);
    expect(rest).not.toContain(opened.prospect.id);
    expect(rest).toContain(never.prospect.id);

    const badSort = await api("/api/prospects?sort=sideways", { token: admin.session.access_token });
    expect(badSort.status).toBe(400);
  });

  it("GET /api/reports/:id/views gives the timeline to admins only", async () => {
    const report = await readyReport();
    const v = visit();
    await beacon(report.id, { event: "opened", visit: v });
    await beacon(report.id, { event: "section_viewed", section: "seo-potential", visit: v });
    await beacon(report.id, { event: "chat_started", visit: v });

    expect((await api(`/api/reports/${report.id}/views`)).status).toBe(401);
    const user = await signUp();
    expect((await api(`/api/reports/${report.id}/views`, { token: user.session.access_token })).status).toBe(403);

    const admin = await signUpAdmin();
    const res = await api(`/api/reports/${report.id}/views`, { token: admin.session.access_token });
    expect(res.status).toBe(200);
    expect(res.body.stats).toMatchObject({ opens: 1, visits: 1, chat_started: 1, prints: 0, first_opened_at: expect.any(String) });
    expect(res.body.sections).toEqual([{ section: "seo-potential", visits: 1 }]);
    expect(res.body.events.map((e: { event: string }) => e.event).sort()).toEqual(["chat_started", "opened", "section_viewed"]);

    const missing = await api(`/api/reports/${crypto.randomUUID()}/views`, { token: admin.session.access_token });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
  });
});
