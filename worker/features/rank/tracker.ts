// The Local Rank Tracker's engine (issue 19): a keyword's check (its map-pack position seen from the business's own
// spot, and its organic position in the business's area), each part metered and stored as soon as it answers; the
// cron's enqueue of due keywords (once per period: compare-and-set on last_check_at); alerts and their daily digest.
import { getDb, type Db } from "../../platform/db/client";
import { claim } from "../../platform/jobs/claim";
import { resendStale } from "../../platform/jobs/sweep";
import {
  checksOf,
  keywordCheckJob,
  getTrackedKeyword,
  recordDigestDay,
  createDueChecks,
  dueCandidates,
  failUnfinishedChecks,
  finishCheck,
  recordAlert,
  staleChecks,
  storeCheckPart,
  takeUnmailedAlerts,
  usersWithUnmailedAlerts,
  type ClaimedCheck,
} from "./queries";
import { findUserById } from "../../platform/auth/users";
import type { Payer } from "../../domain/metering";
import { findOrganicRank, findRank, type CompletedResult } from "./rules/metrics";
import { DUE_SLACK_MS, dueKeywords, FREQUENCY_MS, rankAlert } from "./rules/tracker";
import { serpLl } from "./rules/grid";
import type { Env } from "../../platform/env";
import { announce } from "../../platform/events";
import { log } from "../../platform/log";
import { sendAppMail } from "../../platform/mail/send";
import { userPayer } from "../../platform/metering/meter";
import { meteredProviderCall } from "../../platform/metering/usage-log";
import { METERED_TOOL_NAMES } from "../usage/rules/usage-stats";
import { searchMaps, searchOrganic, type ProviderFailure } from "../../platform/providers/local-search";
import { CRON_KEYWORDS_PER_RUN, RANK_ITEMS_PER_MESSAGE, RANK_MAX_ATTEMPTS, RANK_RESEND_AFTER_MS, RANK_STALE_CLAIM_MARGIN_MS, rankRetryDelaySeconds, rankSearchTimeoutMs, TRACKER_ZOOM } from "./config";
import { resendStalePoints, type RankJobOutcome } from "./grid";
import { businessOf, checkView } from "./view";
import { linkOrigin } from "../../platform/origin";

/** Sends checks a few to a message. */
export async function sendChecks(env: Env, checkIds: readonly string[]): Promise<void> {
  const messages: { body: { kind: "keyword"; checkIds: string[] } }[] = [];
  for (let i = 0; i < checkIds.length; i += RANK_ITEMS_PER_MESSAGE) messages.push({ body: { kind: "keyword", checkIds: checkIds.slice(i, i + RANK_ITEMS_PER_MESSAGE) } });
  for (let i = 0; i < messages.length; i += 100) await env.RANK_CHECKS.sendBatch(messages.slice(i, i + 100));
}

type PartOutcome = { ok: true; result: CompletedResult } | ProviderFailure;

async function mapPart(env: Env, claimed: ClaimedCheck, payer: Payer): Promise<PartOutcome> {
  const business = businessOf(claimed.keyword.business);
  const ll = business.latitude !== null && business.longitude !== null ? serpLl({ lat: business.latitude, lng: business.longitude }, TRACKER_ZOOM) : null;
  const got = await meteredProviderCall(env, payer, { kind: "search" }, METERED_TOOL_NAMES.rankCheck, () => searchMaps(env, ll ? { q: claimed.keyword.keyword, ll } : { q: claimed.keyword.keyword, location: business.area }, rankSearchTimeoutMs(env)));
  if (!got.ok) return got;
  return { ok: true, result: findRank(got.places.map((p) => ({ position: p.position, place_id: p.placeId ?? undefined, title: p.name })), business.placeId ?? "") };
}

async function organicPart(env: Env, claimed: ClaimedCheck, payer: Payer): Promise<PartOutcome> {
  const business = businessOf(claimed.keyword.business);
  const got = await meteredProviderCall(env, payer, { kind: "search" }, METERED_TOOL_NAMES.rankCheck, () => searchOrganic(env, { q: claimed.keyword.keyword, location: business.area ?? "United States" }, rankSearchTimeoutMs(env)));
  if (!got.ok) return got;
  return { ok: true, result: findOrganicRank(got.links, claimed.keyword.website ?? "") };
}

function rankOf(result: CompletedResult): number | null {
  return result.status === "found" ? result.rank : null;
}

/** A finished check that is an alert against the keyword's completed check before it is recorded. */
async function recordAlertIfAny(db: Db, claimed: ClaimedCheck): Promise<void> {
  const checks = (await checksOf(db, [claimed.keyword.id])).map(checkView);
  const done = checks.filter((c) => c.map.status === "found" || c.map.status === "not_found");
  if (done.length < 2) return;
  const previous = done.at(-2)!.map;
  const latest = done.at(-1)!.map;
  const reasons = rankAlert(previous, latest);
  if (reasons.length === 0) return;
  await recordAlert(db, {
    checkId: claimed.check.id,
    keywordId: claimed.keyword.id,
    userId: claimed.keyword.userId,
    reasons: JSON.stringify(reasons),
    fromRank: previous.status === "found" ? previous.rank : null,
    toRank: latest.status === "found" ? latest.rank : null,
  });
}

/** One check: claim, then each part not done yet (map pack, organic), stored as it answers. The reason when it should be tried again. */
async function runCheck(env: Env, db: Db, checkId: string, delivery: number): Promise<string | null> {
  const now = Date.now();
  const [check] = await claim(db, keywordCheckJob, [checkId], { now: new Date(now).toISOString(), staleBefore: new Date(now - 2 * rankSearchTimeoutMs(env) - RANK_STALE_CLAIM_MARGIN_MS).toISOString() });
  const keyword = check && (await getTrackedKeyword(db, check.keywordId));
  if (!check || !keyword) return null;
  const claimed: ClaimedCheck = { check, keyword };
  const claimedAt = claimed.check.claimedAt!;
  const payer = await userPayer(env, db, claimed.keyword.userId);
  let failure: ProviderFailure | null = null;
  try {
    for (const part of ["map", "organic"] as const) {
      if ((part === "map" ? claimed.check.mapStatus : claimed.check.organicStatus) !== "pending") continue;
      const got = await (part === "map" ? mapPart(env, claimed, payer) : organicPart(env, claimed, payer));
      if (!got.ok) {
        failure = got;
        break;
      }
      await storeCheckPart(db, checkId, claimedAt, part, { status: got.result.status, rank: rankOf(got.result) });
    }
  } catch (error) {
    log.error("rank: check failed unexpectedly", { checkId }, error);
    failure = { ok: false, reason: "an unexpected error", retryable: true };
  }
  if (failure) {
    const again = failure.retryable && Math.max(delivery, claimed.check.attempts) < RANK_MAX_ATTEMPTS;
    await finishCheck(db, checkId, claimedAt, again ? "retrying" : "failed", again ? `${failure.reason}; trying again` : failure.reason);
    return again ? failure.reason : null;
  }
  if (await finishCheck(db, checkId, claimedAt, "done", null)) {
    await recordAlertIfAny(db, claimed);
    if (claimed.keyword.kind === "own") await announce("client.figures-changed", { env, db, userId: claimed.keyword.userId, group: "rank" });
  }
  return null;
}

export async function processKeywordChecks(env: Env, checkIds: string[], delivery: number): Promise<RankJobOutcome> {
  const db = getDb(env);
  const reasons = await Promise.all(checkIds.map((id) => runCheck(env, db, id, delivery)));
  const reason = reasons.find((r) => r !== null);
  return reason ? { kind: "retry", delaySeconds: rankRetryDelaySeconds(delivery), reason } : { kind: "ack" };
}

export async function failChecksForDeadLetter(env: Env, checkIds: string[], deliveries: number): Promise<void> {
  await failUnfinishedChecks(getDb(env), checkIds, `the search did not succeed after ${deliveries} tries`);
}

/**
 * The cron: every due keyword (dueKeywords) gets one check per period. Its `last_check_at` moves by compare-and-set
 * under the due rule before anything is sent, so a second run (or a second isolate) enqueues nothing more.
 */
export async function enqueueDueKeywords(env: Env, now = new Date()): Promise<number> {
  const db = getDb(env);
  const iso = now.toISOString();
  const cuts = {
    daily: new Date(now.getTime() - (FREQUENCY_MS.daily - DUE_SLACK_MS)).toISOString(),
    weekly: new Date(now.getTime() - (FREQUENCY_MS.weekly - DUE_SLACK_MS)).toISOString(),
  };
  const candidates = dueKeywords(await dueCandidates(db, cuts.daily, CRON_KEYWORDS_PER_RUN), now);
  const made: string[] = [];
  for (let i = 0; i < candidates.length; i += 90) {
    made.push(...(await createDueChecks(db, candidates.slice(i, i + 90).map((k) => k.id), iso, cuts)));
  }
  if (made.length > 0) {
    await sendChecks(env, made);
    log.info("rank: due keywords enqueued", { checks: made.length });
  }
  return made.length;
}

export async function resendStaleChecks(env: Env, now = Date.now()): Promise<number> {
  return resendStale(await staleChecks(getDb(env), new Date(now - RANK_RESEND_AFTER_MS).toISOString()), (id) => id, (ids) => sendChecks(env, ids));
}

const REASON_WORDS = { dropped: "dropped 3 or more places", left_top3: "left the top 3" } as const;

/** At most one digest a day per user: the day's row is claimed first, then the unmailed alerts are taken and mailed. */
export async function mailAlertDigests(env: Env, now = new Date()): Promise<number> {
  const db = getDb(env);
  const origin = linkOrigin(env);
  // Without an origin the digest's link would be relative: the alerts stay unmailed until APP_ORIGIN is set.
  if (!origin) {
    log.warn("rank alerts: APP_ORIGIN not set, no digest mailed");
    return 0;
  }
  const day = now.toISOString().slice(0, 10);
  let sent = 0;
  for (const userId of await usersWithUnmailedAlerts(db)) {
    if (!(await recordDigestDay(db, userId, day))) continue;
    const user = await findUserById(db, userId);
    const alerts = await takeUnmailedAlerts(db, userId, now.toISOString());
    if (!user || alerts.length === 0) continue;
    const lines = alerts.map(({ alert, keyword, business }) => {
      const reasons = (JSON.parse(alert.reasons) as Array<keyof typeof REASON_WORDS>).map((r) => REASON_WORDS[r] ?? r).join(" and ");
      const place = (r: number | null) => (r === null ? "not in the top 20" : `#${r}`);
      return `“${keyword}” for ${businessOf(business).name}: ${reasons} (${place(alert.fromRank)} → ${place(alert.toRank)})`;
    });
    await sendAppMail(env, db, "rank_alerts", { to: user.email, link: `${origin}/tools/local-rank-tracker`, detail: lines.join("\n") }, { readable: false });
    sent++;
  }
  return sent;
}

/** Everything the cron does for rank tracking. */
export async function sweepRank(env: Env): Promise<void> {
  await Promise.all([
    enqueueDueKeywords(env).catch((e: unknown) => log.error("rank: due keywords not enqueued", {}, e)),
    resendStaleChecks(env).catch((e: unknown) => log.error("rank: stale checks not sent", {}, e)),
    resendStalePoints(env).catch((e: unknown) => log.error("rank: stale points not sent", {}, e)),
    mailAlertDigests(env).catch((e: unknown) => log.error("rank: alert digest not sent", {}, e)),
  ]);
}
