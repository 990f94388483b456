// /api/client-reports (issue 30): the monthly client reports. An admin lists every business user (on or off, the last
// report, the next run), builds or rebuilds a client's month now, reads any report, sends one now, and switches a
// client's report on or off; a user reads their own reports and switches their own on or off. Admin-only fields (the
// summary's source and note, a build's error) are stripped for users; another user's report is a 404.
import { Hono } from "hono";
import { z } from "zod";
import { actsAsAdmin, adminRefusal, requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { mailClientReport, mailRecipientConfirmations, zoneOf } from "./run";
import { buildReportNow, CLIENT_REPORT_BUSY, CLIENT_REPORT_BUSY_MESSAGE, CLIENT_REPORT_JUST_SENT, CLIENT_REPORT_NOT_READY, justSent } from "./client-run";
import { syncRecipients } from "./recipient-queries";
import { getClientReport, saveClientReportSettings } from "./queries";
import { businessUser, clientList, clientReportsOf, pendingOf, reportSummary, settingsOf } from "./clients";
import { getDb } from "../../platform/db/client";
import { findUserById } from "../../platform/auth/users";
import { RecipientList } from "./rules/recipients";
import { MONTH_RE } from "./rules/gbp-performance";
import { lastWholeMonth, monthAt, monthLabel, type ClientReportDetail, type ClientReportPayload } from "./rules/client-report";
import { apiError, ErrorCode } from "../../platform/errors";
import { appOrigin } from "../../platform/origin";
import { validate, validId } from "../../platform/validate";

export { CLIENT_REPORT_BUSY, CLIENT_REPORT_JUST_SENT, CLIENT_REPORT_NOT_READY } from "./client-run";
export const CLIENT_REPORT_NOT_A_CLIENT = "client_report_not_a_client";
export const CLIENT_REPORT_FUTURE_MONTH = "client_report_month_not_over";

const NOT_FOUND = "That report does not exist.";

const BuildBody = z.object({
  userId: z.string().trim().min(1).max(100),
  month: z.string().regex(MONTH_RE, "A month as YYYY-MM").optional(),
});

const SettingsBody = z.object({
  enabled: z.boolean(),
  recipients: RecipientList.optional(),
});

const ListQuery = z.object({ userId: z.string().trim().min(1).max(100).optional() });

export const clientReportRoutes = new Hono<AppEnv>()
  .get("/", requireUser, validate("query", ListQuery), async (c) => {
    const { userId } = c.req.valid("query");
    const subject = c.get("subject");
    const admin = actsAsAdmin(c);
    const db = getDb(c.env);
    // A user reads only their own; an admin any business user's, or (naming none) the list of them all.
    if (userId && (admin ? !(await businessUser(db, userId)) : userId !== subject.id)) return apiError(c, 404, ErrorCode.notFound, "That client does not exist.");
    if (admin && !userId) return c.json(await clientList(db));
    return c.json(await clientReportsOf(db, userId ?? subject.id, admin));
  })

  // Build now (admin): the month defaults to the last whole month in the business's zone; a month that has a report
  // is rebuilt (version + 1, same link). A preview: not mailed (POST /:id/send mails it).
  .post("/", requireUser, requireAdmin, validate("json", BuildBody), async (c) => {
    const input = c.req.valid("json");
    const client = await businessUser(getDb(c.env), input.userId);
    if (!client) return apiError(c, 404, ErrorCode.notFound, "That client does not exist.");
    const zone = zoneOf(client.profile?.timeZone);
    const month = input.month ?? lastWholeMonth(new Date(), zone);
    if (month >= monthAt(new Date(), zone)) return apiError(c, 422, CLIENT_REPORT_FUTURE_MONTH, `${monthLabel(month)} is not over yet: a report covers a whole month.`, { month: ["Choose a month that is over"] });
    const built = await buildReportNow(c.env, getDb(c.env), input.userId, month);
    if ("busy" in built) return apiError(c, 409, CLIENT_REPORT_BUSY, CLIENT_REPORT_BUSY_MESSAGE(month));
    return c.json({ report: reportSummary(built.report, true) }, 202);
  })

  // Switch a client's report on or off (admin: any business user; a user: themselves), and where it is mailed. An
  // address a user adds (other than their account's own) gets reports only once its owner confirms by the mailed link.
  .put("/settings/:userId", requireUser, validate("json", SettingsBody), async (c) => {
    const userId = c.req.param("userId");
    const subject = c.get("subject");
    const self = userId === subject.id && !subject.isAdmin;
    if (!self) {
      const refused = adminRefusal(c);
      if (refused) return refused;
      if (userId.length > 100 || !(await businessUser(getDb(c.env), userId))) return apiError(c, 404, CLIENT_REPORT_NOT_A_CLIENT, "That client does not exist.");
    }
    const input = c.req.valid("json");
    const db = getDb(c.env);
    const row = await saveClientReportSettings(db, userId, { enabled: input.enabled, recipients: input.recipients, enabledBy: self ? "user" : "admin" });
    if (input.recipients) {
      const account = await findUserById(db, userId);
      const pending = await syncRecipients(db, userId, input.recipients, self ? "user" : "admin", account?.email ?? null);
      await mailRecipientConfirmations(c.env, db, appOrigin(c.env, c.req.url), userId, pending);
    }
    return c.json({ settings: settingsOf(userId, row, await pendingOf(db, userId)) });
  })

  .get("/:id", requireUser, validId(NOT_FOUND), async (c) => {
    const row = await getClientReport(getDb(c.env), c.req.param("id"));
    const admin = actsAsAdmin(c);
    if (!row || (!admin && row.userId !== c.get("subject").id)) return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    let payload: ClientReportPayload | null = null;
    if (row.status === "ready" && row.payload) {
      try {
        payload = JSON.parse(row.payload) as ClientReportPayload;
      } catch {
        payload = null;
      }
    }
    const body: ClientReportDetail = { report: reportSummary(row, admin), payload };
    return c.json(body);
  })

  // Send now (admin): mails a ready report, again if it was sent before.
  .post("/:id/send", requireUser, requireAdmin, validId(NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const row = await getClientReport(db, c.req.param("id"));
    if (!row) return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    if (row.status !== "ready") return apiError(c, 409, CLIENT_REPORT_NOT_READY, "This report is not ready yet: it can be sent once it is built.");
    if (justSent(row)) return apiError(c, 409, CLIENT_REPORT_JUST_SENT, "This report was sent less than a minute ago. Send it again in a minute if you need to.");
    const to = await mailClientReport(c.env, db, row.id, { force: true, origin: appOrigin(c.env, c.req.url) });
    if (!to) return apiError(c, 409, CLIENT_REPORT_BUSY, "This report is being sent right now.");
    const sent = await getClientReport(db, row.id);
    return c.json({ report: reportSummary(sent ?? row, true) });
  });
