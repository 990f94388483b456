// Writes ai_usage_logs rows from usage events: insert-or-ignore on event_id, so redelivery never double-counts.
import { getTableColumns } from "drizzle-orm";
import type { UsageEventMessage } from "../env";
import { rowsPerInsert, type Db } from "../db/client";
import { aiUsageLogs } from "./tables";

export const USAGE_COLUMN_COUNT = Object.keys(getTableColumns(aiUsageLogs)).length;
/** Every column is bound (13), so D1's 100-parameter limit allows 7 rows per INSERT. */
export const USAGE_ROWS_PER_STATEMENT = rowsPerInsert(USAGE_COLUMN_COUNT);

function row(e: UsageEventMessage): typeof aiUsageLogs.$inferInsert {
  return {
    id: crypto.randomUUID(),
    eventId: e.event_id,
    userId: e.user_id,
    toolName: e.tool_name,
    model: e.model,
    inputTokens: e.input_tokens,
    outputTokens: e.output_tokens,
    totalTokens: e.total_tokens,
    estimatedCost: e.estimated_cost,
    requestData: e.request_data,
    responseData: e.response_data,
    createdAt: e.created_at,
    tokensEstimated: e.tokens_estimated ?? false,
  };
}

/** Inserts every event in one batch (all or nothing), multi-row statements sized for the parameter limit. */
export async function insertUsageEvents(db: Db, events: UsageEventMessage[]): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map(row);
  const statements = [];
  for (let i = 0; i < rows.length; i += USAGE_ROWS_PER_STATEMENT) {
    statements.push(db.insert(aiUsageLogs).values(rows.slice(i, i + USAGE_ROWS_PER_STATEMENT)).onConflictDoNothing());
  }
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
}
