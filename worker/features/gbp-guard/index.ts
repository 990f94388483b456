// What other capabilities use of gbp-guard: everything else in this folder is its own.
// For the client's monthly report's "What we did" (issue 41): the edits kept or undone in a month.
export { decidedChanges } from "./queries";
