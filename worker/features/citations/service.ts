// What the Citation Tracker's routes ask of it (issue 27): the refusals before a scan (no search key, the plan's
// limit, the allowance), starting a scan by hand and the scan's view with the one before it.
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import type { AppEnv } from "../../platform/context";
import { ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";
import { readAllowance } from "../../platform/metering/budgets";
import { settingsOf } from "../../platform/metering/meter";
import { tellAgency } from "../../platform/notifications/tell-agency";
import { searchConfigured } from "../../platform/providers/local-search";
import { monthPeriod } from "../../domain/metering";
import { CUSTOMER_UNAVAILABLE, UnavailableCode } from "../setup/rules/setup";
import type { BusinessScope } from "../../platform/http/business-scope";
import type { CitationBusiness } from "./business";
import { countOwnScansSince, getCitationScan, previousCitationScan, type CitationScanRow } from "./queries";
import { CITATION_SCAN_LIMITS } from "./rules/citations";
import { startCitationScan } from "./scan";
import { buildCitationScanView } from "./view";

export const CitationErrorCode = { allowanceExceeded: "allowance_exceeded", scanLimit: "scan_limit_reached" } as const;

type Subject = AppEnv["Variables"]["subject"];
type Estimate = { searches: number; costUsd: number; allowanceLeftUsd: number | null };

/** The 402 of a scan whose searches do not fit what is left of the allowance. */
export function citationAllowanceRefusal(estimate: Estimate) {
  const left = estimate.allowanceLeftUsd === null ? "" : ` ($${estimate.allowanceLeftUsd.toFixed(2)})`;
  return {
    code: CitationErrorCode.allowanceExceeded,
    message: `A citation scan needs ${estimate.searches} searches (about $${estimate.costUsd.toFixed(2)}), more than is left of your allowance this month${left}.`,
  };
}

/** The plan's limit on a user's own scans, or null when the next scan is allowed. */
async function planLimitRefusal(env: Env, db: Db, subject: Subject): Promise<string | null> {
  if (subject.isAdmin) return null;
  const read = await readAllowance(db, subject.id, settingsOf(env));
  const now = new Date();
  if (read.allowance.plan === "Self Service") {
    const since = new Date(now.getTime() - CITATION_SCAN_LIMITS.selfServiceEveryDays * 86_400_000).toISOString();
    return (await countOwnScansSince(db, subject.id, since)) > 0 ? "Your plan includes one citation scan a week, and this week's has been run. The next one is available 7 days after it." : null;
  }
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
  return (await countOwnScansSince(db, subject.id, monthStart)) >= CITATION_SCAN_LIMITS.freePerMonth
    ? `The Free plan includes one citation scan a month, and this month's has been run. Upgrade to Self Service for a scan every week, or scan again after ${monthPeriod(now).end.toISOString().slice(0, 10)}.`
    : null;
}

/**
 * Why a scan may not run now, checked before the allowance: without a search key (refused in the customer's words
 * before anything is stored, and the agency is told, issue 26), or past the plan's limit on one's own scans.
 */
export async function citationRunRefusal(env: Env, db: Db, subject: Subject, scope: BusinessScope) {
  if (!searchConfigured(env)) {
    await tellAgency(env, "search");
    return { status: 503 as const, code: UnavailableCode.search, message: `The Citation Tracker searches the web for your listings. ${CUSTOMER_UNAVAILABLE.searchTold}` };
  }
  const limit = scope.kind === "own" ? await planLimitRefusal(env, db, subject) : null;
  return limit ? { status: 429 as const, code: CitationErrorCode.scanLimit, message: limit } : null;
}

/** A scan's view, compared with the scan of the same business before it. */
export async function citationScanView(db: Db, found: { scan: CitationScanRow; checks: Parameters<typeof buildCitationScanView>[1] }) {
  const before = await previousCitationScan(db, found.scan);
  const previous = before ? await getCitationScan(db, before.id) : null;
  return buildCitationScanView(found.scan, found.checks, previous);
}

/** Starts a scan by hand and answers its view, or the 503 when it could not be started. */
export async function startManualCitationScan(env: Env, db: Db, business: CitationBusiness, userId: string) {
  let scan: CitationScanRow;
  try {
    scan = await startCitationScan(env, { business, userId, trigger: "manual" });
  } catch (error) {
    log.error("citations: scan start failed", {}, error);
    return { ok: false as const, refusal: { status: 503 as const, code: ErrorCode.unavailable, message: "The scan could not be started. Please try again." } };
  }
  return { ok: true as const, value: await citationScanView(db, (await getCitationScan(db, scan.id))!) };
}
