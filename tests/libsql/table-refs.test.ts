// The platform names the few capability tables it reads (worker/platform/db/refs.ts) instead of importing them: every
// column it names must be the capability's own column, alike in name, type, nullability and key.
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as refs from "../../worker/platform/db/refs";
import { subscriptions } from "../../worker/features/billing/tables";
import { prospects } from "../../worker/features/prospects/tables";
import { seoReports } from "../../worker/features/reports/tables";

const owners: Record<keyof typeof refs, SQLiteTable> = { prospects, seoReports, subscriptions };

function shape(table: SQLiteTable) {
  const config = getTableConfig(table);
  return {
    name: config.name,
    columns: Object.fromEntries(config.columns.map((c) => [c.name, { type: c.getSQLType(), notNull: c.notNull, primary: c.primary }])),
  };
}

describe("the platform's references to capability tables", () => {
  for (const [name, ref] of Object.entries(refs) as [keyof typeof refs, SQLiteTable][]) {
    it(`${name} names the capability's own table and columns`, () => {
      const mine = shape(ref);
      const theirs = shape(owners[name]);
      expect(mine.name).toBe(theirs.name);
      for (const [column, spec] of Object.entries(mine.columns)) expect({ column, ...spec }).toEqual({ column, ...theirs.columns[column] });
    });
  }
});
