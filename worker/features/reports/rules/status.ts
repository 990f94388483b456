// The report's states, written once: the table's enum, the queue, the API and the web read them from here.
export const REPORT_STATUSES = ["draft", "queued", "generating", "ready", "failed"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** On its way: waiting in the queue or being generated. */
export const PENDING_STATUSES: readonly ReportStatus[] = ["queued", "generating"];
/** Not generated and not on its way: the statuses from which a report may be (re-)enqueued. */
export const ENQUEUEABLE_STATUSES: readonly ReportStatus[] = ["draft", "failed"];

/** How often reports being generated are asked about on the Prospects screen (the benchmark polls as it does). */
export const STATUS_POLL_MS = 2000;

/** A status string from another API as a ReportStatus (unknown values read as draft). */
export function asReportStatus(status: string | null | undefined): ReportStatus {
  return (REPORT_STATUSES as readonly string[]).includes(status ?? "") ? (status as ReportStatus) : "draft";
}

export function isPending(status: string | null | undefined): boolean {
  return PENDING_STATUSES.includes(asReportStatus(status));
}

/** True when a report has not been generated and is not on its way. */
export function isUngenerated(status: string | undefined | null): boolean {
  return status != null && ENQUEUEABLE_STATUSES.includes(asReportStatus(status));
}

/** The spec's message (part 2 §8) for a report id that names no report. */
export const REPORT_NOT_FOUND = "Report not found";
