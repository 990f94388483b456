// What other capabilities use of review-requests: everything else in this folder is its own.
export { failReviewRequestsForDeadLetter, processReviewRequestSend } from "./request-jobs";
