// A client opened their monthly report for the first time (issue 30): the agency hears it as the shared report's
// first open is heard (the bell, mail as each admin's settings say, and the webhook `client_report.opened`).
import type { Db } from "../../platform/db/client";
import { clientReportMonthAndPayload } from "./share-queries";
import type { ClientReportPayload } from "./rules/client-report";
import type { Env } from "../../platform/env";
import { announce } from "../../platform/events";
import { log } from "../../platform/log";
import { emitAgencyEvent } from "../../platform/notifications/emit";

/**
 * Emits the first open once (its dedupe key is the report's id) and tells the agency's clients view (the client's
 * "report" figures); never throws.
 */
export async function emitClientReportOpened(env: Env, db: Db, open: { reportId: string; userId: string; at: string }): Promise<void> {
  await announce("client.figures-changed", { env, db, userId: open.userId, group: "report" }).catch((error) => log.error("client report: clients view not told of the first open", { reportId: open.reportId }, error));
  const row = await clientReportMonthAndPayload(db, open.reportId).catch(() => null);
  let payload: Partial<ClientReportPayload>;
  try {
    payload = JSON.parse(row?.payload ?? "{}") as Partial<ClientReportPayload>;
  } catch {
    payload = {};
  }
  await emitAgencyEvent(env, {
    alert: "client_report_opened",
    webhook: "client_report.opened",
    at: open.at,
    dedupeKey: `client_report_opened:${open.reportId}`,
    data: {
      client_report_id: open.reportId,
      user_id: open.userId,
      name: payload.business?.name ?? null,
      month: row?.month ?? payload.month ?? null,
      month_label: payload.monthLabel ?? null,
    },
  });
}
