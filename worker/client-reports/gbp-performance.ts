// The monthly client report's Google section (issue 30): a business's Business Profile performance for a month and the
// month before (one Performance API call for both), and the search terms that found it, with the connection's tokens.
// Free calls (Google's quota is the limit): nothing is metered. A client without a connection gets the section's
// "connect Google" explainer; a refused token marks the connection for a reconnect, as every Google call does.
import type { Db } from "../db/client";
import { findConnection, parseLocations } from "../db/gbp";
import { monthBounds, performanceMonth, type PerformanceMonth } from "../domain/gbp-performance";
import type { Env } from "../env";
import { withAccessToken } from "../gbp/connection";
import { log } from "../log";
import { DAILY_METRICS, fetchDailyMetrics, GoogleError, googleConfig, listSearchKeywords, type SearchKeywordCount } from "../providers/google";

export type GbpPerformanceSection =
  | { status: "ok"; location: { name: string; title: string }; current: PerformanceMonth; previous: PerformanceMonth; keywords: SearchKeywordCount[] }
  /** No Google connection (or no location chosen): the report shows how connecting adds this section. */
  | { status: "not_connected" }
  /** Google no longer accepts the connection: the client must reconnect. */
  | { status: "token_refused" }
  /** Google not configured here, not answering, or refusing: the section is left out with the reason (admin screens). */
  | { status: "unavailable"; reason: string };

export async function gbpPerformanceFor(env: Env, db: Db, userId: string, month: string): Promise<GbpPerformanceSection> {
  if (!googleConfig(env)) return { status: "unavailable", reason: "Google Business Profile is not configured" };
  const connection = await findConnection(db, userId);
  const location = connection ? parseLocations(connection.chosenLocations)[0] : undefined;
  if (!connection?.refreshTokenCiphertext || !location) return { status: "not_connected" };
  const config = googleConfig(env)!;
  const bounds = monthBounds(month);
  const before = monthBounds(bounds.previous);
  try {
    return await withAccessToken(env, db, connection, async (token) => {
      const [series, keywords] = await Promise.all([
        fetchDailyMetrics(config, token, location.name, DAILY_METRICS, { start: before.start, end: bounds.end }),
        listSearchKeywords(config, token, location.name, { start: { year: bounds.start.year, month: bounds.start.month }, end: { year: bounds.end.year, month: bounds.end.month } }),
      ]);
      return {
        status: "ok" as const,
        location: { name: location.name, title: location.title },
        current: performanceMonth(series, month),
        previous: performanceMonth(series, bounds.previous),
        keywords: keywords.sort((a, b) => (b.impressions ?? b.threshold ?? 0) - (a.impressions ?? a.threshold ?? 0)),
      };
    });
  } catch (error) {
    if (error instanceof GoogleError && error.kind === "token_refused") return { status: "token_refused" };
    log.warn("client report: Google performance unavailable", { userId }, error);
    return { status: "unavailable", reason: error instanceof Error ? error.message : String(error) };
  }
}
