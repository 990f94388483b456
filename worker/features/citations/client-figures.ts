// The citation figures of one client for the agency's clients view (issue 41): its two newest finished own scans and
// their checks, one batch. Apart from queries.ts because it sums the checks as the view does.
import { batchedRead, runReads } from "../../platform/db/batched-read";
import { desc, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { citationChecks, citationScans } from "./tables";
import { citationOwnerKey, type CitationCheckRow, type CitationScanRow } from "./queries";
import { sourceResults } from "./view";
import { summarize } from "./rules/summary";
import { citationClientFiguresOf, wrongMajorSources, type CitationClientFigures } from "./rules/client-figures";

/**
 * One client's citation figures (issue 41) in one D1 round trip (a batch of two reads): the two newest finished own
 * scans and their checks, picked by the same subquery; summarized as the scan view summarizes them.
 */
export async function citationClientFigures(db: Db, userId: string): Promise<CitationClientFigures> {
  const [figures] = await runReads(db, citationClientFiguresRead(db, userId));
  return figures;
}

/** citationClientFigures's queries, for a caller's batch. */
export function citationClientFiguresRead(db: Db, userId: string) {
  const lastTwo = sql`(select s.id from citation_scans s where s.owner_key = ${citationOwnerKey({ kind: "own", userId })} and s.status = 'done' order by s.created_at desc limit 2)`;
  return batchedRead(
    [
      db.select().from(citationScans).where(sql`${citationScans.id} in ${lastTwo}`).orderBy(desc(citationScans.createdAt)),
      db.select().from(citationChecks).where(sql`${citationChecks.scanId} in ${lastTwo}`),
    ],
    ([scans, checks]) => figuresOf(scans, checks),
  );
}

function figuresOf(scans: CitationScanRow[], checks: CitationCheckRow[]): CitationClientFigures {
  const resultsOf = (scan: CitationScanRow) => sourceResults(checks.filter((c) => c.scanId === scan.id));
  const [latest, previous] = scans;
  const results = latest ? resultsOf(latest) : [];
  return citationClientFiguresOf(
    latest ? { summary: summarize(results), scannedAt: latest.finishedAt ?? latest.createdAt, wrongMajor: wrongMajorSources(results) } : null,
    previous ? summarize(resultsOf(previous)) : null,
  );
}
