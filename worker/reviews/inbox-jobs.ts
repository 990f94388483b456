// Scaffold for the review inbox's queue jobs (issue 28). The inbox helper (branch h-rin) fills these in.
import type { Env } from "../env";
import type { ReviewJobOutcome } from "./jobs";

export async function processReviewSync(env: Env, userIds: string[], attempts: number): Promise<ReviewJobOutcome> {
  void env; void userIds; void attempts;
  return { kind: "retry", reason: "not built yet" };
}

export async function processReviewPublish(env: Env, reviewIds: string[], attempts: number): Promise<ReviewJobOutcome> {
  void env; void reviewIds; void attempts;
  return { kind: "retry", reason: "not built yet" };
}

export async function failReviewsForDeadLetter(env: Env, body: { kind: "sync"; userIds: string[] } | { kind: "publish"; reviewIds: string[] }, attempts: number): Promise<void> {
  void env; void body; void attempts;
}
