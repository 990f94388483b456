// A client opened their monthly report for the first time (issue 30): the agency hears it as the shared report's
// first open is heard (the bell, mail as each admin's settings say, and the webhook `client_report.opened`).
import type { Db } from "../../platform/db/client";
import { clientReportMonthAndPayload } from "./share-queries";
import type { ClientReportPayload } from "./rules/client-report";
import type { Env } from "../../platform/env";
import { emitAgencyEvent } from "../../platform/notifications/emit";

/** Emits the first open once (its dedupe key is the report's id); never throws. */
export async function emitClientReportOpened(env: Env, db: Db, open: { reportId: string; userId: string; at: string }): Promise<void> {
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
