// The monthly report's figures on the agency's clients view (issue 41): the client's latest report and whether the
// monthly report is switched on. Refreshed when a report is mailed and when it is first opened. Pure: the web reads
// the shape.
import type { ClientReportStatus } from "./client-report";

export type ReportClientFigures = {
  /** "YYYY-MM": the month the latest report is on; null before the first. */
  month: string | null;
  status: ClientReportStatus | null;
  /** When it was last mailed; null when not (yet). */
  sentAt: string | null;
  /** When it was first opened; null when not (yet). */
  openedAt: string | null;
  /** The monthly report is switched on for the client. */
  enabled: boolean;
};
