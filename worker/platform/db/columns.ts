// The columns every table declares alike: a text id, and the creation and update times (ISO UTC, set by SQLite).
import { sql } from "drizzle-orm";
import { text } from "drizzle-orm/sqlite-core";

export const id = () => text("id").primaryKey();
export const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
export const createdAt = () => text("created_at").notNull().default(nowIso);
export const updatedAt = () => text("updated_at").notNull().default(nowIso);
