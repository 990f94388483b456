// What other capabilities use of citations: everything else in this folder is its own.
export { latestReportListings, listingsChatText, listingsFromChecks } from "./for-reports";
export { citationOwnerKey, getCitationScan, latestFinishedCitationScan, latestProspectChecksQuery, latestProspectScanQuery, type CitationCheckRow, type CitationScanRow } from "./queries";
export { sourceResults } from "./view";
export { type CitationClientFigures } from "./rules/client-figures";
export { citationClientFigures, citationClientFiguresRead } from "./client-figures";
export { citationScanRun } from "./client-run";
