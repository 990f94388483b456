// What other capabilities use of rank: everything else in this folder is its own.
export { rankSearchTimeoutMs } from "./config";
export { latestLocalVisibility } from "./for-reports";
export { shareToken } from "./grid";
export { prospectById, type GridPointRow, type GridScanRow } from "./queries";
export { rankChecksConsumer, rankChecksDeadLetters } from "./queue";
export { pointResult } from "./view";
