// What other capabilities use of reviews: everything else in this folder is its own.
export { type ReviewJobOutcome } from "./jobs";
export { reviewClientFigures, reviewClientFiguresRead, reviewersSince } from "./queries";
export { type ReviewClientFigures } from "./rules/client-figures";
export { reviewSyncRun } from "./client-run";
