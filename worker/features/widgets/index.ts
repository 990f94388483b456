// What other capabilities use of widgets: everything else in this folder is its own.
export { auditPayer, reportPayer } from "./guards";
