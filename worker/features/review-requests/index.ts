// What other capabilities use of review-requests: everything else in this folder is its own.
export { escape, page, pageCsp } from "./pages";
export { failReviewRequestsForDeadLetter, processReviewRequestSend } from "./request-jobs";
