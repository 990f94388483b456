// After a weekly AI Visibility scan (issue 29): an alert (bell, digest, webhook `ai_visibility.changed`) only where a
// question's mention rate on an engine moved beyond its interval (the new interval no longer overlaps the old one).
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import { emitOwnEvents, emitProspectEvent } from "../../platform/notifications/emit";
import { previousDoneAiScan, type AiScanRow } from "./queries";
import { intervalsSeparate } from "./rules/ai-visibility";
import { storedSummary, type AiScanStored } from "./view";

/** The question × engine figures whose intervals separated since the previous finished scan. */
export function separatedFigures(before: AiScanStored, after: AiScanStored) {
  const out: { question: string; engine: string; before: number; after: number }[] = [];
  for (const f of after.figures) {
    if (f.mention_rate === null) continue;
    const old = before.figures.find((b) => b.engine === f.engine && b.question.trim().toLowerCase() === f.question.trim().toLowerCase() && b.mention_rate !== null);
    if (old?.mention_rate != null && intervalsSeparate({ low: old.low, high: old.high }, { low: f.low, high: f.high })) out.push({ question: f.question, engine: f.engine, before: old.mention_rate, after: f.mention_rate });
  }
  return out;
}

/** After a weekly scan: the alert, only when some interval no longer overlaps the previous scan's. */
export async function alertIfIntervalsSeparate(env: Env, db: Db, scan: AiScanRow, stored: AiScanStored): Promise<boolean> {
  const previous = await previousDoneAiScan(db, scan);
  const before = previous ? storedSummary(previous) : null;
  if (!before) return false;
  const moved = separatedFigures(before, stored);
  if (moved.length === 0) return false;
  const first = moved[0]!;
  const name = (JSON.parse(scan.business) as { name: string }).name;
  const data = { scan_id: scan.id, name, question: first.question, engine: first.engine, before: Math.round(first.before * 100) / 100, after: Math.round(first.after * 100) / 100, direction: first.after > first.before ? "up" : "down", changes: moved.length };
  const at = new Date().toISOString();
  const event = { alert: "ai_visibility_changed" as const, webhook: "ai_visibility.changed" as const, at, dedupeKey: `ai_visibility:${scan.id}`, data };
  if (scan.kind === "own") await emitOwnEvents(env, scan.userId, [event]);
  else await emitProspectEvent(env, { ...event, prospectId: scan.prospectId!, reportId: null });
  return true;
}
