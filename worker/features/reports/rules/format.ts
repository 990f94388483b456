// How report values are shown (the ad's display URL, long US dates); zod-free so the shared page's bundle stays small.

/** Why a report has template content when no AI key is configured (stored in last_error, read by the admin view). */
export const AI_NOT_CONFIGURED_REASON = "AI is not configured on the server";

/** The ad's display URL as shown: spaces become underscores. */
export function displayUrlForAd(url: string): string {
  return url.replace(/ /g, "_");
}

const LONG_US_DATE = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});

/** "November 21, 2026". Accepts ISO strings and SQLite's "YYYY-MM-DD HH:MM:SS" (UTC). */
export function formatLongUsDate(iso: string): string {
  const sqliteUtc = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(iso) ? `${iso.replace(" ", "T")}Z` : iso;
  const date = new Date(sqliteUtc);
  return Number.isNaN(date.getTime()) ? "" : LONG_US_DATE.format(date);
}

/**
 * The company shown beside a prospect's name ('Report for {name}' with the company in brackets), or "" when
 * there is none or it only repeats the name: "Ridge Line Roofing (Ridge Line Roofing)" says nothing twice.
 */
export function companyBesideName(name: string, company: string | null | undefined): string {
  const shown = company?.trim() ?? "";
  return shown && shown.toLowerCase() !== name.trim().toLowerCase() ? shown : "";
}
