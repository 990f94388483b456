// What other capabilities use of rank: everything else in this folder is its own.
export { rankSearchTimeoutMs } from "./config";
export { latestLocalVisibility } from "./for-reports";
export { shareToken } from "./grid";
export { type GridPointRow, type GridScanRow } from "./queries";
export { type RankClientFigures } from "./rules/client-figures";
export { pointResult } from "./view";
export { rankClientFigures, rankClientFiguresRead } from "./client-figures";
export { gridRun } from "./client-run";
