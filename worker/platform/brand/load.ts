// The effective brand: the saved row, or Porchlight's defaults. Read by every branded page and mail (and the monthly
// client report), so one isolate trusts what it read for a few seconds; a save in this isolate forgets it at once.
import { getDb, type DbEnv, type Db } from "../db/client";
import { getBrandRow, type BrandRow } from "./queries";
import { brandLogoUrl, DEFAULT_BRAND, type Brand } from "./rules/brand";
import { log } from "../log";

export function brandOf(row: BrandRow | null): Brand {
  if (!row) return DEFAULT_BRAND;
  return {
    name: row.name,
    logoUrl: row.logoKey ? brandLogoUrl(row.logoVersion) : null,
    accentColor: row.accentColor,
    website: row.website,
    supportEmail: row.supportEmail,
    supportPhone: row.supportPhone,
    footerLine: row.footerLine,
    custom: true,
    mailSenderName: row.mailSenderName || row.name,
    updatedAt: row.updatedAt,
  };
}

/** How long one isolate trusts the brand it last read. */
export const BRAND_MEMO_MS = 5_000;
let memo: { brand: Brand; at: number } | null = null;

export function forgetBrand(): void {
  memo = null;
}

function isDb(source: DbEnv | Db): source is Db {
  return typeof (source as Db).select === "function";
}

/**
 * The effective brand from an env (its database) or a database. A failed read answers the defaults (a page or a
 * mail is never lost to the brand), logged; it is not remembered, so the next read tries again.
 */
export async function loadBrand(source: DbEnv | Db, now = Date.now()): Promise<Brand> {
  if (memo && now - memo.at <= BRAND_MEMO_MS) return memo.brand;
  try {
    const db = isDb(source) ? source : getDb(source);
    const brand = brandOf(await getBrandRow(db));
    memo = { brand, at: now };
    return brand;
  } catch (error) {
    log.warn("brand could not be read; the defaults are used", {}, error);
    return DEFAULT_BRAND;
  }
}

/**
 * What shared pages, their cached copies and their cards are keyed on beside the report's version, so a brand saved
 * shows on them at once: "" while no brand is set (the keys stay as they were), else the brand's last change.
 */
export function brandStamp(brand: Brand): string {
  return brand.custom && brand.updatedAt ? `b${brand.updatedAt.replace(/\D/g, "")}${brand.logoUrl ? `l${brand.logoUrl.replace(/\D/g, "")}` : ""}` : "";
}

/** Remembers a brand just saved, so this isolate's next page shows it. */
export function rememberBrand(brand: Brand, now = Date.now()): void {
  memo = { brand, at: now };
}
