// The Citation Tracker's engine (issue 27): a scan and its sources stored and sent on `citations` a few sources a
// message; each source claimed once (compare-and-set), its `site:` searches reserved from the meter and made through
// the search provider (a search that answered is kept, never made again), its candidate pages read through the
// audit's website fetcher (the public-address rules, size and time limits), and its verdict stored with the evidence.
// A failed search is `retrying` (shown unknown) and retried, never "not found"; the dead-letter path makes it unknown
// for good. The cron re-scans tracked businesses monthly and sends lost messages again.
import { getDb, type Db } from "../../platform/db/client";
import {
  citationCheckJob,
  citationScanRunning,
  citationTrackingJob,
  createCitationScan,
  dueCitationTracking,
  failUnfinishedChecks,
  getCitationScanRow,
  saveCheckProgress,
  staleCitationChecks,
  storeCheck,
  touchCitationScan,
  trackCitations,
  type CitationCheckRow,
  type CitationScanRow,
} from "./queries";
import { getProfile } from "../../platform/auth/users";
import { CITATION_SOURCES, PAGES_PER_SOURCE, onSource, sourceById, type CitationSource } from "./rules/sources";
import {
  citationEstimate,
  failedResult,
  judgeGoogle,
  judgeSource,
  listingFromPage,
  manualResult,
  type Candidate,
  type CitationCompetitor,
  type CitationEstimate,
  type ExpectedBusiness,
} from "./rules/citations";
import type { Payer } from "../../domain/metering";
import { formatPhone, normalizePhone } from "../../domain/nap";
import type { Env } from "../../platform/env";
import { claim } from "../../platform/jobs/claim";
import { resendStale } from "../../platform/jobs/sweep";
import { runUnits, type UnitsOutcome } from "../../platform/jobs/scans";
import { log } from "../../platform/log";
import { fitsAllowance, reserveCall, userPayer } from "../../platform/metering/meter";
import { searchWeb, type WebResult } from "../../platform/providers/local-search";
import { readListingPage } from "../../platform/providers/directory-pages";
import { announce } from "../../platform/events";
import { resolveCitationBusiness, type CitationBusiness } from "./business";
import {
  CITATION_CRON_SCANS_PER_RUN,
  CITATION_RESCAN_AFTER_MS,
  CITATION_RESEND_AFTER_MS,
  CITATION_SOURCES_PER_MESSAGE,
  CITATIONS_MAX_ATTEMPTS,
  citationPageTimeoutMs,
  citationRetryDelaySeconds,
  citationSearchTimeoutMs,
  citationStaleClaimMs,
} from "./config";

/** What the scan stores as its business (JSON): what was looked up, as it was then. */
export type StoredCitationBusiness = { name: string; expected: ExpectedBusiness; competitors: CitationCompetitor[] };

/** What a scan costs against what is left of the payer's allowance (and the operator's ceiling). */
export async function citationScanEstimate(env: Env, db: Db, userId: string): Promise<CitationEstimate> {
  const estimate = citationEstimate();
  const fits = await fitsAllowance(env, db, userId, estimate.micro);
  return { searches: estimate.searches, costUsd: estimate.costUsd, allowanceLeftUsd: fits.allowanceLeftUsd, allowed: fits.allowed };
}

async function sendSources(env: Env, scanId: string, sources: string[]): Promise<void> {
  const messages: { body: { scanId: string; sources: string[] } }[] = [];
  for (let i = 0; i < sources.length; i += CITATION_SOURCES_PER_MESSAGE) messages.push({ body: { scanId, sources: sources.slice(i, i + CITATION_SOURCES_PER_MESSAGE) } });
  for (let i = 0; i < messages.length; i += 100) await env.CITATIONS.sendBatch(messages.slice(i, i + 100));
}

/**
 * Stores the scan (manual sources and Google's, read from the audit, answered at once) and sends the searched
 * sources. The business is tracked from then on (the cron's monthly re-scan). A failed send is not lost: the cron
 * sends unfinished sources again.
 */
export async function startCitationScan(env: Env, input: { business: CitationBusiness; userId: string; trigger: "manual" | "cron"; now?: Date }): Promise<CitationScanRow> {
  const db = getDb(env);
  const { business } = input;
  const estimate = citationEstimate();
  const id = crypto.randomUUID();
  const stored: StoredCitationBusiness = { name: business.name, expected: business.expected, competitors: business.competitors };
  const checks = CITATION_SOURCES.map((s) => {
    if (s.lookup === "manual") return { source: s.id, status: "done" as const, result: JSON.stringify(manualResult(s)) };
    if (s.lookup === "audit") return { source: s.id, status: "done" as const, result: JSON.stringify(judgeGoogle(business.expected, business.google)) };
    return { source: s.id, status: "pending" as const, result: null };
  });
  const now = (input.now ?? new Date()).toISOString();
  await createCitationScan(
    db,
    {
      id,
      kind: business.owner.kind,
      userId: input.userId,
      prospectId: business.owner.kind === "prospect" ? business.owner.prospectId : null,
      ownerKey: business.ownerKey,
      business: JSON.stringify(stored),
      trigger: input.trigger,
      estimateSearches: estimate.searches,
      estimateMicro: estimate.micro,
      createdAt: now,
    },
    checks,
  );
  await trackCitations(db, { ownerKey: business.ownerKey, kind: business.owner.kind, userId: input.userId, prospectId: business.owner.kind === "prospect" ? business.owner.prospectId : null, lastScanAt: now });
  try {
    await sendSources(
      env,
      id,
      checks.filter((c) => c.status === "pending").map((c) => c.source),
    );
  } catch (error) {
    log.error("citations: send failed; the sweep sends it later", { scanId: id }, error);
  }
  return (await getCitationScanRow(db, id))!;
}

export type CitationJobOutcome = UnitsOutcome;

type Progress = { phone?: WebResult[]; name?: WebResult[]; searches: number };
type Query = { key: "phone" | "name"; q: string };

/** The `site:` searches of one source: the business's phone with the competitors' (one query), then its name and city. */
export function queriesFor(source: CitationSource, business: StoredCitationBusiness): Query[] {
  const phones = [business.expected.phone, ...business.competitors.map((c) => (c.phone ? normalizePhone(c.phone) : null))].filter((p): p is string => p !== null);
  const dashed = [...new Set(phones)].map((d) => `"${formatPhone(d).replace(/^\((\d{3})\) /, "$1-")}"`);
  const queries: Query[] = [];
  if (dashed.length > 0) queries.push({ key: "phone", q: `site:${source.domain} ${dashed.length === 1 ? dashed[0] : `(${dashed.join(" OR ")})`}` });
  const city = business.expected.city ? ` ${business.expected.city}` : "";
  queries.push({ key: "name", q: `site:${source.domain} "${business.expected.name}"${city}` });
  return queries;
}

/** Reads the candidate pages one after another (a message's sources share a Worker's 6 connections). */
async function readCandidates(env: Env, source: CitationSource, results: WebResult[]): Promise<Candidate[]> {
  const seen = new Set<string>();
  const picked = results.filter((r) => {
    const key = r.link.replace(/[#?].*$/, "").replace(/\/+$/, "");
    if (!onSource(source, r.link) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const out: Candidate[] = [];
  for (const r of picked.slice(0, PAGES_PER_SOURCE)) {
    const got = await readListingPage(env, r.link, citationPageTimeoutMs(env));
    out.push({ url: r.link, title: r.title, snippet: r.snippet, page: got.ok ? { ok: true, fields: listingFromPage(got.page.facts, source) } : { ok: false, reason: got.reason } });
  }
  return out;
}

/** One claimed source: its searches (those not made yet), its pages, its verdict. Answers the reason to retry, or null. */
async function runSource(env: Env, db: Db, scan: CitationScanRow, claim: CitationCheckRow, delivery: number, payer: Payer): Promise<string | null> {
  const source = sourceById(claim.source);
  const claimedAt = claim.claimedAt!;
  const business = JSON.parse(scan.business) as StoredCitationBusiness;
  const now = new Date().toISOString();
  if (!source || source.lookup !== "search") {
    await storeCheck(db, scan.id, claim.source, claimedAt, { status: "failed", result: null, reason: "not a searched source" });
    return null;
  }
  const progress: Progress = claim.progress ? (JSON.parse(claim.progress) as Progress) : { searches: 0 };
  const missing = queriesFor(source, business).filter((q) => progress[q.key] === undefined);
  const failures: { reason: string; retryable: boolean }[] = [];
  await Promise.all(
    missing.map(async (query) => {
      const reserved = await reserveCall(env, payer, { kind: "search" });
      if (!reserved.ok) {
        failures.push({ reason: reserved.refusal.message, retryable: false });
        return;
      }
      let got;
      try {
        got = await searchWeb(env, query.q, citationSearchTimeoutMs(env));
      } catch (error) {
        await reserved.ticket.release();
        log.error("citations: search failed unexpectedly", { scanId: scan.id, source: source.id }, error);
        failures.push({ reason: "an unexpected error", retryable: true });
        return;
      }
      if (!got.ok) {
        await reserved.ticket.release();
        failures.push({ reason: got.reason, retryable: got.retryable });
        return;
      }
      await reserved.ticket.settle({ kind: "search", calls: 1 });
      progress[query.key] = got.results;
      progress.searches++;
    }),
  );
  if (failures.length > 0) {
    await saveCheckProgress(db, scan.id, source.id, claimedAt, progress);
    const failure = failures[0]!;
    const again = failures.every((f) => f.retryable) && Math.max(delivery, claim.attempts) < CITATIONS_MAX_ATTEMPTS;
    if (again) {
      await storeCheck(db, scan.id, source.id, claimedAt, { status: "retrying", reason: `${failure.reason}; trying again` });
      return failure.reason;
    }
    await storeCheck(db, scan.id, source.id, claimedAt, { status: "failed", result: failedResult(source, failure.reason, progress.searches, now), reason: failure.reason });
    return null;
  }
  const candidates = await readCandidates(env, source, [...(progress.phone ?? []), ...(progress.name ?? [])]);
  const result = judgeSource(source, business.expected, business.competitors, { searches: progress.searches, searchFailed: null, candidates, checkedAt: now });
  await storeCheck(db, scan.id, source.id, claimedAt, { status: "done", result });
  return null;
}

/** After sources landed: the scan's status; a prospect's finished scan changes its report (its "Listings"). */
async function afterChecks(env: Env, db: Db, scanId: string): Promise<void> {
  const scan = await touchCitationScan(db, scanId);
  if (scan?.status === "done" && scan.prospectId) await announce("prospect.findings-changed", { env, db, prospectId: scan.prospectId });
  if (scan?.status === "done" && scan.kind === "own") await announce("client.figures-changed", { env, db, userId: scan.userId, group: "citations" });
}

/** Handles a message's sources side by side (`delivery` = message.attempts, 1-based). */
export async function processCitationSources(env: Env, scanId: string, sources: string[], delivery: number): Promise<CitationJobOutcome> {
  const db = getDb(env);
  const scan = await getCitationScanRow(db, scanId);
  if (!scan) return { kind: "ack" };
  const now = Date.now();
  const [claimed, payer] = await Promise.all([
    db
      .batch([claim(db, citationCheckJob, [scanId, sources], { now: new Date(now).toISOString(), staleBefore: new Date(now - citationStaleClaimMs(env)).toISOString() }), citationScanRunning(db, scanId)])
      .then(([rows]) => rows),
    userPayer(env, db, scan.userId),
  ]);
  return runUnits(claimed, (claim) => runSource(env, db, scan, claim, delivery, payer), () => afterChecks(env, db, scanId), citationRetryDelaySeconds(delivery));
}

/** Dead letters: the message's sources that never finished are stored unknown with the reason, so the scan finishes. */
export async function failCitationSourcesForDeadLetter(env: Env, scanId: string, sources: string[], deliveries: number): Promise<void> {
  const db = getDb(env);
  const reason = `the search did not succeed after ${deliveries} tries`;
  const now = new Date().toISOString();
  const results = sources
    .map((id) => sourceById(id))
    .filter((s): s is CitationSource => s !== undefined)
    .map((s) => ({ source: s.id, result: failedResult(s, reason, 0, now) }));
  const changed = await failUnfinishedChecks(db, scanId, results, reason);
  if (changed > 0) await afterChecks(env, db, scanId);
}

/** The cron: lost messages sent again; tracked businesses scanned again a month after their last scan (once each). */
export async function sweepCitations(env: Env, now = Date.now()): Promise<{ resent: number; started: number }> {
  const db = getDb(env);
  const stale = await staleCitationChecks(db, new Date(now - CITATION_RESEND_AFTER_MS).toISOString());
  await resendStale(stale, (c) => c.source, (sources, scanId) => sendSources(env, scanId, sources), (c) => c.scanId);
  let started = 0;
  const due = await dueCitationTracking(db, new Date(now - CITATION_RESCAN_AFTER_MS).toISOString(), CITATION_CRON_SCANS_PER_RUN);
  for (const row of due) {
    if ((await claim(db, citationTrackingJob, [row.ownerKey, row.lastScanAt], { now: new Date(now).toISOString() })).length === 0) continue;
    try {
      const target = row.kind === "own" ? { own: true as const, userId: row.userId, profile: (await getProfile(db, row.userId)) ?? null } : { prospectId: row.prospectId! };
      const resolved = await resolveCitationBusiness(db, target);
      if (!resolved.ok) {
        log.info("citations: monthly re-scan skipped", { ownerKey: row.ownerKey, reason: resolved.refusal.code });
        continue;
      }
      const fits = await fitsAllowance(env, db, row.userId, citationEstimate().micro, new Date(now));
      if (!fits.allowed) {
        log.info("citations: monthly re-scan skipped: past the allowance", { ownerKey: row.ownerKey });
        continue;
      }
      await startCitationScan(env, { business: resolved.value, userId: row.userId, trigger: "cron", now: new Date(now) });
      started++;
    } catch (error) {
      log.error("citations: monthly re-scan failed", { ownerKey: row.ownerKey }, error);
    }
  }
  if (stale.length > 0 || started > 0) log.info("citations: sweep", { resent: stale.length, started });
  return { resent: stale.length, started };
}
