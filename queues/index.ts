// Routes each queue batch to its consumer by queue name.
import type { Env } from "../worker/env";

export async function handleQueue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void> {
  void env;
  void ctx;
  // Unknown queue: retry so nothing is lost while a consumer is being deployed.
  batch.retryAll();
}
