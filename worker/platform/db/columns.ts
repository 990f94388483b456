// The columns every table declares alike: a text id, the creation and update times (ISO UTC, set by SQLite), and the
// link to the row a row belongs to.
import { sql } from "drizzle-orm";
import { text, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";

export const id = () => text("id").primaryKey();
export const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
export const createdAt = () => text("created_at").notNull().default(nowIso);
export const updatedAt = () => text("updated_at").notNull().default(nowIso);
/** `<name>`: the row this one belongs to (a scan's point, a report's event, a user's session), deleted with it. */
export const belongsTo = <N extends string>(name: N, parent: () => AnySQLiteColumn) => text(name).notNull().references(parent, { onDelete: "cascade" });
/** Both times, for a row that changes after it is made. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });
