// The Local Search Grid's engine (issue 19): the allowance check before a run, the scan and its points stored and sent
// on rank-checks a few points a message, each point claimed once, metered and searched from its own spot on the map
// (`ll`), its result stored as soon as it answers. A failed search is stored `failed` (retrying) and its message
// retried; never stored as "not ranked". The dead-letter path fails what never succeeded, so a scan always finishes.
import { getDb, type Db } from "../../platform/db/client";
import { claim } from "../../platform/jobs/claim";
import { resendStale } from "../../platform/jobs/sweep";
import { runUnits, type UnitsOutcome } from "../../platform/jobs/scans";
import {
  gridPointJob,
  gridScanRunning,
  createGridScan,
  failUnfinishedPoints,
  getGridScanRow,
  stalePoints,
  storePoint,
  touchGridScan,
  type GridPointRow,
  type GridScanRow,
} from "./queries";
import { fromMicro, type Payer } from "../../domain/metering";
import { gridEstimateMicro, gridPoints, gridSpacingMiles, searchesFor, serpLl, zoomFor } from "./rules/grid";
import { findRank, type LocalResult } from "./rules/metrics";
import type { GridEstimate } from "./rules/view";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { fitsAllowance, userPayer } from "../../platform/metering/meter";
import { reserveLoggedCall } from "../../platform/metering/usage-log";
import { METERED_TOOL_NAMES } from "../usage/rules/usage-stats";
import { searchMaps, type MapsPlace } from "../../platform/providers/local-search";
import { announce } from "../../platform/events";
import type { ResolvedBusiness } from "./business";
import { RANK_ITEMS_PER_MESSAGE, RANK_MAX_ATTEMPTS, RANK_STALE_CLAIM_MARGIN_MS, RANK_RESEND_AFTER_MS, rankRetryDelaySeconds, rankSearchTimeoutMs } from "./config";
import { businessOf } from "./view";

/** What a grid of this size would cost against what is left of the payer's allowance (and the operator's ceiling). */
export async function gridEstimate(env: Env, db: Db, userId: string, size: number, now = new Date()): Promise<GridEstimate> {
  const estimate = gridEstimateMicro(size);
  const fits = await fitsAllowance(env, db, userId, estimate, now);
  return { size, searches: searchesFor(size), estimateUsd: fromMicro(estimate), allowanceLeftUsd: fits.allowanceLeftUsd, allowed: fits.allowed };
}

/** Random bits as hex: the share token (128 bits), unguessable. */
export function shareToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function messagesFor(scanId: string, idxs: number[]) {
  const out: { body: { kind: "grid"; scanId: string; points: number[] } }[] = [];
  for (let i = 0; i < idxs.length; i += RANK_ITEMS_PER_MESSAGE) out.push({ body: { kind: "grid", scanId, points: idxs.slice(i, i + RANK_ITEMS_PER_MESSAGE) } });
  return out;
}

async function sendPoints(env: Env, scanId: string, idxs: number[]): Promise<void> {
  const messages = messagesFor(scanId, idxs);
  for (let i = 0; i < messages.length; i += 100) await env.RANK_CHECKS.sendBatch(messages.slice(i, i + 100));
}

/** Stores the scan with its points and sends them. A failed send is not lost: the cron sends unfinished points again. */
export async function startGrid(env: Env, input: { resolved: ResolvedBusiness; keyword: string; size: number; radiusMiles: number; userId: string }): Promise<GridScanRow> {
  const { business, owner } = input.resolved;
  const centre = { lat: business.latitude, lng: business.longitude };
  const points = gridPoints(centre, input.size, input.radiusMiles);
  const zoom = zoomFor(gridSpacingMiles(input.size, input.radiusMiles), centre.lat);
  const scan = await createGridScan(
    getDb(env),
    {
      id: crypto.randomUUID(),
      kind: owner.kind,
      userId: input.userId,
      prospectId: owner.kind === "prospect" ? owner.prospectId : null,
      business: JSON.stringify(business),
      keyword: input.keyword,
      size: input.size,
      radiusMiles: input.radiusMiles,
      zoom,
      estimateSearches: searchesFor(input.size),
      estimateMicro: gridEstimateMicro(input.size),
      shareToken: shareToken(),
    },
    points.map((p, idx) => ({ idx, row: p.row, col: p.col, lat: p.lat, lng: p.lng })),
  );
  try {
    await sendPoints(env, scan.id, points.map((_, i) => i));
  } catch (error) {
    log.error("rank: grid send failed; the sweep sends it later", { scanId: scan.id }, error);
  }
  return scan;
}

export type RankJobOutcome = UnitsOutcome;

function localResult(place: MapsPlace): LocalResult {
  return { position: place.position, place_id: place.placeId ?? undefined, title: place.name, ...(place.reviewCount !== null ? { reviews: place.reviewCount } : {}) };
}

/** One claimed point: reserve, search from the point, store. Answers the reason when it should be tried again. */
async function runPoint(env: Env, db: Db, scan: GridScanRow, claim: GridPointRow, delivery: number, payer: Payer): Promise<string | null> {
  const idx = claim.idx;
  const claimedAt = claim.claimedAt!;
  const reserved = await reserveLoggedCall(env, payer, { kind: "search" }, METERED_TOOL_NAMES.gridSearch);
  if (!reserved.ok) {
    await storePoint(db, scan.id, idx, claimedAt, { status: "failed", reason: reserved.refusal.message });
    return null;
  }
  const business = businessOf(scan.business);
  let got;
  try {
    got = await searchMaps(env, { q: scan.keyword, ll: serpLl({ lat: claim.lat, lng: claim.lng }, scan.zoom) }, rankSearchTimeoutMs(env));
  } catch (error) {
    await reserved.ticket.release();
    await storePoint(db, scan.id, idx, claimedAt, { status: "retrying", reason: "an unexpected error; trying again" });
    log.error("rank: point failed unexpectedly", { scanId: scan.id, idx }, error);
    return "an unexpected error";
  }
  if (!got.ok) {
    await reserved.ticket.release();
    const again = got.retryable && Math.max(delivery, claim.attempts) < RANK_MAX_ATTEMPTS;
    await storePoint(db, scan.id, idx, claimedAt, { status: again ? "retrying" : "failed", reason: again ? `${got.reason}; trying again` : got.reason });
    return again ? got.reason : null;
  }
  const results = got.places.map(localResult);
  const rank = findRank(results, business.placeId ?? "");
  const top3 = results.filter((r) => (r.position ?? 99) <= 3).slice(0, 3);
  await Promise.all([reserved.ticket.settle({ kind: "search", calls: 1 }), storePoint(db, scan.id, idx, claimedAt, { status: "done", rank: rank.status === "found" ? rank.rank : null, top3 })]);
  return null;
}

/** After points landed: the scan's status and version; a prospect's finished scan changes its report. */
async function afterPoints(env: Env, db: Db, scanId: string): Promise<void> {
  const scan = await touchGridScan(db, scanId);
  if (scan?.status === "done" && scan.prospectId) await announce("prospect.findings-changed", { env, db, prospectId: scan.prospectId });
  if (scan?.status === "done" && scan.kind === "own") await announce("client.figures-changed", { env, db, userId: scan.userId, group: "rank" });
}

/** Handles a grid message's points side by side (`delivery` = message.attempts, 1-based). */
export async function processGridPoints(env: Env, scanId: string, idxs: number[], delivery: number): Promise<RankJobOutcome> {
  const db = getDb(env);
  const scan = await getGridScanRow(db, scanId);
  if (!scan) return { kind: "ack" };
  const now = Date.now();
  const [claimed, payer] = await Promise.all([
    db
      .batch([
        claim(db, gridPointJob, [scanId, idxs], { now: new Date(now).toISOString(), staleBefore: new Date(now - rankSearchTimeoutMs(env) - RANK_STALE_CLAIM_MARGIN_MS).toISOString() }),
        gridScanRunning(db, scanId),
      ])
      .then(([rows]) => rows),
    userPayer(env, db, scan.userId),
  ]);
  return runUnits(claimed, (claim) => runPoint(env, db, scan, claim, delivery, payer), () => afterPoints(env, db, scanId), rankRetryDelaySeconds(delivery));
}

/** Dead letters: the points of this message that never succeeded are failed with the reason. */
export async function failGridPointsForDeadLetter(env: Env, scanId: string, idxs: number[], deliveries: number): Promise<void> {
  const db = getDb(env);
  const changed = await failUnfinishedPoints(db, scanId, idxs, `the search did not succeed after ${deliveries} tries`);
  if (changed > 0) await afterPoints(env, db, scanId);
}

/** The cron: unfinished points of scans older than 10 minutes are sent again (claims keep them single). */
export async function resendStalePoints(env: Env, now = Date.now()): Promise<number> {
  const points = await stalePoints(getDb(env), new Date(now - RANK_RESEND_AFTER_MS).toISOString());
  await resendStale(points, (p) => p.idx, (idxs, scanId) => sendPoints(env, scanId, idxs), (p) => p.scanId);
  if (points.length > 0) log.info("rank: stale points sent again", { points: points.length });
  return points.length;
}
