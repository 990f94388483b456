// The AI Visibility figures of one client for the agency's clients view (issue 41): its two newest finished own scans,
// one query. Apart from queries.ts because it reads the scan's stored summary as the view does.
import { batchedRead, runReads } from "../../platform/db/batched-read";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { aiScans } from "./tables";
import { aiOwnerKey, type AiScanRow } from "./queries";
import { storedSummary } from "./view";
import { aiClientFiguresOf, type AiClientFigures } from "./rules/client-figures";

/** One client's AI Visibility figures (issue 41) in one statement: the two newest finished own scans' stored figures. */
export async function aiClientFigures(db: Db, userId: string): Promise<AiClientFigures> {
  const [figures] = await runReads(db, aiClientFiguresRead(db, userId));
  return figures;
}

/** aiClientFigures's query, for a caller's batch. */
export function aiClientFiguresRead(db: Db, userId: string) {
  const query = db
    .select()
    .from(aiScans)
    .where(and(eq(aiScans.ownerKey, aiOwnerKey({ kind: "own", userId })), eq(aiScans.status, "done")))
    .orderBy(desc(aiScans.createdAt))
    .limit(2);
  const overallOf = (scan: AiScanRow | undefined) => (scan ? (storedSummary(scan)?.overall ?? null) : null);
  return batchedRead([query], ([[latest, previous]]) => aiClientFiguresOf(latest ? { overall: overallOf(latest), scannedAt: latest.finishedAt ?? latest.createdAt } : null, overallOf(previous)));
}
