// Reports use AI Visibility (issue 29): a prospect's report, its shared page ("What AI assistants say about <trade> in
// <city>", payload field `aiVisibility`), its prompt and both chats read the newest finished scan. A scan that finishes
// bumps the report's version (worker/features/ai-visibility/finish.ts), so the shared page's cache moves with it.
import { latestProspectAiScanQuery, type AiScanRow } from "./queries";
import type { Db } from "../../platform/db/client";
import { AI_ENGINE_SHORT_NAMES, aiVisibilityPromptLines, reportLineText, type ReportAiVisibility } from "./rules/scans";
import { businessOfScan, storedSummary } from "./view";

/** The section from a finished scan's stored figures; null before the first. */
export function reportAiVisibilityOf(scan: AiScanRow | null | undefined): ReportAiVisibility | null {
  if (!scan || scan.status !== "done") return null;
  const stored = storedSummary(scan);
  if (!stored) return null;
  const business = businessOfScan(scan);
  const lines = stored.figures
    .filter((f) => f.n + f.failed > 0)
    .map((f) => {
      const rival = f.named.filter((x) => !x.self).sort((a, b) => b.mentions - a.mentions)[0];
      const line = { question: f.question, engine: f.engine, n: f.n, failed: f.failed, self: f.k, top: rival ? { name: rival.name, mentions: rival.mentions } : null };
      return { ...line, engineLabel: AI_ENGINE_SHORT_NAMES[f.engine], text: reportLineText(line), answerIds: f.answerIds };
    });
  return { scanId: scan.id, trade: business.category, city: business.location.city || business.area, businessName: business.name, askedAt: scan.finishedAt ?? scan.createdAt, samples: scan.samples, overall: stored.overall, lines };
}

/** The prospect's newest finished scan as the report shows it; null when it has none. */
export async function latestReportAiVisibility(db: Db, prospectId: string): Promise<ReportAiVisibility | null> {
  const rows = await latestProspectAiScanQuery(db, prospectId);
  return reportAiVisibilityOf(rows[0]);
}

/** The chats' lines from their batch's scan row (empty before a scan). */
export function aiVisibilityChatText(scan: AiScanRow | null | undefined): string {
  return aiVisibilityPromptLines(reportAiVisibilityOf(scan)).join("\n");
}
