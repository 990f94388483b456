// Keyset cursors for newest-first lists: (created_at, rowid) of the last row, as opaque base64url text.
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

export type Cursor = { createdAt: string; seq: number };

export function encodeCursor(cursor: Cursor): string {
  const bytes = new TextEncoder().encode(JSON.stringify([cursor.createdAt, cursor.seq]));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The cursor, or null when the text is not one of ours (the route answers 400). */
export function decodeCursor(text: string): Cursor | null {
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const value: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0))));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [createdAt, seq] = value;
    if (typeof createdAt !== "string" || createdAt.length > 40 || !Number.isSafeInteger(seq)) return null;
    return { createdAt, seq };
  } catch {
    return null;
  }
}

/** The table's rowid: insertion order, which breaks ties between rows created in the same millisecond. */
export function rowid(table: SQLiteTable) {
  return sql<number>`${table}.rowid`;
}

/**
 * Rows strictly after the cursor in (created_at DESC, rowid DESC) order. A row-value comparison, so
 * SQLite seeks straight into the created_at index (which ends in rowid) instead of filtering.
 */
export function afterCursor(table: SQLiteTable, createdAt: SQLiteColumn, cursor: Cursor): SQL {
  return sql`(${createdAt}, ${table}.rowid) < (${cursor.createdAt}, ${cursor.seq})`;
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards escaped (use ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
