// What other features (and the shell) may use of rank: its other files are its own (lint rule in eslint.config.js).
export { businessParam, useOwnRankFigures } from "./queries";
export type { RankTarget } from "./queries";
export { ChartDateLabels, lineSegments } from "./rank-charts";
export { LocalVisibilitySection } from "./rank-figures";
export { ALERT_LABELS } from "./rank-keyword";
export { ScanHeader, ScanProgress } from "./scan-header";
