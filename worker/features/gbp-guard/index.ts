// What other capabilities use of gbp-guard: everything else in this folder is its own.
// For the client's monthly report's "What we did" (issue 41; not printed by the report yet).
export { decidedChanges } from "./queries";
