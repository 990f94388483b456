// drizzle over the D1 binding; one instance per request is cheap.
import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export function getDb(d1: D1Database) {
  return drizzle(d1, { schema });
}
export type Db = ReturnType<typeof getDb>;
export { schema };

/** D1 refuses a statement with more than 100 bound parameters. */
export const D1_MAX_PARAMS = 100;

/** How many rows fit one multi-row INSERT under D1's bound-parameter limit. */
export function rowsPerInsert(paramsPerRow: number): number {
  return Math.max(1, Math.floor(D1_MAX_PARAMS / Math.max(1, paramsPerRow)));
}
