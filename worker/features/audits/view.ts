// Builds the AuditView (worker/features/audits/rules/view.ts) from an audit's stored step results: the checks and score are
// computed here from what was stored, so a rule change shows on old audits too. Pure over the rows.
import {
  runChecks,
  type Check,
  type CompetitorsInput,
  type Competitor,
  type ListingInput,
  type PageInput,
  type PageSpeedInput,
  type RankInput,
} from "./rules/checks";
import { fixFirst, scoreAudit } from "./rules/score";
import type { AuditCandidate, AuditListing, AuditStepId, AuditStepState, AuditSummary, AuditView, AuditSite } from "./rules/view";
import type { AuditRow, AuditStepRow, AuditSubjectRecord } from "./queries";
import { RERUN_AFTER_MS, TIMED_OUT_REASON } from "./config";
import { parseJson } from "../../domain/json";
import { CUSTOMER_UNAVAILABLE, UnavailableCode } from "../setup/rules/setup";

/** What each step stores as its result. */
export type FindResult =
  | { status: "found"; listing: AuditListing; candidates: AuditCandidate[]; picked?: boolean }
  | { status: "not_found"; candidates: AuditCandidate[] }
  | { status: "failed"; reason: string };
export type FetchResult = { page: PageInput; fetchedAt: string; bytes?: number; truncated?: boolean };
export type SpeedResult = PageSpeedInput & { url?: string };
export type RankResult = { rank: RankInput; competitors: CompetitorsInput; hasWebsite: boolean };

const STILL_RUNNING = "still running";

/** Reasons stored before issue 26 named the server's set-up; customers read what happened instead. */
const LEGACY_SEARCH_REASON = /no search provider key is set \(SERPAPI_KEY\), so Google was not searched/g;

export function customerReason(reason: string): string {
  return reason.replace(LEGACY_SEARCH_REASON, CUSTOMER_UNAVAILABLE.search);
}

/** The stable code of a reason a step could not run for (null: an ordinary failure or skip). */
export function reasonCode(reason: string | null | undefined): UnavailableCode | null {
  if (!reason) return null;
  const text = customerReason(reason);
  if (text.includes(CUSTOMER_UNAVAILABLE.search)) return UnavailableCode.search;
  if (text === CUSTOMER_UNAVAILABLE.pagespeed) return UnavailableCode.pagespeed;
  if (text === TIMED_OUT_REASON) return UnavailableCode.timedOut;
  return null;
}

export function subjectOf(audit: AuditRow): AuditSubjectRecord {
  return parseJson<AuditSubjectRecord>(audit.subject) ?? { name: "", website: null, keyword: null, area: null, phone: null, address: null };
}

type Steps = Record<AuditStepId, AuditStepRow | undefined>;

function byStep(rows: readonly AuditStepRow[]): Steps {
  const out: Steps = { find: undefined, fetch: undefined, speed: undefined, rank: undefined };
  for (const row of rows) out[row.step] = row;
  return out;
}

const unfinished = (row: AuditStepRow | undefined) => !row || row.status === "pending" || row.status === "running";

/** The reason a step has no result, in the words the checks put in brackets. */
function missingReason(row: AuditStepRow | undefined): string {
  if (unfinished(row)) return STILL_RUNNING;
  return row!.reason ? customerReason(row!.reason) : row!.status === "skipped" ? "skipped" : "the step failed";
}

export function findInput(row: AuditStepRow | undefined): ListingInput {
  const result = row && row.status === "done" ? parseJson<FindResult>(row.result) : null;
  if (!result) return { status: "failed", reason: missingReason(row) };
  if (result.status === "found") return { status: "found", listing: result.listing };
  if (result.status === "not_found") return { status: "not_found", candidates: result.candidates.length };
  return result;
}

export function pageInput(row: AuditStepRow | undefined): PageInput {
  const result = row && row.status === "done" ? parseJson<FetchResult>(row.result) : null;
  if (result?.page.status === "failed") return { status: "failed", reason: customerReason(result.page.reason) };
  return result ? result.page : { status: "failed", reason: missingReason(row) };
}

function speedInput(row: AuditStepRow | undefined): PageSpeedInput {
  const result = row && row.status === "done" ? parseJson<SpeedResult>(row.result) : null;
  return result ?? { status: "failed", reason: missingReason(row) };
}

function rankResult(row: AuditStepRow | undefined): RankResult | null {
  return row && row.status === "done" ? parseJson<RankResult>(row.result) : null;
}

/** Checks whose data is still being fetched say "still running", not "could not". */
function markRunning(checks: Check[]): Check[] {
  return checks.map((c) =>
    c.verdict === "unknown" && c.reason?.includes(`(${STILL_RUNNING})`)
      ? { ...c, reason: STILL_RUNNING, evidence: "Still being checked: this fills in when its step finishes." }
      : c,
  );
}

/** Every check of the audit from its stored results. */
export function auditChecks(rows: readonly AuditStepRow[]): Check[] {
  const steps = byStep(rows);
  const rank = rankResult(steps.rank);
  const rankMissing = missingReason(steps.rank);
  let checks = runChecks({
    page: pageInput(steps.fetch),
    listing: findInput(steps.find),
    pageSpeed: speedInput(steps.speed),
    rank: rank?.rank ?? { status: "failed", reason: rankMissing },
    competitors: rank?.competitors ?? { status: "failed", reason: rankMissing },
  });
  if (rank && rank.rank.status === "ok" && !rank.hasWebsite) {
    // Without a website there is nothing to look for among the organic results: no data, not "not ranked".
    checks = checks.map((c) =>
      c.id === "organic_position" ? { ...c, verdict: "unknown", reason: "the business has no website to look for", evidence: "We could not check this: the business has no website to look for in Google's results." } : c,
    );
  }
  return markRunning(checks);
}

function stepState(row: AuditStepRow | undefined): AuditStepState {
  if (!row) return { status: "pending", finishedAt: null };
  const state: AuditStepState = { status: row.status, finishedAt: row.finishedAt };
  // A pending step with a reason is waiting for a retry: the reason says why.
  if (row.reason) state.reason = customerReason(row.reason);
  if (row.step === "fetch" && row.status === "done") {
    // The website step "finished" without reading the page: it says it failed (or had nothing to read), never "Done".
    const page = pageInput(row);
    if (page.status === "failed") {
      const failed: AuditStepState = { status: "failed", reason: page.reason, finishedAt: row.finishedAt };
      const pageCode = reasonCode(page.reason);
      return pageCode ? { ...failed, code: pageCode } : failed;
    }
    if (page.status === "no_website") return { status: "skipped", reason: "the business has no website", finishedAt: row.finishedAt };
  }
  const code = reasonCode(row.reason);
  if (code && (row.status === "skipped" || row.status === "failed")) state.code = code;
  return state;
}

function siteOf(row: AuditStepRow | undefined): AuditSite | null {
  const result = row && row.status === "done" ? parseJson<FetchResult>(row.result) : null;
  if (!result || result.page.status !== "fetched") return null;
  const f = result.page.facts;
  return { finalUrl: f.finalUrl, title: f.title, metaDescription: f.metaDescription, fetchedAt: result.fetchedAt };
}

/**
 * When the business may be audited again: 7 days after this audit, unless it finished without checking anything (issue
 * 39: a keyless run that found "No data" everywhere does not lock the tool for a week).
 */
export function rerunAfter(audit: Pick<AuditRow, "createdAt" | "status" | "overall">, now = Date.now()): string | null {
  if (audit.status === "done" && audit.overall === null) return null;
  const at = Date.parse(audit.createdAt) + RERUN_AFTER_MS;
  return at > now ? new Date(at).toISOString() : null;
}

/**
 * The view of one audit. `publicView` (the shared page, the public chat): no candidates (other businesses the admin
 * may pick from), no prospect id.
 */
export function buildAuditView(
  audit: AuditRow,
  rows: readonly AuditStepRow[],
  previous: AuditRow | null,
  opts: { publicView?: boolean; now?: number } = {},
): AuditView {
  const steps = byStep(rows);
  const subject = subjectOf(audit);
  const checks = auditChecks(rows);
  const find = steps.find?.status === "done" ? parseJson<FindResult>(steps.find.result) : null;
  const rank = rankResult(steps.rank);
  const speed = steps.speed?.status === "done" ? parseJson<SpeedResult>(steps.speed.result) : null;
  const allFinished = (["find", "fetch", "speed", "rank"] as const).every((s) => !unfinished(steps[s]));
  const competitors: Competitor[] = rank?.competitors.status === "ok" ? [...rank.competitors.competitors].slice(0, 3) : [];
  let pageSpeed: PageSpeedInput | null = null;
  if (speed) {
    const { url: _url, ...input } = speed;
    void _url;
    pageSpeed = input as PageSpeedInput;
  }
  return {
    id: audit.id,
    subject: {
      kind: audit.kind,
      prospectId: opts.publicView ? null : audit.prospectId,
      name: subject.name,
      website: subject.website,
      keyword: subject.keyword,
      area: subject.area,
    },
    status: allFinished ? "done" : audit.status === "queued" ? "queued" : "running",
    createdAt: audit.createdAt,
    finishedAt: allFinished ? audit.finishedAt : null,
    rerunAfter: rerunAfter(audit, opts.now),
    steps: { find: stepState(steps.find), fetch: stepState(steps.fetch), speed: stepState(steps.speed), rank: stepState(steps.rank) },
    listing: find?.status === "found" ? find.listing : null,
    candidates: opts.publicView || !find || find.status === "failed" ? [] : find.status === "not_found" ? find.candidates : [],
    site: siteOf(steps.fetch),
    pageSpeed,
    rank: rank?.rank ?? null,
    competitors,
    checks,
    score: scoreAudit(checks),
    fixFirst: fixFirst(checks),
    previous: previous ? { id: previous.id, createdAt: previous.createdAt, overall: previous.overall } : null,
  };
}

export function auditSummary(audit: AuditRow): AuditSummary {
  const subject = subjectOf(audit);
  return { id: audit.id, subject: { kind: audit.kind, prospectId: audit.prospectId, name: subject.name }, status: audit.status, createdAt: audit.createdAt, overall: audit.overall };
}
