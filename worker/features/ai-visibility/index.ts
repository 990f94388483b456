// What other capabilities use of ai-visibility: everything else in this folder is its own.
export { aiVisibilityChatText, latestReportAiVisibility, reportAiVisibilityOf } from "./for-reports";
export { aiOwnerKey, latestProspectAiScanQuery, type AiScanRow } from "./queries";
export { storedSummary } from "./view";
export { type AiClientFigures } from "./rules/client-figures";
export { aiClientFigures, aiClientFiguresRead } from "./client-figures";
export { aiScanRun } from "./client-run";
