// Writes ai_usage_logs rows from usage events: INSERT OR IGNORE on event_id, so redelivery never double-counts.
import type { UsageEventMessage } from "../env";

const COLUMNS = [
  "id",
  "event_id",
  "user_id",
  "tool_name",
  "model",
  "input_tokens",
  "output_tokens",
  "total_tokens",
  "estimated_cost",
  "request_data",
  "response_data",
  "created_at",
  "tokens_estimated",
] as const;

/** D1 allows 100 bound parameters per statement: 13 columns → 7 rows per INSERT. */
export const D1_MAX_PARAMS = 100;
export const USAGE_COLUMN_COUNT = COLUMNS.length;
export const USAGE_ROWS_PER_STATEMENT = Math.floor(D1_MAX_PARAMS / COLUMNS.length);

function values(e: UsageEventMessage): (string | number | null)[] {
  return [
    crypto.randomUUID(),
    e.event_id,
    e.user_id,
    e.tool_name,
    e.model,
    e.input_tokens,
    e.output_tokens,
    e.total_tokens,
    e.estimated_cost,
    e.request_data,
    e.response_data,
    e.created_at,
    e.tokens_estimated ? 1 : 0,
  ];
}

/** Inserts every event in one D1 batch (all or nothing), multi-row statements sized for the parameter limit. */
export async function insertUsageEvents(d1: D1Database, events: UsageEventMessage[]): Promise<void> {
  if (events.length === 0) return;
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < events.length; i += USAGE_ROWS_PER_STATEMENT) {
    const chunk = events.slice(i, i + USAGE_ROWS_PER_STATEMENT);
    const row = `(${COLUMNS.map(() => "?").join(", ")})`;
    const sql = `INSERT OR IGNORE INTO ai_usage_logs (${COLUMNS.join(", ")}) VALUES ${chunk.map(() => row).join(", ")}`;
    statements.push(d1.prepare(sql).bind(...chunk.flatMap(values)));
  }
  await d1.batch(statements);
}
