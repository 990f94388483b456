// Issue 39 item 18: the monthly report's mail from a local copy (no APP_ORIGIN) carried "/shared/client-reports/…",
// which opens nothing from a mail client. Every link is built on one origin rule (worker/platform/origin.ts linkOrigin, or the
// request's for "Send now"), and the mail layer refuses a mail with a relative link. The scan of every file's outbox
// (mail-links-scan.ts, a setup file) checks the rest of the run.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sweepClientReports } from "../../../worker/features/client-reports/run";
import { getDb } from "../../../worker/platform/db/client";
import type { Env } from "../../../worker/platform/env";
import { relativeMailLinks } from "../../../worker/platform/mail/links";
import { sendAppMail } from "../../../worker/platform/mail/send";
import { signUp, signUpAdmin } from "../helpers";
import { callWith, clientReportsEnv, drainClientReports } from "./client-report-fixtures";

const reportsEnv = clientReportsEnv;
const call = callWith;
const drain = drainClientReports;
const mailsTo = async (email: string) =>
  (await env.DB.prepare("select body, html from outbox where to_email = ? and kind = 'client_report' order by created_at").bind(email.toLowerCase()).all<{ body: string; html: string }>()).results;

describe("the monthly report's mail from a local copy (no APP_ORIGIN)", () => {
  it("links to the report and its PDF on the local origin, from the cron and from Send now", async () => {
    const t = reportsEnv({ APP_ORIGIN: "", ENVIRONMENT: "development" });
    const admin = await signUpAdmin();
    const client = await signUp();
    expect((await call(t, `/api/client-reports/settings/${client.user.id}`, { method: "PUT", token: admin.session.access_token, json: { enabled: true } })).status).toBe(200);
    await sweepClientReports(t.env, new Date("2026-12-01T02:00:00.000Z"));
    await drain(t);
    const [cron] = await mailsTo(client.email);
    expect(cron, "the cron's report was mailed").toBeDefined();
    expect(cron!.body).toMatch(/^http:\/\/localhost:8787\/shared\/client-reports\/[A-Za-z0-9_-]+$/m);
    expect(cron!.body).toMatch(/http:\/\/localhost:8787\/shared\/client-reports\/[A-Za-z0-9_-]+\.pdf/);
    expect(relativeMailLinks({ html: cron!.html, text: cron!.body })).toEqual([]);

    // "Send now" from the app: the links are on the origin the admin uses.
    const id = (await env.DB.prepare("select id from client_reports where user_id = ?").bind(client.user.id).first<{ id: string }>())!.id;
    await env.DB.prepare("update client_reports set sent_at = ?, mail_claimed_at = ? where id = ?").bind("2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", id).run();
    const sent = await call(t, `/api/client-reports/${id}/send`, { method: "POST", token: admin.session.access_token });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const now = (await mailsTo(client.email))[1]!;
    expect(now.body).toMatch(/^http:\/\/localhost\/shared\/client-reports\/[A-Za-z0-9_-]+$/m);
    expect(relativeMailLinks({ html: now.html, text: now.body })).toEqual([]);
  });

  it("outside development without APP_ORIGIN mails nothing (and says why in the log) rather than relative links", async () => {
    const t = reportsEnv({ APP_ORIGIN: "", ENVIRONMENT: "production" });
    const client = await signUp();
    // Switched on as an admin would (in production the admin's routes also need two-factor sign-in).
    await env.DB.prepare("insert into client_report_settings (user_id, enabled, enabled_by) values (?, 1, 'admin')").bind(client.user.id).run();
    await sweepClientReports(t.env, new Date("2026-12-01T02:00:00.000Z"));
    await drain(t);
    expect(await mailsTo(client.email)).toEqual([]);
    const row = await env.DB.prepare("select status, sent_at from client_reports where user_id = ?").bind(client.user.id).first<{ status: string; sent_at: string | null }>();
    expect(row).toEqual({ status: "ready", sent_at: null });
  });

  it("the mail layer refuses any mail with a relative link, whatever its kind", async () => {
    const db = getDb(env);
    await expect(sendAppMail(env as unknown as Env, db, "rank_alerts", { to: "someone@example.com", link: "/tools/local-rank-tracker" }, { readable: false })).rejects.toThrow(/relative links/);
    expect((await env.DB.prepare("select count(*) as n from outbox where to_email = 'someone@example.com'").first<{ n: number }>())!.n).toBe(0);
  });
});
