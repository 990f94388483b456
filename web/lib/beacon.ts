// The shared pages' view beacons: one per (event, section) per page view, sent with the visit token the worker signed
// into the page. A module of its own, so the monthly client report's script loads this and nothing else.
import { REPORT_EVENTS_PATH, STAFF_MARKER_KEY, type ReportEventName } from "../../worker/features/reports/rules/event-names";

/** The visit token the worker signed into this page (meta visit-token); beacons without one are not counted. */
function visitToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="visit-token"]')?.content ?? "";
}

function isStaff(): boolean {
  try {
    return localStorage.getItem(STAFF_MARKER_KEY) === "1";
  } catch {
    return false;
  }
}

export type Beacon = (event: ReportEventName, section?: string) => void;

/** One beacon per (event, section) per page view; the server de-duplicates per visit as well. `url`: another page's endpoint (the client report's). */
export function beaconSender(reportId: string, url = REPORT_EVENTS_PATH(reportId)): Beacon {
  const sent = new Set<string>();
  const visit = visitToken();
  const staff = isStaff();
  return (event, section) => {
    const key = `${event}:${section ?? ""}`;
    if (sent.has(key)) return;
    sent.add(key);
    const body = JSON.stringify({ event, section, visit, staff });
    try {
      const blob = new Blob([body], { type: "text/plain" });
      if (navigator.sendBeacon?.(url, blob)) return;
    } catch {
      /* fall through to fetch */
    }
    void fetch(url, { method: "POST", body, keepalive: true, headers: { "Content-Type": "text/plain" } }).catch(() => undefined);
  };
}
