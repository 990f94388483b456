// What other capabilities use of gbp-guard: everything else in this folder is its own.
export { decidedChanges } from "./queries";
export { changeNotice } from "./check";
