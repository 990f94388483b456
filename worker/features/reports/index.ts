// What other capabilities use of reports: everything else in this folder is its own.
export { beaconHandlers, readBeacon, type BeaconOutcome } from "./beacon-answer";
export { enqueueReport } from "./enqueue";
export { createProspectWithReport, getReportWithProspect } from "./queries";
export { SHARED_REPORT_CACHE_CONTROL, sendShared, sharedRequest, throughEdgeCache, type SharedAnswer, type SharedRequest } from "./shared-cache";
export { PAGE_HEADERS, notFoundPage } from "./shared";
export { accentStyle, sharedPageAssets } from "./shared-page-assets";
export { SHARED_PAGE_CSP, headTags, provideSharedReportViews, renderNotFoundPage, sharedPageCsp, themeTags, type PageMeta, type SharedReportViews } from "./shared-report-page";
export { appOrigin } from "./views";
export { VISIT_TOKEN_TTL_SECONDS, newVisitToken, verifyVisitToken, withVisitToken } from "./visit-token";
