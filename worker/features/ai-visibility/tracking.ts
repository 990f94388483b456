// AI Visibility tracking (issue 29): the cron asks each business's tracked questions again once a week (the week is
// unique per business, so a double cron run asks once), sends lost messages again and finishes scans whose finisher
// died (the alert after a weekly scan is alert.ts).
import { getDb } from "../../platform/db/client";
import {
  resetAiFinishing,
  staleAiAnswers,
  trackedAiBusinesses,
  trackedAiQuestionsOf,
  unfinishedCompleteAiScans,
  weeklyAiScanOwners,
} from "./queries";
import { getProfile } from "../../platform/auth/users";
import { AI_DEFAULT_SAMPLES } from "./rules/contract";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { configuredEngines } from "../../platform/providers/ai-engines";
import { AI_QUESTION_LIMITS, AI_RESEND_AFTER_MS, AI_WEEKLY_SCANS_PER_RUN } from "./config";
import { resolveAiBusiness } from "./business";
import { aiScanEstimate, resendAiAnswers, startAiScan } from "./scan";
import { finishAiScanIfComplete } from "./finish";

/** The ISO week of `now` ("2026-W48"): a business's weekly scan is unique per week. */
export function isoWeek(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const day = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

/** The cron: lost messages sent again, stuck scans finished, and each tracked business's weekly scan (once a week). */
export async function sweepAiVisibility(env: Env, now = Date.now()): Promise<{ resent: number; started: number }> {
  const db = getDb(env);
  const resent = await resendAiAnswers(env, await staleAiAnswers(db, new Date(now - AI_RESEND_AFTER_MS).toISOString()));
  for (const scan of await unfinishedCompleteAiScans(db, new Date(now - 10 * 60_000).toISOString())) {
    await resetAiFinishing(db, scan.id, scan.finishingAt);
    await finishAiScanIfComplete(env, scan.id);
  }
  const engines = configuredEngines(env);
  let started = 0;
  if (engines.length === 0) return { resent, started };
  const week = isoWeek(new Date(now));
  const done = await weeklyAiScanOwners(db, week);
  const due = (await trackedAiBusinesses(db)).filter((b) => !done.has(b.ownerKey)).slice(0, AI_WEEKLY_SCANS_PER_RUN);
  for (const row of due) {
    try {
      const target = row.kind === "own" ? { own: true as const, userId: row.userId, profile: (await getProfile(db, row.userId)) ?? null } : { prospectId: row.prospectId! };
      const resolved = await resolveAiBusiness(db, target);
      if (!resolved.ok) {
        log.info("ai-visibility: weekly scan skipped", { ownerKey: row.ownerKey, reason: resolved.refusal.code });
        continue;
      }
      const questions = (await trackedAiQuestionsOf(db, row.ownerKey)).slice(0, AI_QUESTION_LIMITS.paid).map((q) => ({ id: q.id, text: q.text }));
      if (questions.length === 0) continue;
      const estimate = await aiScanEstimate(env, db, row.userId, engines, questions.length, AI_DEFAULT_SAMPLES, new Date(now));
      if (!estimate.allowed) {
        log.info("ai-visibility: weekly scan skipped: past the allowance", { ownerKey: row.ownerKey });
        continue;
      }
      const scan = await startAiScan(env, { resolved: resolved.value, userId: row.userId, questions, engines, samples: AI_DEFAULT_SAMPLES, trigger: "weekly", week, now: new Date(now) });
      if (scan) started++;
    } catch (error) {
      log.error("ai-visibility: weekly scan failed", { ownerKey: row.ownerKey }, error);
    }
  }
  if (resent > 0 || started > 0) log.info("ai-visibility: sweep", { resent, started });
  return { resent, started };
}
