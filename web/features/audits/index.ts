// What other features (and the shell) may use of audits: its other files are its own (lint rule in eslint.config.js).
export { WhatWeFoundSection } from "./audit-findings";
export { BusinessPicker, BusinessToolPage, MissingDetails, useBusinessChoice } from "./business-choice";
export { useAudits } from "./queries";
export { ReportAudit } from "./report-audit";
