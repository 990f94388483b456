// Alerts to the agency (issue 21): shared-report beacons and the public chat raise alerts for the prospect's owner (else
// every admin); the bell's list, unread count and mark-as-read see only the user's own; per-kind settings; mail at once
// for leads, the rest in a digest of at most one an hour; view-as reads, never writes.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../worker/platform/db/client";
import { ALERT_KINDS } from "../../../worker/platform/notifications/rules/lead-events";
import { READ_MOST_SECTIONS, TRACKED_SECTIONS } from "../../../worker/features/reports/rules/events";
import type { Env, MailOutMessage, WebhooksOutMessage } from "../../../worker/platform/env";
import { emitAgencyEvent, emitProspectEvent } from "../../../worker/platform/notifications/emit";
import { mailAlerts } from "../../../worker/platform/notifications/mail";
import { newVisitToken } from "../../../worker/features/reports/visit-token";
import { api, callWorker, signUp, signUpAdmin, testIp } from "../helpers";
import { recorder, seedReport } from "../reports/reports-fixtures";

const BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";

/** A ready report whose prospect `userId` owns (null: nobody: every admin hears of it). */
async function ownedReport(userId: string | null) {
  const seeded = await seedReport("", { queued: false });
  await env.DB.batch([
    env.DB.prepare("update prospects set user_id = ? where id = ?").bind(userId, seeded.prospect.id),
    env.DB.prepare("update seo_reports set status = 'ready' where id = ?").bind(seeded.id),
  ]);
  return seeded;
}

async function beacon(reportId: string, visit: string, event: string, section?: string) {
  const token = await newVisitToken(env as Env, reportId, Date.now(), visit);
  const res = await callWorker(
    `/api/shared/reports/${reportId}/events`,
    { method: "POST", body: JSON.stringify({ event, visit: token, ...(section ? { section } : {}) }), headers: { "Content-Type": "text/plain", "User-Agent": BROWSER }, ip: testIp() },
    { WEBHOOKS_OUT: recorder<WebhooksOutMessage>().queue },
  );
  expect(res.headers.get("X-Beacon")).toBe("recorded");
}

async function bell(token: string, query = "") {
  const res = await api(`/api/notifications${query}`, { token });
  expect(res.status).toBe(200);
  return res.body as { notifications: { id: string; kind: string; text: string; reportId: string | null; read: boolean }[]; unread: number; nextCursor: string | null };
}

function mailEnv() {
  const mail = recorder<MailOutMessage>();
  const e = { ...env, MAIL_PROVIDER: "resend", MAIL_API_KEY: "k", MAIL_BASE_URL: env.TEST_MAIL_BASE_URL, MAIL_OUT: mail.queue, WEBHOOKS_OUT: recorder<WebhooksOutMessage>().queue } as Env;
  return { env: e, mail: mail.sent };
}

async function subjects(ids: { mailId: string }[]) {
  const out: { subject: string; body: string }[] = [];
  for (const { mailId } of ids) out.push((await env.DB.prepare("select subject, body from outbox where id = ?").bind(mailId).first<{ subject: string; body: string }>())!);
  return out;
}

describe("alerts from the shared report", () => {
  it("first open alerts the owner once; a re-open within 7 days does not, one after 7 days does", async () => {
    const owner = await signUp();
    const other = await signUp();
    const report = await ownedReport(owner.user.id);
    await beacon(report.id, crypto.randomUUID(), "opened");
    await beacon(report.id, crypto.randomUUID(), "opened");
    let list = await bell(owner.session.access_token);
    expect(list.notifications.map((n) => n.kind)).toEqual(["report_opened"]);
    expect(list.notifications[0]).toMatchObject({ reportId: report.id, read: false, text: `${report.prospect.name} opened their report for the first time` });
    expect(list.unread).toBe(1);
    // Somebody else's prospect is not in another user's bell.
    expect((await bell(other.session.access_token)).notifications).toEqual([]);

    await env.DB.prepare("update report_view_stats set last_opened_at = ? where report_id = ?").bind(new Date(Date.now() - 8 * 86_400_000).toISOString(), report.id).run();
    await beacon(report.id, crypto.randomUUID(), "opened");
    list = await bell(owner.session.access_token);
    expect(list.notifications.map((n) => n.kind)).toEqual(["report_reopened", "report_opened"]);
  });

  it("read most of it in one visit, printed, chat started: one alert each per visit", async () => {
    const owner = await signUp();
    const report = await ownedReport(owner.user.id);
    const visit = crypto.randomUUID();
    for (const section of TRACKED_SECTIONS.slice(0, READ_MOST_SECTIONS - 1)) await beacon(report.id, visit, "section_viewed", section);
    expect((await bell(owner.session.access_token)).notifications).toEqual([]);
    for (const section of TRACKED_SECTIONS.slice(READ_MOST_SECTIONS - 1)) await beacon(report.id, visit, "section_viewed", section);
    await beacon(report.id, visit, "print");
    await beacon(report.id, visit, "chat_started");
    const kinds = (await bell(owner.session.access_token)).notifications.map((n) => n.kind).sort();
    expect(kinds).toEqual(["chat_started", "report_printed", "report_read"]);
  });

  it("a prospect without an owner alerts every admin, not the other users", async () => {
    const admin = await signUpAdmin();
    const user = await signUp();
    const report = await ownedReport(null);
    await beacon(report.id, crypto.randomUUID(), "opened");
    expect((await bell(admin.session.access_token)).notifications.some((n) => n.reportId === report.id)).toBe(true);
    expect((await bell(user.session.access_token)).notifications).toEqual([]);
  });

  it("the public chat's contact details alert the owner and queue chat.lead_captured", async () => {
    const owner = await signUp();
    const report = await ownedReport(owner.user.id);
    const hooks = recorder<WebhooksOutMessage>();
    await env.DB.prepare("insert into webhook_endpoints (id, url, events, secret_ciphertext) values (?, ?, ?, 'x')").bind(crypto.randomUUID(), `${env.TEST_WEBHOOKS_URL}/hooks/lead`, '["chat.lead_captured"]').run();
    const say = (content: string) =>
      callWorker(`/api/shared/chat/${report.id}/messages`, { method: "POST", json: { messages: [{ role: "user", content }], session_id: visitor } }, { WEBHOOKS_OUT: hooks.queue });
    const visitor = crypto.randomUUID();
    expect((await say("Do you fix leaks?")).status).toBe(200);
    expect((await bell(owner.session.access_token)).notifications).toEqual([]);
    expect((await say("I'm Sam Lee, sam@example.com, call me")).status).toBe(200);
    const list = await bell(owner.session.access_token);
    expect(list.notifications.map((n) => n.kind)).toEqual(["chat_lead"]);
    expect(hooks.sent).toHaveLength(1);
    const delivery = await env.DB.prepare("select event_type, body from webhook_deliveries where id = ?").bind(hooks.sent[0]!.deliveryId).first<{ event_type: string; body: string }>();
    expect(delivery!.event_type).toBe("chat.lead_captured");
    expect(JSON.parse(delivery!.body).data).toMatchObject({ report_id: report.id, email: "sam@example.com", contact_name: "Sam Lee" });
  });
});

describe("the bell", () => {
  it("pages newest first, marks one and all read, and ignores ids of others", async () => {
    const owner = await signUp();
    const stranger = await signUp();
    const report = await ownedReport(owner.user.id);
    for (let i = 0; i < 3; i++) {
      await emitProspectEvent(env as Env, { prospectId: report.prospect.id, reportId: report.id, alert: "report_printed", webhook: null, at: new Date(Date.now() + i * 1000).toISOString(), dedupeKey: `p${i}`, data: {} });
    }
    const token = owner.session.access_token;
    const first = await bell(token, "?limit=2");
    expect(first.notifications).toHaveLength(2);
    expect(first.unread).toBe(3);
    const second = await bell(token, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.notifications).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    expect((await api("/api/notifications?cursor=nope", { token })).status).toBe(400);

    const foreign = await api("/api/notifications/read", { method: "POST", token: stranger.session.access_token, body: JSON.stringify({ ids: [first.notifications[0]!.id] }) });
    expect(foreign.body).toEqual({ marked: 0, unread: 0 });
    const one = await api("/api/notifications/read", { method: "POST", token, body: JSON.stringify({ ids: [first.notifications[0]!.id] }) });
    expect(one.body).toEqual({ marked: 1, unread: 2 });
    const all = await api("/api/notifications/read", { method: "POST", token, body: JSON.stringify({ all: true }) });
    expect(all.body).toEqual({ marked: 2, unread: 0 });
    expect((await api("/api/notifications/read", { method: "POST", token, body: JSON.stringify({ ids: [] }) })).status).toBe(400);
    expect((await api("/api/notifications", {})).status).toBe(401);
  });

  it("view-as reads the viewed user's alerts and cannot mark them read or change settings", async () => {
    const admin = await signUpAdmin();
    const owner = await signUp();
    const report = await ownedReport(owner.user.id);
    await emitProspectEvent(env as Env, { prospectId: report.prospect.id, reportId: report.id, alert: "chat_started", webhook: null, at: new Date().toISOString(), dedupeKey: "v", data: {} });
    const seen = await api("/api/notifications", { token: admin.session.access_token, viewAs: owner.user.id });
    expect(seen.body.notifications.map((n: { kind: string }) => n.kind)).toEqual(["chat_started"]);
    const write = await api("/api/notifications/read", { method: "POST", token: admin.session.access_token, viewAs: owner.user.id, body: JSON.stringify({ all: true }) });
    expect(write.status).toBe(403);
    expect((await api("/api/notifications/settings", { method: "PUT", token: admin.session.access_token, viewAs: owner.user.id, body: JSON.stringify({ settings: [{ kind: "chat_started", inApp: false, byMail: false }] }) })).status).toBe(403);
    expect((await bell(owner.session.access_token)).unread).toBe(1);
  });
});

describe("notification settings", () => {
  it("a business owner is offered no prospect alerts, only their own business's: Google reviews and AI Visibility (issues 26, 28, 29)", async () => {
    const customer = await signUp();
    const token = customer.session.access_token;
    const got = await api("/api/notifications/settings", { token });
    expect(got.status).toBe(200);
    expect(got.body.role).toBe("business");
    expect(got.body.settings.map((s: { kind: string }) => s.kind)).toEqual(["review_new", "review_low", "ai_visibility_changed"]);
    const put = await api("/api/notifications/settings", { method: "PUT", token, body: JSON.stringify({ settings: [{ kind: "widget_lead", inApp: false, byMail: false }] }) });
    expect(put.status).toBe(200);
    expect(put.body.settings.map((s: { kind: string }) => s.kind)).toEqual(["review_new", "review_low", "ai_visibility_changed"]);
  });

  it("list every kind to an agency admin (both channels on by default), save choices, refuse unknown kinds", async () => {
    const owner = await signUpAdmin();
    const token = owner.session.access_token;
    const got = await api("/api/notifications/settings", { token });
    expect(got.body.role).toBe("agency");
    expect(got.body.settings.map((s: { kind: string }) => s.kind)).toEqual([...ALERT_KINDS]);
    expect(got.body.settings.every((s: { inApp: boolean; byMail: boolean }) => s.inApp && s.byMail)).toBe(true);
    expect(got.body.mailConfigured).toBe(false);
    const saved = await api("/api/notifications/settings", { method: "PUT", token, body: JSON.stringify({ settings: [{ kind: "report_printed", inApp: false, byMail: false }] }) });
    expect(saved.status).toBe(200);
    expect(saved.body.settings.find((s: { kind: string }) => s.kind === "report_printed")).toMatchObject({ inApp: false, byMail: false });
    const bad = await api("/api/notifications/settings", { method: "PUT", token, body: JSON.stringify({ settings: [{ kind: "nope", inApp: true, byMail: true }] }) });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("validation_failed");

    const report = await ownedReport(owner.user.id);
    await emitProspectEvent(env as Env, { prospectId: report.prospect.id, reportId: report.id, alert: "report_printed", webhook: null, at: new Date().toISOString(), dedupeKey: "off", data: {} });
    await emitProspectEvent(env as Env, { prospectId: report.prospect.id, reportId: report.id, alert: "chat_started", webhook: null, at: new Date().toISOString(), dedupeKey: "on", data: {} });
    expect((await bell(token)).notifications.map((n) => n.kind)).toEqual(["chat_started"]);
  });
});

describe("alert mail", () => {
  it("mails a lead at once, once for the same event, linking to the prospect's report", async () => {
    const owner = await signUp();
    const report = await ownedReport(owner.user.id);
    const { env: e, mail } = mailEnv();
    const lead = { prospectId: report.prospect.id, reportId: report.id, alert: "chat_lead" as const, webhook: null, at: new Date().toISOString(), dedupeKey: "lead-1", data: { email: "x@example.com" } };
    await emitProspectEvent(e, lead);
    await emitProspectEvent(e, lead);
    expect(mail).toHaveLength(1);
    const [m] = await subjects(mail);
    expect(m!.subject).toBe("A prospect is ready to talk");
    expect(m!.body).toContain(`/admin/reports/${report.id}`);
    expect(m!.body).toContain(report.prospect.name);
  });

  it("batches the other alerts into at most one digest an hour", async () => {
    const owner = await signUp();
    const report = await ownedReport(owner.user.id);
    const { env: e, mail } = mailEnv();
    const t0 = Date.now();
    const alert = (kind: "report_opened" | "report_printed" | "report_read", at: number) =>
      emitProspectEvent(e, { prospectId: report.prospect.id, reportId: report.id, alert: kind, webhook: null, at: new Date(at).toISOString(), dedupeKey: `${kind}-${at}`, data: {} });
    // No digest in the last hour: the first alert goes out at once, as a digest of one.
    await alert("report_opened", t0);
    expect(mail).toHaveLength(1);
    await alert("report_printed", t0 + 1000);
    await alert("report_read", t0 + 2000);
    expect(mail).toHaveLength(1);
    // The cron 30 minutes later: still within the hour, nothing; after the hour, one digest with both.
    expect(await mailAlerts(e, getDb(e), new Date(t0 + 30 * 60_000))).toEqual({ immediate: 0, digests: 0 });
    expect(await mailAlerts(e, getDb(e), new Date(t0 + 61 * 60_000))).toEqual({ immediate: 0, digests: 1 });
    expect(mail).toHaveLength(2);
    const [first, digest] = await subjects(mail);
    expect(first!.subject).toBe("Your prospects' activity");
    expect(digest!.body).toContain("printed their report");
    expect(digest!.body).toContain("read most of their report");
    expect(digest!.body).not.toContain("for the first time");
    expect(await mailAlerts(e, getDb(e), new Date(t0 + 200 * 60_000))).toEqual({ immediate: 0, digests: 0 });
  });

  it("mails the attention queue's new items once a day, from 8 in the morning in the admin's zone (issue 41)", async () => {
    const admin = await signUpAdmin();
    // A zone where it is now 4 in the morning: the day's digest is not due yet.
    const h = new Date().getUTCHours();
    const offset = h - 4 <= 12 ? h - 4 : h - 28;
    const zone = `Etc/GMT${offset >= 0 ? "+" : "-"}${Math.abs(offset)}`;
    await env.DB.prepare("update profiles set time_zone = ? where id = ?").bind(zone, admin.user.id).run();
    const { env: e } = mailEnv();
    const item = (n: number) =>
      emitAgencyEvent(e, { alert: "attention_new", webhook: null, at: new Date().toISOString(), dedupeKey: `attention:${admin.user.id}:${n}`, data: { item_id: `i${n}`, user_id: "client-1", kind: "low_review", title: `A 1-star review from Dana ${n} waits for a reply` } });
    await item(1);
    await item(2);
    const mine = async () => (await env.DB.prepare("select subject, body from outbox where to_email = ? and kind = 'attention_digest' order by created_at").bind(admin.user.email).all<{ subject: string; body: string }>()).results;
    expect(await mine()).toHaveLength(0);
    // Now it is 4:mm there: three hours on it is still before 8; 4.2 hours on it is past 8 (the same day): one digest
    // with both; later the same day, nothing; the next morning, the new one.
    const at = (hours: number) => new Date(Date.now() + hours * 3600_000);
    expect(await mailAlerts(e, getDb(e), at(3), [admin.user.id])).toEqual({ immediate: 0, digests: 0 });
    expect(await mailAlerts(e, getDb(e), at(4.2), [admin.user.id])).toEqual({ immediate: 0, digests: 1 });
    const [digest] = await mine();
    expect(digest!.subject).toBe("What needs doing for your clients today");
    expect(digest!.body).toContain("Dana 1");
    expect(digest!.body).toContain("Dana 2");
    expect(digest!.body).toContain("/admin/attention");
    await item(3);
    expect(await mailAlerts(e, getDb(e), at(10), [admin.user.id])).toEqual({ immediate: 0, digests: 0 });
    expect(await mailAlerts(e, getDb(e), at(28.5), [admin.user.id])).toEqual({ immediate: 0, digests: 1 });
    expect((await mine())[1]!.body).toContain("Dana 3");
  });

  it("mails nothing when mail is off for the kind or not configured, and keeps the in-app alert", async () => {
    // Prospect alerts are an agency's: an admin owns the prospect and turns the mail off.
    const owner = await signUpAdmin();
    const report = await ownedReport(owner.user.id);
    await api("/api/notifications/settings", { method: "PUT", token: owner.session.access_token, body: JSON.stringify({ settings: [{ kind: "chat_lead", inApp: true, byMail: false }] }) });
    const { env: e, mail } = mailEnv();
    await emitProspectEvent(e, { prospectId: report.prospect.id, reportId: report.id, alert: "chat_lead", webhook: null, at: new Date().toISOString(), dedupeKey: "quiet", data: {} });
    expect(mail).toHaveLength(0);
    expect((await bell(owner.session.access_token)).notifications.map((n) => n.kind)).toEqual(["chat_lead"]);
  });
});
