// Reports use the Citation Tracker (issue 27): a prospect's report, its shared page, its prompt and both chats show
// the newest finished scan as "Listings". A scan that finishes bumps the report's version (worker/features/citations/scan.ts),
// so the shared page's cache moves with it.
import type { CitationCheckRow, CitationScanRow } from "./queries";
import { latestProspectChecksQuery, latestProspectScanQuery } from "./queries";
import type { Db } from "../../platform/db/client";
import { listingsPromptLines, reportListingsOf, type ReportListings } from "./rules/summary";
import { sourceResults } from "./view";

/** The section from a batch's rows (checks of the newest finished scan); null before the first. */
export function listingsFromChecks(createdAt: string | null, checks: readonly CitationCheckRow[]): ReportListings | null {
  if (checks.length === 0) return null;
  return reportListingsOf(createdAt ?? checks.reduce((at, c) => (c.finishedAt && c.finishedAt > at ? c.finishedAt : at), ""), sourceResults(checks));
}

/** The prospect's newest finished scan as the report shows it, in one round trip; null when it has none. */
export async function latestReportListings(db: Db, prospectId: string): Promise<ReportListings | null> {
  const [scans, checks] = await db.batch([latestProspectScanQuery(db, prospectId), latestProspectChecksQuery(db, prospectId)]);
  const scan: CitationScanRow | undefined = scans[0];
  return scan ? listingsFromChecks(scan.createdAt, checks) : null;
}

/** The chats' lines from their batch's checks (empty before a scan: the chats then say nothing of listings). */
export function listingsChatText(checks: readonly CitationCheckRow[]): string {
  return listingsPromptLines(listingsFromChecks(null, checks)).join("\n");
}
