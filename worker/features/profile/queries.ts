// Writes to a user's business profile: the Company Profile form and the logo address.
import { eq } from "drizzle-orm";
import type { ProfileUpdate } from "./rules/profile";
import type { Db } from "../../platform/db/client";
import { profiles } from "../../platform/auth/tables";

/** Changes only the fields the update names (undefined: left as is; null: cleared). */
export async function updateCompanyProfile(db: Db, userId: string, input: ProfileUpdate) {
  const [row] = await db
    .update(profiles)
    .set({
      // drizzle leaves undefined values out of the SET clause.
      companyName: input.company_name,
      companyWebsite: input.company_website,
      companyPhone: input.company_phone,
      companyLocation: input.company_location,
      companyStreetAddress: input.company_street_address,
      companyEmail: input.company_email,
      companyCategory: input.company_category,
      companyDescription: input.company_description,
      timeZone: input.time_zone,
      updatedAt: new Date().toISOString(),
    })
    .where(eq(profiles.id, userId))
    .returning();
  return row ?? null;
}

/**
 * Sets (or clears) the logo address and returns the address it replaced, so the old object can be deleted.
 * The read and the write are one D1 batch (one transaction): two uploads at once each see their own predecessor.
 */
export async function setLogoUrl(db: Db, userId: string, url: string | null) {
  const [before, after] = await db.batch([
    db.select({ url: profiles.companyLogoUrl }).from(profiles).where(eq(profiles.id, userId)),
    db.update(profiles).set({ companyLogoUrl: url, updatedAt: new Date().toISOString() }).where(eq(profiles.id, userId)).returning(),
  ]);
  const row = after[0];
  return row ? { row, previousUrl: before[0]?.url ?? null } : null;
}
