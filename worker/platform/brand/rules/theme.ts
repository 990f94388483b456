// The brand's accent colour as a stylesheet: customer pages link it (their CSP allows no inline style), the rules in
// web/design/base.css read its variables and fall back to the product's own palette without it.
import { isReadableAccent, normalizeHex } from "./brand";

/** The meta tag the worker puts the public brand in (JSON) for the web app's first paint. */
export const BRAND_META = "app-brand";

export const BRAND_THEME_PATH = "/api/brand/theme.css";

/** The stylesheet's URL names its colour, so it never changes under its URL (cached for a year). */
export function brandThemeHref(accent: string): string {
  return `${BRAND_THEME_PATH}?accent=${encodeURIComponent(accent.replace(/^#/, ""))}`;
}

/** The variables for an accent colour readable under white text; null for anything else (never an unreadable theme). */
export function brandThemeCss(accent: string): string | null {
  const hex = normalizeHex(accent);
  if (!hex || !isReadableAccent(hex)) return null;
  return `:root{--brand-accent:${hex};--brand-accent-fg:#ffffff;--brand-accent-hover:color-mix(in srgb,${hex} 85%,#000000)}\n`;
}
