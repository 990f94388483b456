// What other capabilities use of client-reports: everything else in this folder is its own.
export { reportClientFigures, reportClientFiguresRead } from "./queries";
export { type ReportClientFigures } from "./rules/client-figures";
export { reportBuildRun, reportSendRun } from "./client-run";
export { saveClientReportSettings } from "./queries";
