// The agency's admins, for the owner filter.
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { profiles } from "../../platform/auth/tables";

export async function adminsList(db: Db): Promise<{ id: string; email: string }[]> {
  const rows = await db.select({ id: profiles.id, email: profiles.email }).from(profiles).where(eq(profiles.isAdmin, true)).orderBy(asc(profiles.email)).limit(200);
  return rows.map((r) => ({ id: r.id, email: r.email ?? "" }));
}
