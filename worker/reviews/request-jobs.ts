// Scaffold for the review-request queue job (issue 28). The review-requests helper (branch h-rreq) fills this in.
import type { Env } from "../env";
import type { ReviewJobOutcome } from "./jobs";

export async function processReviewRequestSend(env: Env, requestIds: string[], attempts: number): Promise<ReviewJobOutcome> {
  void env; void requestIds; void attempts;
  return { kind: "retry", reason: "not built yet" };
}

export async function failReviewRequestsForDeadLetter(env: Env, requestIds: string[], attempts: number): Promise<void> {
  void env; void requestIds; void attempts;
}
