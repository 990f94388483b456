// What other features (and the shell) may use of reports: its other files are its own (lint rule in eslint.config.js).
// The sections, post images and copy buttons below are pure (the worker renders them too), so their styles come here.
import "./report-sections.css";
export { useAiChatTarget } from "./newest-report";
export { isNotFound, refreshAfterReportsChange, reportKeys, useLiveReportStatuses } from "./queries";
export { HighlightedText } from "./report-ai-visibility";
export { CopyButton, LINK_COPIED_MS, copyText, useFlag } from "./report-copy-button";
export { VERDICT_LABELS, citationTrackerPath, prospectFromParams } from "./report-listings";
export { PostImage, PostStats, ReportSection } from "./report-sections";
export { GenerateAllReportsButton, ReportStatusBadge } from "./report-status";
