// The free-audit widget (issue 21): admins' widgets, the public script and frame with their origin rules, a visitor's
// submission through the real audits and report-jobs consumers to the one mail, the bot check against the fake
// siteverify, the three limits, and a lead that waits for its owner's allowance until the cron starts it.
import { env } from "cloudflare:test";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../../worker/platform/db/client";
import { setMonthlyBudget } from "../../../worker/platform/metering/budgets";
import { addToWindow } from "../../../worker/platform/db/rate-limits";
import { reserve, settle } from "../../../worker/platform/metering/store";
import { CATEGORIES } from "../../../worker/domain/categories";
import { capsFor, meterSettings, toMicro, widgetCapKey, WIDGET_CAP_MESSAGE } from "../../../worker/domain/metering";
import { deriveKeyword } from "../../../worker/features/prospects/rules/prospect";
import { LEAD_MIN_ALLOWANCE_USD, LEADS_PER_ADDRESS, LEADS_PER_WIDGET_DAY, LEADS_PER_WIDGET_HOUR } from "../../../worker/features/widgets/rules/widgets";
import type { AuditStepMessage, Env, MailOutMessage, ReportJobMessage, WebhooksOutMessage } from "../../../worker/platform/env";
import { sweepWidgetLeads } from "../../../worker/features/widgets/leads";
import { FAKE_TURNSTILE_PASS, FAKE_TURNSTILE_SECRET, FAKE_TURNSTILE_SITE_KEY, fakeTurnstilePass } from "../../fakes/turnstile-data";
import { drain, type AuditEnv } from "../audits/audit-fixtures";
import { callWorker, countOf, signUp, signUpAdmin, testIp, uniqueEmail, type WorkerCall } from "../helpers";
import { deliver, recorder } from "../reports/reports-fixtures";

const HOST = "https://www.agency-site.test";
const OTHER = "https://evil.example";
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (ch) => ch.charCodeAt(0));

type T = AuditEnv & { reportJobs: ReportJobMessage[]; webhooks: WebhooksOutMessage[] };

function widgetEnv(overrides: Partial<Env> = {}): T {
  const audits = recorder<AuditStepMessage>();
  const jobs = recorder<ReportJobMessage>();
  const hooks = recorder<WebhooksOutMessage>();
  return {
    env: { ...env, AUDITS: audits.queue, REPORT_JOBS: jobs.queue, WEBHOOKS_OUT: hooks.queue, ...overrides } as Env,
    sent: audits.sent,
    reportJobs: jobs.sent,
    webhooks: hooks.sent,
  };
}

const call = (t: T, path: string, init: WorkerCall = {}) => callWorker(path, init, t.env as unknown as Record<string, unknown>);

let admin: Awaited<ReturnType<typeof signUpAdmin>>;
beforeAll(async () => {
  admin = await signUpAdmin();
});

async function createWidget(t: T, body: Record<string, unknown> = {}) {
  const res = await call(t, "/api/widgets", { method: "POST", token: admin.session.access_token, json: { name: "Homepage", origins: [HOST], ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.widget as { id: string; origins: string[]; accent: string };
}

function submit(t: T, widgetId: string, fields: Record<string, unknown> = {}, opts: { origin?: string | null; ip?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.origin !== null) headers.Origin = opts.origin ?? HOST;
  return call(t, `/api/widget/${widgetId}/leads`, {
    method: "POST",
    headers,
    ip: opts.ip,
    json: { businessName: "Bright Plumbing", location: "Austin, TX", email: uniqueEmail("visitor"), consent: true, ...fields },
  });
}

/** A new agency owner's widget, with the owner's monthly allowance at 0: its leads wait for room. */
async function spentOwnersWidget(name: string) {
  const owner = await signUpAdmin();
  const t = widgetEnv();
  const res = await callWorker("/api/widgets", { method: "POST", token: owner.session.access_token, json: { name, origins: [HOST] } }, t.env as never);
  await setMonthlyBudget(getDb(env), owner.user.id, 0, admin.user.id);
  return { owner, t, widgetId: res.body.widget.id as string };
}

const outboxCount = (to: string) => countOf("select count(*) as n from outbox where to_email = ? and kind = 'widget_report_ready'", to);

describe("admin widgets", () => {
  it("creates, lists, edits and deletes a widget; origins are validated and normalised", async () => {
    const t = widgetEnv();
    const bad = await call(t, "/api/widgets", { method: "POST", token: admin.session.access_token, json: { name: "X", origins: ["https://ok.test/path"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("validation_failed");
    const w = await createWidget(t, { origins: ["HTTPS://Www.Agency-Site.test/", HOST], accent: "#AA3300" });
    expect(w.origins).toEqual([HOST]);
    expect(w.accent).toBe("#aa3300");
    const list = await call(t, "/api/widgets", { token: admin.session.access_token });
    expect(list.body.widgets.map((x: { id: string }) => x.id)).toContain(w.id);
    const patched = await call(t, `/api/widgets/${w.id}`, { method: "PATCH", token: admin.session.access_token, json: { name: "Footer", askPhone: true } });
    expect(patched.status).toBe(200);
    expect(patched.body.widget).toMatchObject({ name: "Footer", askPhone: true, origins: [HOST] });
    const gone = await call(t, `/api/widgets/${w.id}`, { method: "DELETE", token: admin.session.access_token });
    expect(gone.status).toBe(204);
    expect((await call(t, `/api/widgets/${w.id}`, { token: admin.session.access_token })).status).toBe(404);
  });

  it("refuses a regular user", async () => {
    const t = widgetEnv();
    const user = await signUp();
    const res = await call(t, "/api/widgets", { method: "POST", token: user.session.access_token, json: { name: "Mine" } });
    expect(res.status).toBe(403);
  });

  it("stores a logo in R2 and the script inlines it, loading nothing else from the app", async () => {
    const t = widgetEnv();
    const w = await createWidget(t);
    const form = new FormData();
    form.set("file", new File([PNG], "logo.png", { type: "image/png" }));
    const up = await call(t, `/api/widgets/${w.id}/logo`, { method: "POST", token: admin.session.access_token, body: form });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body.widget.logoUrl).toMatch(/^\/api\/files\/logos\//);
    const script = await call(t, `/widget/${w.id}.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    expect(script.text).toContain("data:image/png;base64,");
    // The only app URL in it is the API it posts to: no stylesheet, script or image from the app.
    expect(script.text).not.toMatch(/\/api\/files\/|\.css|\/assets\//);
    // Nothing in it names the product (it runs on the customer's site, its host element's class included).
    expect(script.text).not.toMatch(/porchlight/i);
    expect(script.text).toContain('host.className = "audit-widget"');
  });
});

describe("the widget's script size", () => {
  it("is at most 15 KB gzip", async () => {
    const t = widgetEnv();
    const w = await createWidget(t, { askPhone: true });
    const script = await call(t, `/widget/${w.id}.js`);
    const gzip = gzipSync(Buffer.from(script.text)).length;
    console.log(`widget script: ${script.text.length} bytes, ${gzip} bytes gzip`);
    expect(gzip).toBeLessThanOrEqual(15 * 1024);
  });
});

describe("origins", () => {
  it("answers a preflight from a listed origin with CORS headers, and refuses another site's", async () => {
    const t = widgetEnv();
    const w = await createWidget(t);
    const ok = await call(t, `/api/widget/${w.id}/leads`, { method: "OPTIONS", headers: { Origin: HOST, "Access-Control-Request-Method": "POST" } });
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(HOST);
    const refused = await call(t, `/api/widget/${w.id}/leads`, { method: "OPTIONS", headers: { Origin: OTHER, "Access-Control-Request-Method": "POST" } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect(refused.body.error.code).toBe("widget_origin_refused");
    const post = await submit(t, w.id, {}, { origin: OTHER });
    expect(post.status).toBe(403);
    expect(post.body.error.code).toBe("widget_origin_refused");
  });

  it("lets only the listed origins frame the frame page", async () => {
    const t = widgetEnv();
    const w = await createWidget(t, { origins: [HOST, "http://127.0.0.1:9999"] });
    const res = await call(t, `/widget/${w.id}/frame`);
    expect(res.status).toBe(200);
    // The frame page mounts in a neutral element: nothing in its source names the product.
    expect(res.text).toContain('<div id="audit-widget"></div>');
    expect(res.text).not.toMatch(/porchlight/i);
    expect(res.headers.get("content-security-policy")).toMatch(new RegExp(`frame-ancestors 'self' ${HOST} http://127\\.0\\.0\\.1:9999(;|$)`));
    const none = await createWidget(t, { origins: [] });
    expect((await call(t, `/widget/${none.id}/frame`)).headers.get("content-security-policy")).toMatch(/frame-ancestors 'self'(;|$)/);
  });

  it("an inactive widget mounts nothing and takes no lead", async () => {
    const t = widgetEnv();
    const w = await createWidget(t, { active: false });
    expect((await call(t, `/widget/${w.id}.js`)).status).toBe(404);
    const post = await submit(t, w.id);
    expect(post.status).toBe(404);
    expect(post.body.error.code).toBe("widget_not_found");
  });
});

describe("a visitor's submission", () => {
  it("creates a prospect of the visitor's trade, its audit and report; the report's readiness mails the visitor once", async () => {
    const t = widgetEnv();
    const w = await createWidget(t, { name: "Spring promo" });
    const email = uniqueEmail("visitor");
    const res = await submit(t, w.id, { email, website: "", trade: "Plumbing" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBe(HOST);
    expect(res.body.status).toBe("running");
    const leadId = res.body.leadId as string;
    const lead = await env.DB.prepare("select * from widget_leads where id = ?").bind(leadId).first<Record<string, string>>();
    const prospect = await env.DB.prepare("select * from prospects where id = ?").bind(lead!.prospect_id).first<Record<string, string>>();
    expect(prospect).toMatchObject({ name: "Bright Plumbing", area: "Austin, TX", email, tag: "Plumbing", user_id: admin.user.id });
    // The keyword is the trade's, never a word of the business name.
    expect(prospect!.keyword).toBe(deriveKeyword("Plumbing", "Austin, TX"));
    expect(lead!.audit_id).toBeTruthy();
    expect(t.sent.length).toBeGreaterThan(0);
    expect(t.reportJobs).toEqual([{ reportId: lead!.report_id }]);
    // The admin's list counts the widget's leads.
    const list = await call(t, "/api/widgets", { token: admin.session.access_token });
    expect(list.body.widgets.find((x: { id: string }) => x.id === w.id).leads).toBe(1);

    const running = await call(t, `/api/widget/${w.id}/leads/${leadId}`, { headers: { Origin: HOST } });
    expect(running.status).toBe(200);
    expect(running.body.reportUrl).toBeNull();
    expect(running.body.steps.map((s: { id: string }) => s.id)).toEqual(["find", "fetch", "speed", "rank", "report"]);

    await drain(t);
    const jobs = t.reportJobs.splice(0);
    await deliver("report-jobs", jobs.map((body) => ({ body })), t.env);
    expect(await outboxCount(email)).toBe(1);

    const done = await call(t, `/api/widget/${w.id}/leads/${leadId}`, { headers: { Origin: HOST } });
    expect(done.body.status).toBe("ready");
    expect(done.body.reportUrl).toBe(`http://localhost:8787/shared/reports/${lead!.report_id}`);
    // A redelivered job, another poll and the cron: still one mail.
    await deliver("report-jobs", jobs.map((body) => ({ body })), t.env);
    await sweepWidgetLeads(t.env);
    await call(t, `/api/widget/${w.id}/leads/${leadId}`, { headers: { Origin: HOST } });
    expect(await outboxCount(email)).toBe(1);
    const mail = await env.DB.prepare("select body from outbox where to_email = ?").bind(email).first<{ body: string }>();
    expect(mail!.body).toContain(`/shared/reports/${lead!.report_id}`);
  });

  it("tells the agency: a widget_lead alert in the owner's bell, widget.lead and prospect.created to subscribed webhooks", async () => {
    const t = widgetEnv();
    const hook = await call(t, "/api/webhooks", {
      method: "POST",
      token: admin.session.access_token,
      json: { url: `${env.TEST_WEBHOOKS_URL}/hooks/widget-${crypto.randomUUID().slice(0, 8)}`, events: ["widget.lead", "prospect.created"] },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const w = await createWidget(t, { name: "Alerting" });
    const email = uniqueEmail("visitor");
    const res = await submit(t, w.id, { email, website: "brightplumbing.example" });
    expect(res.status).toBe(201);
    const lead = await env.DB.prepare("select prospect_id, report_id from widget_leads where id = ?").bind(res.body.leadId).first<{ prospect_id: string; report_id: string }>();
    const alerts = await env.DB.prepare("select user_id, kind from notifications where prospect_id = ?").bind(lead!.prospect_id).all<{ user_id: string; kind: string }>();
    expect(alerts.results).toEqual([{ user_id: admin.user.id, kind: "widget_lead" }]);
    const deliveries = await env.DB.prepare("select event_type, body from webhook_deliveries where endpoint_id = ? order by event_type").bind(hook.body.endpoint.id).all<{ event_type: string; body: string }>();
    expect(deliveries.results.map((d) => d.event_type)).toEqual(["prospect.created", "widget.lead"]);
    const body = JSON.parse(deliveries.results[1]!.body);
    expect(body).toMatchObject({ type: "widget.lead", data: { prospect_id: lead!.prospect_id, report_id: lead!.report_id, name: "Bright Plumbing", area: "Austin, TX", email, website: "https://brightplumbing.example", widget: "Alerting" } });
    expect(JSON.parse(deliveries.results[0]!.body).data).toMatchObject({ source: "widget" });
    expect(t.webhooks).toHaveLength(2);
  });

  it("refuses a field the widget does not ask, and a missing consent, with the field named", async () => {
    const t = widgetEnv();
    const w = await createWidget(t, { askPhone: false });
    const phone = await submit(t, w.id, { phone: "512 555 0100" });
    expect(phone.status).toBe(400);
    expect(phone.body.error.fields.phone).toBeTruthy();
    const consent = await submit(t, w.id, { consent: false });
    expect(consent.status).toBe(400);
    expect(consent.body.error.fields.consent).toBeTruthy();
  });
});

describe("the bot check (Turnstile)", () => {
  const turnstile = () => ({ TURNSTILE_SITE_KEY: FAKE_TURNSTILE_SITE_KEY, TURNSTILE_SECRET_KEY: FAKE_TURNSTILE_SECRET, TURNSTILE_BASE_URL: env.TEST_TURNSTILE_BASE_URL });

  it("renders the challenge, refuses a missing or failed token and takes a verified one", async () => {
    const t = widgetEnv(turnstile());
    const w = await createWidget(t);
    const script = await call(t, `/widget/${w.id}.js`);
    expect(script.text).toContain(FAKE_TURNSTILE_SITE_KEY);
    const missing = await submit(t, w.id);
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("bot_check_failed");
    const failed = await submit(t, w.id, { turnstileToken: "forged" });
    expect(failed.status).toBe(400);
    expect(failed.body.error).toMatchObject({ code: "bot_check_failed", message: "We could not check that you are not a robot. Please try again." });
    const down = await submit(t, w.id, { turnstileToken: "down" });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe("bot_check_unavailable");
    const passed = await submit(t, w.id, { turnstileToken: fakeTurnstilePass("www.agency-site.test") });
    expect(passed.status).toBe(201);
  });

  it("refuses a token whose challenge was solved on a site that is not the widget's (siteverify's hostname)", async () => {
    const t = widgetEnv(turnstile());
    const w = await createWidget(t);
    // Cloudflare's documented success example, as it is: solved on example.com.
    const elsewhere = await submit(t, w.id, { turnstileToken: FAKE_TURNSTILE_PASS });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.code).toBe("bot_check_failed");
    const other = await submit(t, w.id, { turnstileToken: fakeTurnstilePass("evil.example") });
    expect(other.body.error.code).toBe("bot_check_failed");
    expect(await env.DB.prepare("select count(*) as n from widget_leads where widget_id = ?").bind(w.id).first<{ n: number }>()).toEqual({ n: 0 });
    // The frame page solves it on the app's own host.
    const frame = await submit(t, w.id, { turnstileToken: fakeTurnstilePass("localhost") }, { origin: "http://localhost:8787" });
    expect(frame.status, JSON.stringify(frame.body)).toBe(201);
  });

  it("in production, serves no active widget without the bot check; with it, serves it", async () => {
    const t = widgetEnv();
    const w = await createWidget(t);
    const production = widgetEnv({ ENVIRONMENT: "production", REQUIRE_ADMIN_MFA: "false" });
    const script = await call(production, `/widget/${w.id}.js`);
    expect(script.status).toBe(404);
    expect(script.text).not.toContain(w.id);
    expect((await call(production, `/widget/${w.id}/frame`)).status).toBe(404);
    const post = await submit(production, w.id);
    expect(post.status).toBe(503);
    expect(post.body.error).toMatchObject({ code: "widget_bot_check_missing", message: "This form is not available right now." });
    expect(production.sent).toEqual([]);
    // The Widgets page says why.
    const list = await call(production, "/api/widgets", { token: admin.session.access_token });
    expect(list.body.protection).toMatchObject({ botCheck: "missing" });
    expect(list.body.widgets.find((x: { id: string }) => x.id === w.id)).toMatchObject({ active: true, served: false });

    const guarded = widgetEnv({ ENVIRONMENT: "production", REQUIRE_ADMIN_MFA: "false", ...turnstile() });
    const served = await call(guarded, `/widget/${w.id}.js`);
    expect(served.status).toBe(200);
    expect(served.text).toContain(FAKE_TURNSTILE_SITE_KEY);
    expect((await submit(guarded, w.id, { turnstileToken: fakeTurnstilePass("www.agency-site.test") })).status).toBe(201);
    const after = await call(guarded, `/api/widgets/${w.id}`, { token: admin.session.access_token });
    expect(after.body).toMatchObject({ protection: { botCheck: "on" }, widget: { served: true } });
  });
});

describe("limits", () => {
  it("per client address (IPv6 per /64)", async () => {
    const t = widgetEnv();
    const w = await createWidget(t);
    for (let i = 0; i < LEADS_PER_ADDRESS.max; i++) expect((await submit(t, w.id, {}, { ip: `2001:db8:1:2::${i + 1}` })).status).toBe(201);
    const over = await submit(t, w.id, {}, { ip: "2001:db8:1:2:ffff::9" });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe("widget_address_limit");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await submit(t, w.id, {}, { ip: "2001:db8:1:3::1" })).status).toBe(201);
  });

  it.each([
    ["hour", LEADS_PER_WIDGET_HOUR],
    ["day", LEADS_PER_WIDGET_DAY],
  ] as const)("per widget per %s", async (period, limit) => {
    const t = widgetEnv();
    const w = await createWidget(t);
    await addToWindow(getDb(env), { key: `widget-${period}:${w.id}`, windowSeconds: limit.windowSeconds }, limit.max);
    const over = await submit(t, w.id, {}, { ip: testIp() });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe(`widget_${period}_limit`);
    expect(await countOf("select count(*) as n from widget_leads where widget_id = ?", w.id)).toBe(0);
  });
});

describe("the owner's allowance", () => {
  it("spent: the lead is taken and waits; the cron starts it once there is room", async () => {
    const { owner, t, widgetId } = await spentOwnersWidget("Budget");

    const sent = await submit(t, widgetId);
    expect(sent.status).toBe(201);
    expect(sent.body.status).toBe("waiting_allowance");
    // No mail provider here: the widget says the report shows on the page, not that it follows by email.
    expect(sent.body).toMatchObject({ mail: "none", message: expect.stringMatching(/show here/) });
    expect(t.reportJobs).toEqual([]);
    expect(t.sent).toEqual([]);
    const progress = await call(t, `/api/widget/${widgetId}/leads/${sent.body.leadId}`, { headers: { Origin: HOST } });
    expect(progress.body).toMatchObject({ status: "waiting_allowance", reportUrl: null });

    // Still spent: the cron leaves it waiting.
    await sweepWidgetLeads(t.env);
    expect(t.reportJobs).toEqual([]);

    await setMonthlyBudget(getDb(env), owner.user.id, 5, admin.user.id);
    const swept = await sweepWidgetLeads(t.env);
    expect(swept.started).toBe(1);
    const lead = await env.DB.prepare("select * from widget_leads where id = ?").bind(sent.body.leadId).first<Record<string, unknown>>();
    expect(lead).toMatchObject({ status: "running", queued_for_allowance: 0 });
    expect(t.reportJobs).toEqual([{ reportId: lead!.report_id }]);
    expect(t.sent.length).toBeGreaterThan(0);
    // Started once: the next sweep finds nothing waiting.
    expect((await sweepWidgetLeads(t.env)).started).toBe(0);
  });
});

describe("the visitor's trade", () => {
  it("is asked from the profile's categories; it tags the prospect and makes its keyword; none is Other", async () => {
    const t = widgetEnv();
    const w = await createWidget(t);
    const script = await call(t, `/widget/${w.id}.js`);
    for (const category of CATEGORIES) expect(script.text).toContain(JSON.stringify(category));
    const bad = await submit(t, w.id, { trade: "Astrology" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.trade).toBeTruthy();

    const prospectOf = async (leadId: string) =>
      env.DB.prepare("select p.tag, p.keyword from prospects p join widget_leads l on l.prospect_id = p.id where l.id = ?").bind(leadId).first<{ tag: string; keyword: string }>();
    // An HVAC firm whose name says "Cool": HVAC and the HVAC keyword, not "cool in austin" tagged Roofing.
    const hvac = await submit(t, w.id, { businessName: "Cool Breeze Co", trade: "HVAC" }, { ip: testIp() });
    expect(hvac.status, JSON.stringify(hvac.body)).toBe(201);
    expect(await prospectOf(hvac.body.leadId)).toEqual({ tag: "HVAC", keyword: deriveKeyword("HVAC", "Austin, TX") });
    expect((await prospectOf(hvac.body.leadId))!.keyword).not.toMatch(/cool/i);
    const none = await submit(t, w.id, { businessName: "Cool Breeze Co" }, { ip: testIp() });
    expect(none.status).toBe(201);
    expect((await prospectOf(none.body.leadId))!.tag).toBe("Other");
  });
});

describe("the widget's daily spending cap", () => {
  it("is set per widget (default $2.00) and shown with today's spend and leads", async () => {
    const t = widgetEnv();
    const w = await createWidget(t);
    expect(w).toMatchObject({ dailyCapUsd: 2, today: { leads: 0, spentUsd: 0 } });
    const patched = await call(t, `/api/widgets/${w.id}`, { method: "PATCH", token: admin.session.access_token, json: { dailyCapUsd: 0.75 } });
    expect(patched.body.widget.dailyCapUsd).toBe(0.75);
    const bad = await call(t, `/api/widgets/${w.id}`, { method: "PATCH", token: admin.session.access_token, json: { dailyCapUsd: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.dailyCapUsd).toBeTruthy();
    const cents = await call(t, `/api/widgets/${w.id}`, { method: "PATCH", token: admin.session.access_token, json: { dailyCapUsd: 0.125 } });
    expect(cents.status).toBe(400);
  });

  it("refuses a lead before anything is stored or paid once the cap has no room for one", async () => {
    const t = widgetEnv();
    const w = await createWidget(t, { dailyCapUsd: LEAD_MIN_ALLOWANCE_USD - 0.01 });
    const refused = await submit(t, w.id);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: "widget_spend_cap_reached", message: "This form has given all the free audits it can today. Please try again tomorrow." });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await env.DB.prepare("select count(*) as n from widget_leads where widget_id = ?").bind(w.id).first<{ n: number }>()).toEqual({ n: 0 });
    expect(t.sent).toEqual([]);
    expect(t.reportJobs).toEqual([]);
  });

  it("holds exactly: the leads' paid calls are counted on the widget's counter and refused past the cap", async () => {
    const t = widgetEnv();
    const cap = LEAD_MIN_ALLOWANCE_USD;
    const w = await createWidget(t, { dailyCapUsd: cap });
    // Two leads admitted while the counter is empty; their audits' searches together want more than the cap.
    const leads = [];
    for (const name of ["Bright Plumbing", "Austin Drain Pros"]) {
      const res = await submit(t, w.id, { businessName: name, trade: "Plumbing" }, { ip: testIp() });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      leads.push(res.body.leadId as string);
    }
    await drain(t);
    const key = widgetCapKey(w.id, new Date());
    const counter = await env.DB.prepare("select reserved_micro + settled_micro as used from meter_counters where key = ?").bind(key).first<{ used: number }>();
    expect(counter!.used).toBeGreaterThan(0);
    expect(counter!.used).toBeLessThanOrEqual(toMicro(cap));
    const refusedSteps = await env.DB.prepare(
      "select count(*) as n from audit_steps s join widget_leads l on l.audit_id = s.audit_id where l.widget_id = ? and s.reason = ?",
    )
      .bind(w.id, WIDGET_CAP_MESSAGE)
      .first<{ n: number }>();
    expect(refusedSteps!.n).toBeGreaterThan(0);
    // The next visitor is refused at once, and the page shows the day's spend and leads.
    expect((await submit(t, w.id, {}, { ip: testIp() })).body.error.code).toBe("widget_spend_cap_reached");
    const detail = await call(t, `/api/widgets/${w.id}`, { token: admin.session.access_token });
    expect(detail.body.widget).toMatchObject({ dailyCapUsd: cap, today: { leads: 2, spentUsd: counter!.used / 1_000_000 } });
  });

  it("counts only the lead's own audit and first report: the agency's later work on the prospect is not the widget's", async () => {
    const t = widgetEnv();
    const w = await createWidget(t);
    const res = await submit(t, w.id);
    const lead = await env.DB.prepare("select prospect_id, audit_id from widget_leads where id = ?").bind(res.body.leadId).first<{ prospect_id: string; audit_id: string }>();
    const { auditPayer } = await import("../../../worker/features/widgets/guards");
    const base = { kind: "user" as const, userId: admin.user.id, allowanceUsd: null, pool: "agency" as const, emailConfirmed: true };
    expect(await auditPayer(getDb(env), base, { id: lead!.audit_id, prospectId: lead!.prospect_id })).toMatchObject({ widget: { id: w.id, dailyCapUsd: 2 } });
    expect(await auditPayer(getDb(env), base, { id: crypto.randomUUID(), prospectId: lead!.prospect_id })).toEqual(base);
    // The lead's first report is the widget's; once written, a regeneration is the agency's own.
    const { reportPayer } = await import("../../../worker/features/widgets/guards");
    const reportId = (await env.DB.prepare("select report_id from widget_leads where id = ?").bind(res.body.leadId).first<{ report_id: string }>())!.report_id;
    expect(await reportPayer(getDb(env), base, reportId)).toMatchObject({ widget: { id: w.id } });
    await drain(t);
    await deliver("report-jobs", t.reportJobs.splice(0).map((body) => ({ body })), t.env);
    expect(await reportPayer(getDb(env), base, reportId)).toEqual(base);
  });

  it("a waiting lead starts only on a day its widget's cap has room, even when its owner's allowance has", async () => {
    const { owner, t, widgetId } = await spentOwnersWidget("Capped");
    const sent = await submit(t, widgetId);
    expect(sent.body.status).toBe("waiting_allowance");
    // The widget's day is spent (through the meter, as its leads' calls would spend it); the owner's allowance is raised.
    const payer = { kind: "user" as const, userId: owner.user.id, allowanceUsd: null, pool: "agency" as const, emailConfirmed: true, widget: { id: widgetId, dailyCapUsd: 2 } };
    const caps = capsFor(payer, meterSettings(env), new Date()).filter((c) => c.scope === "widget");
    const taken = await reserve(getDb(env), caps, toMicro(2));
    expect(taken.ok).toBe(true);
    if (taken.ok) await settle(getDb(env), taken.reservation, toMicro(2));
    await setMonthlyBudget(getDb(env), owner.user.id, 5, admin.user.id);
    expect((await sweepWidgetLeads(t.env)).started).toBe(0);
    expect(t.reportJobs).toEqual([]);
    expect((await submit(t, widgetId, {}, { ip: testIp() })).body.error.code).toBe("widget_spend_cap_reached");
  });
});

describe("the visitor's mail", () => {
  it("goes at most once a day to one address, across every widget", async () => {
    const t = widgetEnv();
    const email = uniqueEmail("twice");
    const first = await createWidget(t, { name: "First" });
    const second = await createWidget(t, { name: "Second" });
    const a = await submit(t, first.id, { email }, { ip: testIp() });
    const b = await submit(t, second.id, { email: email.toUpperCase() }, { ip: testIp() });
    expect([a.status, b.status]).toEqual([201, 201]);
    await drain(t);
    await deliver("report-jobs", t.reportJobs.splice(0).map((body) => ({ body })), t.env);
    await sweepWidgetLeads(t.env);
    expect(await outboxCount(email)).toBe(1);
    const outcomes = await env.DB.prepare("select mail_outcome from widget_leads where id in (?, ?) order by mail_outcome").bind(a.body.leadId, b.body.leadId).all<{ mail_outcome: string }>();
    expect(outcomes.results.map((r) => r.mail_outcome)).toEqual(["limited", "sent"]);
  });

  it("carries none of the visitor's words: the agency's name and the report link, in subject, text and HTML", async () => {
    // Anyone can type any address and any business name: the name must not reach that inbox.
    const owner = await signUpAdmin();
    const t = widgetEnv();
    const named = await callWorker("/api/profile", { method: "PUT", token: owner.session.access_token, json: { company_name: "Ridge Growth Agency" } }, t.env as never);
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    const created = await callWorker("/api/widgets", { method: "POST", token: owner.session.access_token, json: { name: "Homepage", origins: [HOST] } }, t.env as never);
    const widgetId = created.body.widget.id as string;
    const email = uniqueEmail("stranger");
    const planted = "Claim your refund at refunds-now.example";
    const res = await submit(t, widgetId, { email, businessName: planted }, { ip: testIp() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const lead = await env.DB.prepare("select report_id from widget_leads where id = ?").bind(res.body.leadId).first<{ report_id: string }>();
    await drain(t);
    await deliver("report-jobs", t.reportJobs.splice(0).map((body) => ({ body })), t.env);
    const mail = await env.DB.prepare("select subject, body, html from outbox where to_email = ? and kind = 'widget_report_ready'").bind(email).first<{ subject: string; body: string; html: string }>();
    expect(mail).not.toBeNull();
    for (const part of [mail!.subject, mail!.body, mail!.html]) {
      expect(part).not.toContain("refunds-now");
      expect(part).not.toContain("Claim your refund");
    }
    expect(mail!.body).toContain("Ridge Growth Agency");
    expect(mail!.html).toContain("Ridge Growth Agency");
    expect(mail!.body).toContain(`/shared/reports/${lead!.report_id}`);
  });

  it("is promised by the widget only when a mail provider will really send it", async () => {
    const none = widgetEnv();
    const w = await createWidget(none);
    const kept = await submit(none, w.id, {}, { ip: testIp() });
    expect(kept.body.mail).toBe("none");

    const mailOut = recorder<MailOutMessage>();
    const mailing = widgetEnv({ MAIL_PROVIDER: "resend", MAIL_API_KEY: "k", MAIL_BASE_URL: env.TEST_MAIL_BASE_URL, MAIL_OUT: mailOut.queue });
    const email = uniqueEmail("promised");
    const sent = await submit(mailing, w.id, { email }, { ip: testIp() });
    expect(sent.body.mail).toBe("will_send");
    await drain(mailing);
    await deliver("report-jobs", mailing.reportJobs.splice(0).map((body) => ({ body })), mailing.env);
    const ready = await call(mailing, `/api/widget/${w.id}/leads/${sent.body.leadId}`, { headers: { Origin: HOST } });
    expect(ready.body).toMatchObject({ status: "ready", mail: "sent" });
    expect(await outboxCount(email)).toBe(1);
    expect(mailOut.sent.length).toBeGreaterThan(0);
    // The same address again today: no second mail, and the widget promises none.
    const again = await submit(mailing, w.id, { email }, { ip: testIp() });
    expect(again.body.mail).toBe("none");
  });

  it("a waiting lead without mail is told to keep the page open, not that the report follows by email", async () => {
    const { t, widgetId } = await spentOwnersWidget("No mail");
    const sent = await submit(t, widgetId);
    expect(sent.body).toMatchObject({ status: "waiting_allowance", mail: "none" });
    expect(sent.body.message).not.toMatch(/email/);
  });
});
