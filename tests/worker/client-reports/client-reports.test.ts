// Monthly client reports (issue 30) through the real routes, the real client-reports consumer and real migrations: each
// figure of a built report checked against the stored data it comes from (calls from the fake Google, SoLV of the
// grid scans, reviews, the AI mention rate), a client without Google gets the connect explainer, a missing source is a
// missing section, the cron run twice builds and mails each due report once, a switched-off client gets nothing, a
// rebuild bumps the version and keeps the link, and who may see and do what.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sweepClientReports } from "../../../worker/features/client-reports/run";
import type { ClientReportsMessage, Env } from "../../../worker/platform/env";
import type { ClientReportPayload } from "../../../worker/features/client-reports/rules/client-report";
import { connectedGoogleUser } from "../integrations/google-connect";
import { callWorker, signUp, signUpAdmin } from "../helpers";
import { deliver, recorder } from "../reports/reports-fixtures";

function reportsEnv() {
  const q = recorder<ClientReportsMessage>();
  return { env: { ...env, CLIENT_REPORTS: q.queue } as unknown as Env, sent: q.sent };
}
type T = ReturnType<typeof reportsEnv>;

/** Delivers what was queued, two messages a batch as wrangler.toml says; each message delivered `times` times. */
async function drain(t: T, times = 1) {
  for (let round = 0; t.sent.length > 0 && round < 5; round++) {
    const now = t.sent.splice(0);
    for (let k = 0; k < times; k++) for (let i = 0; i < now.length; i += 2) await deliver("client-reports", now.slice(i, i + 2).map((body) => ({ body })), t.env);
  }
}

const call = (t: T, path: string, init: Parameters<typeof callWorker>[1] = {}) => callWorker(path, init, t.env as unknown as Record<string, unknown>);

/** The fake Google's daily series: each metric's base plus day % 3 plus month % 2, and 0 every 7th day. */
function expectedTotal(base: number, year: number, month: number): number {
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  let n = 0;
  for (let day = 1; day <= days; day++) if (day % 7 !== 0) n += base + (day % 3) + (month % 2);
  return n;
}

async function seedGridScan(userId: string, keyword: string, finishedAt: string, ranks: (number | null)[]) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "insert into grid_scans (id, kind, user_id, business, keyword, size, radius_miles, zoom, status, estimate_searches, estimate_micro, share_token, created_at, finished_at) values (?, 'own', ?, '{}', ?, 3, 2, 13, 'done', 9, 0, ?, ?, ?)",
  )
    .bind(id, userId, keyword, crypto.randomUUID().replace(/-/g, ""), finishedAt, finishedAt)
    .run();
  await env.DB.batch(
    ranks.map((rank, idx) => env.DB.prepare("insert into grid_points (scan_id, idx, row, col, lat, lng, status, rank) values (?, ?, ?, ?, 30, -97, 'done', ?)").bind(id, idx, Math.floor(idx / 3), idx % 3, rank)),
  );
  return id;
}

async function seedReview(userId: string, stars: number, createTime: string, replied: boolean) {
  const gid = crypto.randomUUID();
  await env.DB.prepare(
    "insert into reviews (id, user_id, location_name, google_review_id, google_name, reviewer_name, stars, create_time, update_time, reply_comment, reply_update_time, reply_state) values (?, ?, 'accounts/1001/locations/2001', ?, ?, 'A customer', ?, ?, ?, ?, ?, ?)",
  )
    .bind(crypto.randomUUID(), userId, gid, `accounts/1001/locations/2001/reviews/${gid}`, stars, createTime, createTime, replied ? "Thank you!" : null, replied ? createTime : null, replied ? "published" : "none")
    .run();
}

async function seedAiScan(userId: string, finishedAt: string, k: number, n: number, low: number, high: number) {
  const summary = { overall: { k, n, mention_rate: k / n, low, high, share_of_voice: 0.25, share_low: 0.1, share_high: 0.4 }, perEngine: [], figures: [], citedDomains: [], engineErrors: [] };
  await env.DB.prepare(
    "insert into ai_scans (id, owner_key, kind, user_id, business, status, samples, engines, questions, total, done, summary, actions, created_at, finished_at) values (?, ?, 'own', ?, '{}', 'done', 5, '[\"perplexity\"]', '[{\"id\":\"q1\",\"text\":\"best roofer\"}]', ?, ?, ?, '[\"Get listed on Yelp.\"]', ?, ?)",
  )
    .bind(crypto.randomUUID(), `own:${userId}`, userId, n, n, JSON.stringify(summary), finishedAt, finishedAt)
    .run();
}

async function report(id: string): Promise<{ status: string; version: number; share_token: string; payload: string | null; sent_at: string | null; summary_source: string | null; summary_note: string | null }> {
  return (await env.DB.prepare("select * from client_reports where id = ?").bind(id).first())!;
}

async function mailsTo(email: string): Promise<{ subject: string; body: string }[]> {
  return (await env.DB.prepare("select subject, body from outbox where to_email = ? and kind = 'client_report'").bind(email.toLowerCase()).all<{ subject: string; body: string }>()).results;
}

describe("a built report", () => {
  it("holds each figure from the stored data it comes from, and leaves out what has no data", async () => {
    const t = reportsEnv();
    const admin = await signUpAdmin();
    const client = await connectedGoogleUser();
    const userId = client.user.id;
    await env.DB.prepare("update profiles set company_name = 'Ridge Roofing', time_zone = 'UTC' where id = ?").bind(userId).run();
    // Grid: October's scan (3 of 9 points in the top 3, 2 misses) beside September's (1 of 9).
    await seedGridScan(userId, "roofer", "2026-10-20T10:00:00.000Z", [1, 2, 3, 4, 5, 6, 7, null, null]);
    await seedGridScan(userId, "roofer", "2026-09-20T10:00:00.000Z", [1, 4, 5, 6, 7, 8, 9, 10, null]);
    // Reviews: 3 in October (5, 4, 3 stars; 2 replied), 1 in September (5), 1 in November (not counted).
    await seedReview(userId, 5, "2026-10-02T10:00:00.000Z", true);
    await seedReview(userId, 4, "2026-10-12T10:00:00.000Z", true);
    await seedReview(userId, 3, "2026-10-30T10:00:00.000Z", false);
    await seedReview(userId, 5, "2026-09-15T10:00:00.000Z", false);
    await seedReview(userId, 1, "2026-11-02T10:00:00.000Z", false);
    // AI Visibility: October's scan named the business in 4 of 10 answers; September's in 1 of 10.
    await seedAiScan(userId, "2026-10-10T10:00:00.000Z", 4, 10, 0.168, 0.687);
    await seedAiScan(userId, "2026-09-10T10:00:00.000Z", 1, 10, 0.018, 0.404);
    // The guard (issue 41): Google's edits the agency rejected or accepted in October count in "What we did"; one still
    // open, and one decided in November, do not.
    for (const [status, resolvedAt] of [["rejected", "2026-10-12T10:00:00.000Z"], ["accepted", "2026-10-20T10:00:00.000Z"], ["open", null], ["rejected", "2026-11-02T10:00:00.000Z"]] as const) {
      await env.DB.prepare("insert into gbp_guard_changes (id, user_id, location_name, field, source, before, after, status, detected_at, resolved_at) values (?, ?, ?, 'phone', 'google', '\"(512) 555-0100\"', '\"(512) 555-0199\"', ?, '2026-10-10T10:00:00.000Z', ?)")
        .bind(crypto.randomUUID(), userId, `accounts/1/locations/${crypto.randomUUID()}`, status, resolvedAt)
        .run();
    }

    const built = await call(t, "/api/client-reports", { method: "POST", token: admin.session.access_token, json: { userId, month: "2026-10" } });
    expect(built.status, JSON.stringify(built.body)).toBe(202);
    expect(built.body.report).toMatchObject({ status: "queued", version: 1, month: "2026-10", shareUrl: null });
    await drain(t);

    const detail = await call(t, `/api/client-reports/${built.body.report.id}`, { token: admin.session.access_token });
    expect(detail.status).toBe(200);
    const p = detail.body.payload as ClientReportPayload;
    expect(detail.body.report.status).toBe("ready");
    expect(p.monthLabel).toBe("October 2026");
    // Google: the fake's calls for October and September, computed on their own.
    expect(p.google.status).toBe("ok");
    if (p.google.status === "ok") {
      expect(p.google.calls.current).toBe(expectedTotal(2, 2026, 10));
      expect(p.google.calls.previous).toBe(expectedTotal(2, 2026, 9));
    }
    // Grid: SoLV 3/9 = 33.3 % now, 1/9 = 11.1 % before; ATRP (1+2+3+4+5+6+7+21+21)/9 = 7.8.
    expect(p.grid).toHaveLength(1);
    expect(p.grid![0]!.current).toMatchObject({ solv: 33.3, atrp: 7.8, ranks: [1, 2, 3, 4, 5, 6, 7, null, null] });
    expect(p.grid![0]!.previous?.solv).toBe(11.1);
    // Reviews: 3 new against 1, month's average 4, overall 4.3 (17/4: November's is after the month), 2 of 3 replied.
    expect(p.reviews).toMatchObject({ newReviews: { current: 3, previous: 1, delta: 2 }, monthAverage: 4, overallAverage: 4.3, totalReviews: 4, replyRate: 67 });
    // AI Visibility: the stored overall figure with its interval, and September's beside it.
    expect(p.aiVisibility).toMatchObject({ mentionRate: 0.4, low: 0.168, high: 0.687, answers: 10, previous: { mentionRate: 0.1 } });
    // Nothing stored for these: missing sections, not zeros.
    expect(p.citations).toBeNull();
    expect(p.tracker).toBeNull();
    expect(p.posts).toBeNull();
    expect(p.headline.map((h) => [h.key, h.value])).toEqual([
      ["calls", String(expectedTotal(2, 2026, 10))],
      ["solv", "33.3%"],
      ["reviews", "3"],
    ]);
    expect(p.whatWeDid).toContainEqual({ key: "replies", label: "Review replies published", count: 2 });
    expect(p.whatWeDid).toContainEqual({ key: "profile_edits", label: "Profile edits by Google checked and kept or undone", count: 2 });
    expect(p.whatsNext).toContainEqual({ text: "Get listed on Yelp.", href: "/tools/ai-visibility" });
    // No AI here: the template wrote the summary from the same figures, and the admin is told why.
    expect(p.summary.source).toBe("template");
    expect(p.summary.text).toContain("33.3%");
    expect(detail.body.report.summarySource).toBe("template");
    expect(detail.body.report.summaryNote).toBeTruthy();
    // A preview is not mailed.
    expect(await mailsTo(client.email)).toHaveLength(0);

    // The client reads it too, without the admin's fields; another user gets a 404.
    const own = await call(t, `/api/client-reports/${built.body.report.id}`, { token: client.session.access_token });
    expect(own.status).toBe(200);
    expect(own.body.report.summaryNote).toBeUndefined();
    expect(own.body.payload.headline).toHaveLength(3);
    const stranger = await signUp();
    expect((await call(t, `/api/client-reports/${built.body.report.id}`, { token: stranger.session.access_token })).status).toBe(404);

    // Rebuild: version 2, same link, built again from the same data.
    const before = await report(built.body.report.id);
    const again = await call(t, "/api/client-reports", { method: "POST", token: admin.session.access_token, json: { userId, month: "2026-10" } });
    expect(again.status).toBe(202);
    expect(again.body.report).toMatchObject({ id: built.body.report.id, version: 2, status: "queued" });
    await drain(t, 2); // each message twice: built once
    const after = await report(built.body.report.id);
    expect(after).toMatchObject({ status: "ready", version: 2, share_token: before.share_token });
    expect((JSON.parse(after.payload!) as ClientReportPayload).grid![0]!.current.solv).toBe(33.3);

    // Send now: one branded mail with the figures, the link and the PDF's link; sent_at recorded.
    const sent = await call(t, `/api/client-reports/${built.body.report.id}/send`, { method: "POST", token: admin.session.access_token });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.report.sentTo).toEqual([client.email.toLowerCase()]);
    const mails = await mailsTo(client.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain(`/shared/client-reports/${before.share_token}`);
    expect(mails[0]!.body).toContain(`/shared/client-reports/${before.share_token}.pdf`);
    expect(mails[0]!.body).toContain("Share of Local Voice");
    // Its subject names the month and the business; each headline figure is a line of its own, beside its change.
    const payload = JSON.parse(after.payload!) as ClientReportPayload;
    expect(mails[0]!.subject).toBe(`October 2026 results for ${payload.business.name}`);
    for (const h of payload.headline) expect(mails[0]!.body).toContain(`${h.label}: ${h.value}`);
  });

  it("without Google the section is the connect explainer, and with nothing stored every section is left out", async () => {
    const t = reportsEnv();
    const admin = await signUpAdmin();
    const client = await signUp();
    const built = await call(t, "/api/client-reports", { method: "POST", token: admin.session.access_token, json: { userId: client.user.id, month: "2026-10" } });
    expect(built.status).toBe(202);
    await drain(t);
    const p = JSON.parse((await report(built.body.report.id)).payload!) as ClientReportPayload;
    expect(p.google).toEqual({ status: "not_connected" });
    expect([p.grid, p.tracker, p.aiVisibility, p.citations, p.reviews, p.posts]).toEqual([null, null, null, null, null, null]);
    expect(p.headline).toEqual([]);
    expect(p.whatsNext.map((w) => w.href)).toContain("/integrations");
  });
});

describe("the monthly cron", () => {
  it("on the 1st in the client's zone builds and mails each due report once however often it runs; off gets nothing", async () => {
    const t = reportsEnv();
    const admin = await signUpAdmin();
    const on = await signUp();
    const off = await signUp();
    const chicago = await signUp();
    await env.DB.prepare("update profiles set time_zone = 'America/Chicago' where id = ?").bind(chicago.user.id).run();
    for (const [u, enabled] of [
      [on, true],
      [off, false],
      [chicago, true],
    ] as const) {
      const put = await call(t, `/api/client-reports/settings/${u.user.id}`, { method: "PUT", token: admin.session.access_token, json: { enabled } });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
    }
    // 1 Dec 2026 02:00 UTC: the 1st in UTC, still 30 November in Chicago.
    const first = new Date("2026-12-01T02:00:00.000Z");
    await sweepClientReports(t.env, first);
    await sweepClientReports(t.env, first);
    await drain(t, 2);
    const rows = async (userId: string) => (await env.DB.prepare("select month, status, sent_at from client_reports where user_id = ?").bind(userId).all<{ month: string; status: string; sent_at: string | null }>()).results;
    expect(await rows(on.user.id)).toEqual([{ month: "2026-11", status: "ready", sent_at: expect.any(String) }]);
    expect(await rows(off.user.id)).toEqual([]);
    expect(await rows(chicago.user.id)).toEqual([]);
    expect(await mailsTo(on.email)).toHaveLength(1);
    expect(await mailsTo(off.email)).toHaveLength(0);
    // Later that day (midnight in Chicago has passed): Chicago's report, and nobody's twice.
    await sweepClientReports(t.env, new Date("2026-12-01T07:00:00.000Z"));
    await drain(t, 2);
    expect((await rows(chicago.user.id)).map((r) => r.month)).toEqual(["2026-11"]);
    expect(await rows(on.user.id)).toHaveLength(1);
    expect(await mailsTo(on.email)).toHaveLength(1);
    expect(await mailsTo(chicago.email)).toHaveLength(1);
  });
});

describe("the mail", () => {
  it("mails once per recipient: a double click, a click within a minute, a send taken again after its worker died", async () => {
    const t = reportsEnv();
    const admin = await signUpAdmin();
    const client = await signUp();
    const put = await call(t, `/api/client-reports/settings/${client.user.id}`, { method: "PUT", token: admin.session.access_token, json: { enabled: false, recipients: ["one@example.com", "two@example.com"] } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const built = await call(t, "/api/client-reports", { method: "POST", token: admin.session.access_token, json: { userId: client.user.id, month: "2026-10" } });
    await drain(t);
    const id = built.body.report.id as string;
    const send = () => call(t, `/api/client-reports/${id}/send`, { method: "POST", token: admin.session.access_token });
    const count = async () => [(await mailsTo("one@example.com")).length, (await mailsTo("two@example.com")).length];

    // A double click: one send, the other click told why.
    const clicks = await Promise.all([send(), send()]);
    expect(clicks.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(["client_report_busy", "client_report_just_sent"]).toContain(clicks.find((r) => r.status === 409)!.body.error.code);
    expect(await count()).toEqual([1, 1]);
    // Again within the minute: refused.
    const soon = await send();
    expect(soon.status).toBe(409);
    expect(soon.body.error.code).toBe("client_report_just_sent");
    expect(await count()).toEqual([1, 1]);

    // The last send 20 minutes ago: sent again to both, and a double click still sends once.
    const ago = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
    await env.DB.prepare("update client_reports set sent_at = ?, mail_claimed_at = ? where id = ?").bind(ago(20), ago(20), id).run();
    const before = await report(id);
    expect((await Promise.all([send(), send()])).map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await count()).toEqual([2, 2]);
    // Its worker "died" after mailing the first address: sent_at never recorded, the second mail never stored, and the
    // claim is now stale. The send taken again mails only the address it had not reached.
    await env.DB.prepare("update client_reports set sent_at = ?, mail_claimed_at = ? where id = ?").bind(before.sent_at, ago(11), id).run();
    await env.DB.prepare("delete from outbox where id = (select id from outbox where to_email = 'two@example.com' and kind = 'client_report' order by created_at desc limit 1)").run();
    expect(await count()).toEqual([2, 1]);
    expect((await send()).status).toBe(200);
    expect(await count()).toEqual([2, 2]);
    expect((await report(id)).sent_at).not.toBe(before.sent_at);
  });

  it("mails a report whose worker died between its build and its mail: on the redelivered message or by the cron, once", async () => {
    const t = reportsEnv();
    const admin = await signUpAdmin();
    const client = await signUp();
    const ids: string[] = [];
    for (const month of ["2026-09", "2026-10"]) {
      const built = await call(t, "/api/client-reports", { method: "POST", token: admin.session.access_token, json: { userId: client.user.id, month } });
      ids.push(built.body.report.id as string);
    }
    await drain(t);
    // Both built, both due to be mailed (as a cron-made report is), neither mailed: the worker died after the build.
    const old = new Date(Date.now() - 11 * 60_000).toISOString();
    await env.DB.prepare("update client_reports set mail_when_ready = 1, updated_at = ? where user_id = ?").bind(old, client.user.id).run();
    expect(await mailsTo(client.email)).toHaveLength(0);
    // The first one's message comes again: it is mailed.
    await deliver("client-reports", [{ body: { reportIds: [ids[0]!] } }], t.env);
    expect(await mailsTo(client.email)).toHaveLength(1);
    // The cron mails the other, and nothing twice however often it runs.
    await sweepClientReports(t.env);
    await sweepClientReports(t.env);
    await deliver("client-reports", [{ body: { reportIds: ids } }], t.env);
    expect(await mailsTo(client.email)).toHaveLength(2);
    for (const id of ids) expect((await report(id)).sent_at).toEqual(expect.any(String));
  });
});

describe("permissions and input", () => {
  it("lets an admin list every client, a user only their own, and checks settings", async () => {
    const t = reportsEnv();
    const admin = await signUpAdmin();
    const user = await signUp();
    const other = await signUp();
    const list = await call(t, "/api/client-reports", { token: admin.session.access_token });
    expect(list.status).toBe(200);
    expect(list.body.role).toBe("admin");
    expect(list.body.clients.some((c: { userId: string }) => c.userId === user.user.id)).toBe(true);
    expect(list.body.clients.some((c: { userId: string }) => c.userId === admin.user.id)).toBe(false);
    const mine = await call(t, "/api/client-reports", { token: user.session.access_token });
    expect(mine.body).toEqual({ role: "user", settings: { userId: user.user.id, enabled: false, recipients: [], pending: [], enabledBy: null }, reports: [] });
    // A user switches their own on, not someone else's; builds and sends are the admin's.
    const self = await call(t, `/api/client-reports/settings/${user.user.id}`, { method: "PUT", token: user.session.access_token, json: { enabled: true, recipients: ["Owner@Example.com"] } });
    // An address the user adds waits for its owner's confirmation (issue 39).
    expect(self.body.settings).toEqual({ userId: user.user.id, enabled: true, recipients: ["owner@example.com"], pending: ["owner@example.com"], enabledBy: "user" });
    expect((await call(t, `/api/client-reports/settings/${other.user.id}`, { method: "PUT", token: user.session.access_token, json: { enabled: true } })).status).toBe(403);
    expect((await call(t, "/api/client-reports", { method: "POST", token: user.session.access_token, json: { userId: user.user.id } })).status).toBe(403);
    // Bad input: clear codes.
    const bad = await call(t, `/api/client-reports/settings/${user.user.id}`, { method: "PUT", token: user.session.access_token, json: { enabled: true, recipients: ["not-an-address"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("validation_failed");
    const many = await call(t, `/api/client-reports/settings/${user.user.id}`, { method: "PUT", token: user.session.access_token, json: { enabled: true, recipients: ["a@x.com", "b@x.com", "c@x.com", "d@x.com", "e@x.com", "f@x.com"] } });
    expect(many.status).toBe(400);
    const future = await call(t, "/api/client-reports", { method: "POST", token: admin.session.access_token, json: { userId: user.user.id, month: "2099-01" } });
    expect(future.body.error.code).toBe("client_report_month_not_over");
    const notReady = await call(t, "/api/client-reports", { method: "POST", token: admin.session.access_token, json: { userId: user.user.id, month: "2026-08" } });
    const send = await call(t, `/api/client-reports/${notReady.body.report.id}/send`, { method: "POST", token: admin.session.access_token });
    expect(send.status).toBe(409);
    expect(send.body.error.code).toBe("client_report_not_ready");
    const garbled = await call(t, "/api/client-reports", { method: "POST", token: admin.session.access_token, body: "{not json", headers: { "Content-Type": "application/json" } });
    expect(garbled.status).toBe(400);
  });
});
