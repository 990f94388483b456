// The monthly client report's figures in words (issue 30): one set of formatting rules for the shared page, the PDF
// and any screen, so the same payload reads the same everywhere. Pure.
import type { ClientReportPayload, Compared, ReportGridMap } from "./client-report";

const INTEGER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const ONE_DECIMAL = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** 12345 → "12,345"; null → "—" (not given, never 0). */
export function figure(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? "—" : INTEGER.format(n);
}

export function oneDecimal(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? "—" : ONE_DECIMAL.format(n);
}

/** 0.4 → "40%" (a rate 0–1). */
export function ratePercent(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "—" : `${Math.round(x * 100)}%`;
}

/** 87.5 → "87.5%" (a figure already 0–100). */
export function percentFigure(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "—" : `${oneDecimal(x).replace(/\.0$/, "")}%`;
}

export type Trend = "up" | "down" | "flat" | null;

/** Which way a compared figure moved (null: nothing to compare with). */
export function trendOf(c: Compared): Trend {
  if (c.delta === null) return null;
  return c.delta > 0 ? "up" : c.delta < 0 ? "down" : "flat";
}

/** "+12 (+8.5%) vs last month", "no change vs last month", or null without a month before. */
export function changeText(c: Compared, unit = ""): string | null {
  if (c.delta === null) return null;
  if (c.delta === 0) return "no change vs last month";
  const sign = c.delta > 0 ? "+" : "−";
  const abs = Math.abs(c.delta);
  const amount = `${sign}${Number.isInteger(abs) ? INTEGER.format(abs) : ONE_DECIMAL.format(abs)}${unit}`;
  const pct = c.percent === null ? "" : ` (${c.percent > 0 ? "+" : c.percent < 0 ? "−" : ""}${oneDecimal(Math.abs(c.percent)).replace(/\.0$/, "")}%)`;
  return `${amount}${pct} vs last month`;
}

/**
 * A rank change: a lower rank is better, so moving from #7 to #3 is "up 4". "new" when it entered the top 20, "out"
 * when it left it.
 */
export function rankMove(c: Compared): { text: string; trend: Trend } {
  if (c.current === null && c.previous === null) return { text: "—", trend: null };
  if (c.previous === null) return { text: c.current === null ? "—" : "new", trend: c.current === null ? null : "up" };
  if (c.current === null) return { text: "out of top 20", trend: "down" };
  const moved = c.previous - c.current;
  if (moved === 0) return { text: "no change", trend: "flat" };
  return { text: `${moved > 0 ? "up" : "down"} ${Math.abs(moved)}`, trend: moved > 0 ? "up" : "down" };
}

export function rankText(rank: number | null): string {
  return rank === null ? "—" : `#${rank}`;
}

/** A grid cell's band, as the Local Search Grid colours it. */
export type GridBand = "top3" | "top10" | "top20" | "not_found";
export function gridBand(rank: number | null): GridBand {
  if (rank === null) return "not_found";
  return rank <= 3 ? "top3" : rank <= 10 ? "top10" : "top20";
}
export const GRID_BAND_LABELS: Record<GridBand, string> = { top3: "1–3", top10: "4–10", top20: "11–20", not_found: "Not in the top 20" };
/** The same colours as the rank tool (web/design/scan-results.css). */
export const GRID_BAND_COLORS: Record<GridBand, string> = { top3: "#1f9d55", top10: "#f2a120", top20: "#e8590c", not_found: "#d92d20" };

/** "SoLV 42.5% · ATRP 6.3" with the words a client understands. */
export function gridFigures(map: ReportGridMap): { solv: string; atrp: string } {
  return { solv: percentFigure(map.solv), atrp: oneDecimal(map.atrp) };
}

/** "Oct 3, 2026" in the business's time zone. */
export function reportDate(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone }).format(date);
  } catch {
    return new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }).format(date);
  }
}

/** The headings, as the page and the PDF show them. */
export const CLIENT_REPORT_HEADINGS = {
  summary: "Summary",
  google: "Google Business Profile",
  grid: "Local Search Grid",
  tracker: "Tracked keywords",
  aiVisibility: "AI Visibility",
  citations: "Listings",
  reviews: "Reviews",
  posts: "Google posts",
  whatWeDid: "What we did",
  whatsNext: "What's next",
} as const;

/** The words of Google's section when it has no figures: what happened and what the client can do. */
export const GOOGLE_STATUS_TEXT = {
  not_connected: {
    title: "Connect Google to see calls and clicks",
    body: "Once your Google Business Profile is connected, this report shows how many people called you, asked for directions and visited your website from Google each month.",
  },
  token_refused: {
    title: "Google needs you to reconnect",
    body: "Google stopped accepting the connection to your Business Profile, so this month's calls and clicks are missing. Reconnect Google and next month's report will include them.",
  },
  unavailable: {
    title: "Google figures could not be fetched this month",
    body: "Google did not give us your profile's figures when this report was made. They will be back in the next report.",
  },
} as const;

/** The words for one part of Google's section that did not arrive, beside the part that did. */
export const GOOGLE_PART_UNAVAILABLE_TEXT = {
  figures: "Google did not give us this month's calls, website clicks, direction requests and views when this report was made. They will be back in the next report.",
  keywords: "Google did not give us the searches that found your profile when this report was made. They will be back in the next report.",
} as const;

/** The report's title and a one-line description with the headline figures (the page's Open Graph card, the PDF). */
export function reportTitle(p: ClientReportPayload): string {
  return `${p.business.name}: ${p.monthLabel} results`;
}

export function reportDescription(p: ClientReportPayload, agency: string): string {
  const figures = p.headline.slice(0, 3).map((h) => `${h.label} ${h.value}${h.change ? ` (${h.change})` : ""}`);
  const lead = figures.length ? `${figures.join(" · ")}. ` : "";
  return `${lead}Monthly results report for ${p.business.name}, prepared by ${agency}.`;
}

/** `<business>-<YYYY-MM>.pdf`, safe for a Content-Disposition header. */
export function reportPdfFilename(p: Pick<ClientReportPayload, "business" | "month">): string {
  const slug =
    p.business.name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "report";
  return `${slug}-${p.month}.pdf`;
}
