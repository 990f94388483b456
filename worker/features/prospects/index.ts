// What other capabilities use of prospects: everything else in this folder is its own.
export { type NewProspect, type ProspectRow } from "./queries";
