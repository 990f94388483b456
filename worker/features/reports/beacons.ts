// What a shared report's beacons tell the agency (issue 21): the first open, an open 7+ days after the last, most of
// the report read in one visit, a print, the chat started. The rules are in worker/platform/notifications/rules/lead-alerts.ts.
import type { Db } from "../../platform/db/client";
import { visitSectionCount } from "./events-queries";
import { openAlert } from "../../platform/notifications/rules/lead-alerts";
import type { ProspectEvent } from "../../platform/notifications/rules/lead-events";
import { readMostReached, type ReportEventName } from "./rules/events";
import type { Env } from "../../platform/env";
import { emitProspectEvent } from "../../platform/notifications/emit";

export type RecordedBeacon = {
  reportId: string;
  prospectId: string;
  visitId: string;
  event: ReportEventName;
  /** For `opened`: the report's last open before this one (null: never opened). */
  previousOpenAt: string | null;
  at: string;
};

/** The prospect event a freshly recorded beacon raises, if any. */
export async function beaconEvent(db: Db, b: RecordedBeacon): Promise<ProspectEvent | null> {
  const base = { prospectId: b.prospectId, reportId: b.reportId, at: b.at };
  switch (b.event) {
    case "opened": {
      const kind = openAlert(b.previousOpenAt, b.at);
      if (kind === "report_opened") return { ...base, alert: kind, webhook: "report.opened", dedupeKey: `report_opened:${b.reportId}`, data: { first: true } };
      if (kind === "report_reopened") return { ...base, alert: kind, webhook: null, dedupeKey: `report_reopened:${b.reportId}:${b.visitId}`, data: { last_opened_at: b.previousOpenAt } };
      return null;
    }
    case "section_viewed": {
      const sections = await visitSectionCount(db, b.reportId, b.visitId);
      return readMostReached(sections) ? { ...base, alert: "report_read", webhook: null, dedupeKey: `report_read:${b.reportId}:${b.visitId}`, data: { sections } } : null;
    }
    case "print":
      return { ...base, alert: "report_printed", webhook: null, dedupeKey: `report_printed:${b.reportId}:${b.visitId}`, data: {} };
    case "chat_started":
      return { ...base, alert: "chat_started", webhook: "chat.started", dedupeKey: `chat_started:${b.reportId}:${b.visitId}`, data: {} };
  }
}

/** Emits what the beacon means (never throws: the page's beacon answers regardless). */
export async function emitBeacon(env: Env, db: Db, b: RecordedBeacon): Promise<void> {
  const event = await beaconEvent(db, b).catch(() => null);
  if (event) await emitProspectEvent(env, event);
}
