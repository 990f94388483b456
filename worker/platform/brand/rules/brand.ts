// The agency's brand (issue 30): its shapes, the PUT body's rules, the defaults (Porchlight) and the accent colour's
// contrast rule (WCAG AA, 4.5:1 against white) with the nearest readable colour. Pure: shared by the worker and the web.

/** The product's own name: what every customer-facing text says while no brand is set. */
export const DEFAULT_BRAND_NAME = "Porchlight";

/** What anyone may read (GET /api/brand signed out, the page shell's meta tag): all of it is shown to customers anyway. */
export type PublicBrand = {
  /** The agency's name, or Porchlight. */
  name: string;
  /** `/api/brand/logo?v=<version>`, or null (the product's mark is shown). */
  logoUrl: string | null;
  /** `#rrggbb` readable under white text, or null (the product's own palette). */
  accentColor: string | null;
  website: string | null;
  supportEmail: string | null;
  supportPhone: string | null;
  /** One line under every mail and customer-facing footer. */
  footerLine: string | null;
  /** False while no brand is saved: every field is the product's default. */
  custom: boolean;
};

/** What an admin reads (GET /api/brand as admin) and the worker's templates use. */
export type Brand = PublicBrand & {
  /** The display name mail is sent from (defaults to the agency's name). */
  mailSenderName: string;
  updatedAt: string | null;
};

export type BrandResponse = { brand: PublicBrand | Brand };

export const DEFAULT_BRAND: Brand = {
  name: DEFAULT_BRAND_NAME,
  logoUrl: null,
  accentColor: null,
  website: null,
  supportEmail: null,
  supportPhone: null,
  footerLine: null,
  custom: false,
  mailSenderName: DEFAULT_BRAND_NAME,
  updatedAt: null,
};

export function publicBrand(b: Brand): PublicBrand {
  return {
    name: b.name,
    logoUrl: b.logoUrl,
    accentColor: b.accentColor,
    website: b.website,
    supportEmail: b.supportEmail,
    supportPhone: b.supportPhone,
    footerLine: b.footerLine,
    custom: b.custom,
  };
}

export const BRAND_LOGO_PATH = "/api/brand/logo";
export function brandLogoUrl(version: number): string {
  return `${BRAND_LOGO_PATH}?v=${version}`;
}

// ---------- contrast (WCAG 2.x relative luminance) ----------

/** WCAG AA for normal text. */
export const MIN_CONTRAST = 4.5;
export const ACCENT_UNREADABLE_CODE = "accent_contrast_too_low";

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** `#abc`, `abc`, `#aabbcc` → `#aabbcc` (lower case); null for anything else. */
export function normalizeHex(value: string): string | null {
  const m = HEX.exec(value.trim());
  if (!m) return null;
  const h = m[1]!.toLowerCase();
  return `#${h.length === 3 ? [...h].map((ch) => ch + ch).join("") : h}`;
}

type Rgb = [number, number, number];

function rgbOf(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function hexOf([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((v) => Math.round(Math.max(0, Math.min(255, v))).toString(16).padStart(2, "0")).join("")}`;
}

function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two `#rrggbb` colours (1 … 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(rgbOf(a)), luminance(rgbOf(b))].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The accent is a button's background under white text and a link's colour on white: one ratio covers both. */
export function accentContrast(hex: string): number {
  return contrastRatio(hex, "#ffffff");
}

export function isReadableAccent(hex: string): boolean {
  return accentContrast(hex) >= MIN_CONTRAST;
}

function toHsl([r, g, b]: Rgb): [number, number, number] {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === R ? (G - B) / d + (G < B ? 6 : 0) : max === G ? (B - R) / d + 2 : (R - G) / d + 4;
  return [h / 6, s, l];
}

function fromHsl([h, s, l]: [number, number, number]): Rgb {
  if (s === 0) return [l * 255, l * 255, l * 255];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  return [channel(h + 1 / 3) * 255, channel(h) * 255, channel(h - 1 / 3) * 255];
}

/**
 * The readable colour nearest to `hex`: the same hue and saturation, darkened in HSL one lightness step (1%) at a
 * time until white text on it (and it on white) reaches 4.5:1. Lightening cannot help against white, so the rule
 * only darkens; a colour that already passes is returned as it is. Black always passes, so there is always one.
 */
export function nearestReadableAccent(hex: string): string {
  const start = normalizeHex(hex);
  if (!start) throw new Error(`not a colour: ${hex}`);
  if (isReadableAccent(start)) return start;
  const [h, s, l] = toHsl(rgbOf(start));
  for (let step = Math.floor(l * 100); step >= 0; step--) {
    const candidate = hexOf(fromHsl([h, s, step / 100]));
    if (isReadableAccent(candidate)) return candidate;
  }
  return "#000000";
}

// ---------- the PUT body ----------

export const BRAND_LIMITS = { name: 60, website: 200, supportEmail: 254, supportPhone: 40, mailSenderName: 60, footerLine: 200 } as const;

// The PUT body's schema is in brand-update.ts: zod stays out of what every page loads (web/lib/zod-config.ts).

/** The 422 body's extra field: the colour the form offers ("Use #…"). */
export type AccentRefusal = { error: { code: typeof ACCENT_UNREADABLE_CODE; message: string; suggestion: string; ratio: number } };

export function accentRefusalMessage(hex: string, ratio: number, suggestion: string): string {
  return `${hex} on white (and white text on it) has a contrast of ${ratio.toFixed(2)}:1, below the 4.5:1 that keeps text readable. ${suggestion} is the nearest colour that passes.`;
}

/** Replaces the product's name in a text with the brand's (the shell and landing page, built once for every agency). */
export function brandText(text: string, name: string): string {
  return name === DEFAULT_BRAND_NAME ? text : text.split(DEFAULT_BRAND_NAME).join(name);
}

/** The From header of app mail: the brand's sender name on the configured address (`Name <addr>` or a bare `addr`). */
export function mailFromHeader(configured: string, senderName: string): string {
  const m = /<([^>]+)>\s*$/.exec(configured);
  const address = (m ? m[1]! : configured).trim();
  const name = senderName.replace(/["<>,;\\@]/g, "").trim();
  return name ? `${name} <${address}>` : address;
}

/**
 * The profile's logo rules (PNG, JPEG, WebP or GIF, sniffed from the bytes, stored in R2), with a smaller cap: the
 * brand's logo is on every customer page, the shared report included, whose first paint has a budget.
 */
export const BRAND_LOGO_MAX_BYTES = 512 * 1024;
export const BRAND_LOGO_TOO_LARGE_MESSAGE = "The logo must be smaller than 512 KB.";
