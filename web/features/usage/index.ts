// What other features (and the shell) may use of usage: its other files are its own (lint rule in eslint.config.js).
export { AllowanceMeter, dollars } from "./allowance-meter";
export { notePendingUse, readUsageBaseline, usageBaseline, usageQuery } from "./queries";
export { UsagePanel } from "./usage-panel";
