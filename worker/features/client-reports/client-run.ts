// "Build" and "Send" the monthly report from the clients view (issue 41), and the build step the admin's "Build now"
// shares: the last whole month in the client's zone, built on the queue (a month that has a report is rebuilt: version
// + 1, same link); a ready report mailed to the client's recipients.
import type { ClientRunner } from "../../platform/client-runs";
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import { estimateMicro } from "../../domain/metering";
import { postModel } from "../content";
import { CLIENT_REPORT_RESEND_AFTER_MS, createAndQueueReport, enqueueClientReports, mailClientReport, zoneOf } from "./run";
import { clientReportOfMonth, requeueClientReport, type ClientReportRow } from "./queries";
import { lastWholeMonth, monthLabel } from "./rules/client-report";

/** Stable codes the screens act on. */
export const CLIENT_REPORT_NOT_READY = "client_report_not_ready";
export const CLIENT_REPORT_BUSY = "client_report_busy";
export const CLIENT_REPORT_JUST_SENT = "client_report_just_sent";

/** A report mailed less than a minute ago is not mailed again (a double click, two admins). */
export const justSent = (row: ClientReportRow) => row.sentAt !== null && Date.now() - Date.parse(row.sentAt) < CLIENT_REPORT_RESEND_AFTER_MS;

/** A summary prompt's usual length (the figures of a month: some 4,000 characters); the estimate before a build. */
const TYPICAL_SUMMARY_PROMPT = "x".repeat(4000);
const SUMMARY_MAX_TOKENS = 400;

/** Builds (or rebuilds) a month's report on the queue; "busy" while that month's report is being built. */
export async function buildReportNow(env: Env, db: Db, userId: string, month: string): Promise<{ report: ClientReportRow } | { busy: true }> {
  const { report, created } = await createAndQueueReport(env, db, { userId, month, trigger: "admin", mailWhenReady: false });
  if (created) return { report };
  const again = await requeueClientReport(db, report.id, { trigger: "admin", mailWhenReady: false });
  if (!again) return { busy: true };
  await enqueueClientReports(env, [again.id]);
  return { report: again };
}

export const CLIENT_REPORT_BUSY_MESSAGE = (month: string) => `${monthLabel(month)}'s report is being built right now. Try again when it is ready.`;

export const reportBuildRun: ClientRunner = async (env, db, client) => {
  const month = lastWholeMonth(new Date(), zoneOf(client.profile?.timeZone));
  return {
    ok: true,
    micro: estimateMicro({ kind: "ai", model: postModel(env), prompt: TYPICAL_SUMMARY_PROMPT, maxTokens: SUMMARY_MAX_TOKENS }),
    start: async () => {
      const built = await buildReportNow(env, db, client.id, month);
      return "busy" in built ? { ok: false, code: CLIENT_REPORT_BUSY, message: CLIENT_REPORT_BUSY_MESSAGE(month) } : { ok: true };
    },
  };
};

export const reportSendRun: ClientRunner = async (env, db, client, ctx) => {
  const month = lastWholeMonth(new Date(), zoneOf(client.profile?.timeZone));
  const report = await clientReportOfMonth(db, client.id, month);
  if (report?.status !== "ready") return { ok: false, code: CLIENT_REPORT_NOT_READY, message: `${monthLabel(month)}'s report is not built yet: build it first.` };
  if (justSent(report)) return { ok: false, code: CLIENT_REPORT_JUST_SENT, message: "This report was sent less than a minute ago." };
  return {
    ok: true,
    micro: 0,
    start: async () => {
      const to = await mailClientReport(env, db, report.id, { force: true, origin: ctx.origin });
      return to ? { ok: true } : { ok: false, code: CLIENT_REPORT_BUSY, message: "This report is being sent right now." };
    },
  };
};
