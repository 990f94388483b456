// The brand the worker served the page with (its <meta name="app-brand">): what the app shell shows before the app's
// server state is here, and where the brand's live copy (web/features/brand) starts from.
import { DEFAULT_BRAND_NAME, type PublicBrand } from "../../worker/platform/brand/rules/brand";
import { BRAND_META } from "../../worker/platform/brand/rules/theme";

/** The brand the worker put in the page, when it did (a page opened from a test or a stale cache may not have it). */
export function brandFromPage(): PublicBrand | undefined {
  if (typeof document === "undefined") return undefined;
  const raw = document.querySelector<HTMLMetaElement>(`meta[name="${BRAND_META}"]`)?.content;
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw) as PublicBrand;
    return typeof parsed?.name === "string" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A page's <title>: "<page> · <brand>", or the brand's name alone. */
export function pageTitle(brandName: string, page?: string): string {
  return page ? `${page} · ${brandName}` : brandName;
}

/** The <title> text with the served brand (the product's name when the page has none). */
export function servedPageTitle(page?: string): string {
  return pageTitle(brandFromPage()?.name ?? DEFAULT_BRAND_NAME, page);
}
