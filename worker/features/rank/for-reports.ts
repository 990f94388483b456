// Reports use the grid (issue 19): a prospect's report shows its latest finished scan as "Local visibility". A scan
// that finishes bumps the report's version (worker/features/rank/grid.ts), so the shared page's cache moves with it.
import type { Db } from "../../platform/db/client";
import { getGridScan, latestFinishedProspectScan } from "./queries";
import type { LocalVisibility } from "./rules/view";
import { buildGridScanView, localVisibilityOf } from "./view";

/** The prospect's latest finished scan as the report shows it (no ids), or null when it has none. */
export async function latestLocalVisibility(db: Db, prospectId: string): Promise<LocalVisibility | null> {
  const latest = await latestFinishedProspectScan(db, prospectId);
  const found = latest ? await getGridScan(db, latest.id) : null;
  if (!found) return null;
  return localVisibilityOf(buildGridScanView(found.scan, found.points, { previous: null, mapTileUrl: null, publicView: true }));
}
