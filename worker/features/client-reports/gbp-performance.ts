// The monthly client report's Google section (issue 30): a business's Business Profile performance for a month and the
// month before (one Performance API call for both), and the search terms that found it, with the connection's tokens.
// Free calls (Google's quota is the limit): nothing is metered. A client without a connection gets the section's
// "connect Google" explainer (whether or not Google is set up here: never having connected is what the client can act
// on); a refused token marks the connection for a reconnect, as every Google call does. The two calls stand alone: when
// one fails, what the other brought is kept and only the missing part is marked (`unavailable`).
import type { Db } from "../../platform/db/client";
import { findConnection, parseLocations } from "../integrations";
import { monthBounds, performanceMonth, type PerformanceMonth } from "./rules/gbp-performance";
import type { Env } from "../../platform/env";
import { withAccessToken } from "../integrations";
import { log } from "../../platform/log";
import { DAILY_METRICS, fetchDailyMetrics, GoogleError, googleConfig, listSearchKeywords, type DailySeries, type SearchKeywordCount } from "../../platform/providers/google";

export type GbpPerformanceSection =
  | {
      status: "ok";
      location: { name: string; title: string };
      /** All null when Google did not give the daily figures ("figures" in `unavailable`). */
      current: PerformanceMonth;
      previous: PerformanceMonth;
      /** Empty when Google did not give the search terms ("keywords" in `unavailable`). */
      keywords: SearchKeywordCount[];
      /** The parts Google did not give this time (absent or empty: both arrived). */
      unavailable: GooglePart[];
    }
  /** No Google connection (or no location chosen): the report shows how connecting adds this section. */
  | { status: "not_connected" }
  /** Google no longer accepts the connection: the client must reconnect. */
  | { status: "token_refused" }
  /** Google not configured here, not answering, or refusing: the section is left out with the reason (admin screens). */
  | { status: "unavailable"; reason: string };

/** The two things the section asks Google: the daily figures (calls, clicks, directions, views) and the search terms. */
export type GooglePart = "figures" | "keywords";

const refusedToken = (r: PromiseSettledResult<unknown>) => r.status === "rejected" && r.reason instanceof GoogleError && r.reason.kind === "token_refused";

export async function gbpPerformanceFor(env: Env, db: Db, userId: string, month: string): Promise<GbpPerformanceSection> {
  const connection = await findConnection(db, userId);
  const location = connection ? parseLocations(connection.chosenLocations)[0] : undefined;
  if (!connection?.refreshTokenCiphertext || !location) return { status: "not_connected" };
  const config = googleConfig(env);
  if (!config) return { status: "unavailable", reason: "Google Business Profile is not configured" };
  const bounds = monthBounds(month);
  const before = monthBounds(bounds.previous);
  try {
    return await withAccessToken(env, db, connection, async (token) => {
      const [series, keywords] = await Promise.allSettled([
        fetchDailyMetrics(config, token, location.name, DAILY_METRICS, { start: before.start, end: bounds.end }),
        listSearchKeywords(config, token, location.name, { start: { year: bounds.start.year, month: bounds.start.month }, end: { year: bounds.end.year, month: bounds.end.month } }),
      ]);
      // A refused token is the connection's, not a part's: withAccessToken refreshes once, then asks for a reconnect.
      const refused = [series, keywords].find(refusedToken);
      if (refused?.status === "rejected") throw refused.reason;
      if (series.status === "rejected" && keywords.status === "rejected") throw series.reason;
      const unavailable: GooglePart[] = [];
      if (series.status === "rejected") {
        unavailable.push("figures");
        log.warn("client report: Google's daily figures unavailable; search terms kept", { userId }, series.reason);
      }
      if (keywords.status === "rejected") {
        unavailable.push("keywords");
        log.warn("client report: Google's search terms unavailable; daily figures kept", { userId }, keywords.reason);
      }
      const days = series.status === "fulfilled" ? series.value : (new Map() as DailySeries);
      return {
        status: "ok" as const,
        location: { name: location.name, title: location.title },
        current: performanceMonth(days, month),
        previous: performanceMonth(days, bounds.previous),
        keywords: keywords.status === "fulfilled" ? keywords.value.sort((a, b) => (b.impressions ?? b.threshold ?? 0) - (a.impressions ?? a.threshold ?? 0)) : [],
        unavailable,
      };
    });
  } catch (error) {
    if (error instanceof GoogleError && error.kind === "token_refused") return { status: "token_refused" };
    log.warn("client report: Google performance unavailable", { userId }, error);
    return { status: "unavailable", reason: error instanceof Error ? error.message : String(error) };
  }
}
