// What other features use of the profile guard's screens.
export { ChangeDecision, type DecidableChange } from "./change-decision";
export { GuardSection } from "./guard-section";
