// What other capabilities use of audits: everything else in this folder is its own.
export { auditedBusiness, type BusinessRefusal, type BusinessTarget } from "./business-of";
export { auditWait, ensureProspectAudits, ensureReportAudits } from "./for-reports";
export { getAudit, latestAudit, latestAuditQuery, latestAuditStepsQuery, prospectOfReport, storeAuditChatBlock, type AuditRow, type AuditStepRow } from "./queries";
export { latestProspectAuditView, loadAuditView } from "./read";
export { startAudit } from "./run";
export { ownSubject, prospectSubject } from "./subject";
export { auditChecks, buildAuditView, type FindResult } from "./view";
