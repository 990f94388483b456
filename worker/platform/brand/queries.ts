// The agency's brand row (issue 30): one per deployment, read by every branded page and mail, written by the Brand page.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { brand } from "./tables";

export type BrandRow = typeof brand.$inferSelect;
/** The brand's text fields as the Brand page saves them (validated by worker/features/brand/rules/brand-update.ts). */
export type BrandFields = Pick<typeof brand.$inferInsert, "name" | "accentColor" | "website" | "supportEmail" | "supportPhone" | "mailSenderName" | "footerLine">;

/** The one row's id: a single agency per deployment. */
export const BRAND_ROW_ID = "agency";

export async function getBrandRow(db: Db): Promise<BrandRow | null> {
  const [row] = await db.select().from(brand).where(eq(brand.id, BRAND_ROW_ID)).limit(1);
  return row ?? null;
}

/** Saves every text field of the brand at once (the logo is kept); creates the row the first time. */
export async function saveBrand(db: Db, input: BrandFields): Promise<BrandRow> {
  const values = {
    name: input.name,
    accentColor: input.accentColor ?? null,
    website: input.website ?? null,
    supportEmail: input.supportEmail ?? null,
    supportPhone: input.supportPhone ?? null,
    mailSenderName: input.mailSenderName ?? null,
    footerLine: input.footerLine ?? null,
  };
  const [row] = await db
    .insert(brand)
    .values({ id: BRAND_ROW_ID, ...values })
    .onConflictDoUpdate({ target: brand.id, set: { ...values, updatedAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))` } })
    .returning();
  return row!;
}

/**
 * Points the brand at a newly stored logo and bumps its version; answers the replaced key so the caller deletes it.
 * Before any brand is saved, the row is created with `defaultName` (the Brand page saves the rest).
 */
export async function setBrandLogo(db: Db, logo: { key: string; contentType: string }, defaultName: string): Promise<{ row: BrandRow; previousKey: string | null }> {
  const before = await getBrandRow(db);
  const [row] = await db
    .insert(brand)
    .values({ id: BRAND_ROW_ID, name: defaultName, logoKey: logo.key, logoContentType: logo.contentType, logoVersion: 1 })
    .onConflictDoUpdate({
      target: brand.id,
      set: {
        logoKey: logo.key,
        logoContentType: logo.contentType,
        logoVersion: sql`${brand.logoVersion} + 1`,
        updatedAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`,
      },
    })
    .returning();
  return { row: row!, previousKey: before?.logoKey ?? null };
}

/** Forgets the brand (the product's own shows again); answers its logo's key so the caller deletes it. */
export async function deleteBrand(db: Db): Promise<string | null> {
  const [row] = await db.delete(brand).where(eq(brand.id, BRAND_ROW_ID)).returning({ logoKey: brand.logoKey });
  return row?.logoKey ?? null;
}

/** Removes the logo (the product's mark shows again); answers the removed key. */
export async function clearBrandLogo(db: Db): Promise<{ row: BrandRow | null; previousKey: string | null }> {
  const before = await getBrandRow(db);
  if (!before?.logoKey) return { row: before, previousKey: null };
  const [row] = await db
    .update(brand)
    .set({ logoKey: null, logoContentType: null, logoVersion: sql`${brand.logoVersion} + 1`, updatedAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))` })
    .where(eq(brand.id, BRAND_ROW_ID))
    .returning();
  return { row: row ?? null, previousKey: before.logoKey };
}
