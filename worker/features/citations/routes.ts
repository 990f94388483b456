// /api/citations (issue 27): the Citation Tracker's scans (estimate, run, read, history, CSV) and its sources table.
// Permissions are enforced here: a user scans and reads their own business, admins prospects' too; viewing as someone
// is read-only (requireUser refuses writes). A scan past the allowance answers 402 before any call; plan limits apply
// to a user's own scans (Free one a month, Self Service one a week).
import { Hono, type Context } from "hono";
import { z } from "zod";
import { requireUser } from "../../platform/auth/middleware";
import { adminOnly } from "../../platform/auth/prospect-scope";
import { resolveCitationBusiness } from "./business";
import { citationScanEstimate, startCitationScan } from "./scan";
import { buildCitationScanView, citationHistory, sourceResults } from "./view";
import type { AppEnv } from "../../platform/context";
import { readAllowance } from "../../platform/metering/budgets";
import { checksOfScans, citationOwnerKey, countOwnScansSince, getCitationScan, listCitationScans, previousCitationScan, type CitationScanRow } from "./queries";
import { getDb, type Db } from "../../platform/db/client";
import { CITATION_SOURCES, SOURCE_KIND_LABELS } from "./rules/sources";
import { CITATION_SCAN_LIMITS, CitationScanRequest } from "./rules/citations";
import { citationsCsv } from "./rules/summary";
import { monthPeriod } from "../../domain/metering";
import { CUSTOMER_UNAVAILABLE, UnavailableCode } from "../setup/rules/setup";
import { apiError, ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";
import { settingsOf } from "../../platform/metering/meter";
import { searchConfigured } from "../../platform/providers/local-search";
import { tellAgency } from "../../platform/notifications/tell-agency";
import { validate, validId } from "../../platform/validate";
import { paidFeature } from "../../platform/metering/guard";


export const CITATION_SCAN_NOT_FOUND = "Scan not found";
export const CitationErrorCode = { allowanceExceeded: "allowance_exceeded", scanLimit: "scan_limit_reached" } as const;

const RunQuery = z.object({ estimate: z.literal("1").optional() });
const ListQuery = z.object({ business: z.union([z.literal("own"), z.string().trim().min(1).max(100)], { error: "business: own or a prospect id" }) });

/** Users read their own business's scans; admins prospects' too (as the subject, so view-as reads). */
function mayRead(c: Context<AppEnv>, row: CitationScanRow): boolean {
  const subject = c.get("subject");
  return row.kind === "prospect" ? subject.isAdmin : row.userId === subject.id;
}

/** The plan's limit on a user's own scans, or null when the next scan is allowed. */
async function planLimitRefusal(c: Context<AppEnv>, db: Db): Promise<string | null> {
  const subject = c.get("subject");
  if (subject.isAdmin) return null;
  const read = await readAllowance(db, subject.id, settingsOf(c.env));
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

async function viewOf(db: Db, found: { scan: CitationScanRow; checks: Parameters<typeof buildCitationScanView>[1] }) {
  const before = await previousCitationScan(db, found.scan);
  const previous = before ? await getCitationScan(db, before.id) : null;
  return buildCitationScanView(found.scan, found.checks, previous);
}

export const citationRoutes = new Hono<AppEnv>()
  .use(requireUser)

  .get("/sources", (c) =>
    c.json({
      sources: CITATION_SOURCES.map((s) => ({ id: s.id, name: s.name, domain: s.domain, kind: s.kind, kindLabel: SOURCE_KIND_LABELS[s.kind], lookup: s.lookup, claimUrl: s.claimUrl, note: s.note ?? null })),
    }),
  )

  .post("/scans", paidFeature, validate("query", RunQuery), validate("json", CitationScanRequest), async (c) => {
    const { business } = c.req.valid("json");
    const db = getDb(c.env);
    const subject = c.get("subject");
    if (business !== "own") {
      const refused = adminOnly(c, "scan");
      if (refused) return refused;
    }
    const estimate = await citationScanEstimate(c.env, db, subject.id);
    if (c.req.valid("query").estimate) return c.json(estimate);
    // As the rank tools: refused in the customer's words before anything is stored, and the agency is told (issue 26).
    if (!searchConfigured(c.env)) {
      await tellAgency(c.env, "search");
      return apiError(c, 503, UnavailableCode.search, `The Citation Tracker searches the web for your listings. ${CUSTOMER_UNAVAILABLE.searchTold}`);
    }
    if (business === "own") {
      const limit = await planLimitRefusal(c, db);
      if (limit) return apiError(c, 429, CitationErrorCode.scanLimit, limit);
    }
    // Refused before any call: the whole scan's searches must fit what is left.
    if (!estimate.allowed) {
      return apiError(
        c,
        402,
        CitationErrorCode.allowanceExceeded,
        `A citation scan needs ${estimate.searches} searches (about $${estimate.costUsd.toFixed(2)}), more than is left of your allowance this month${estimate.allowanceLeftUsd === null ? "" : ` ($${estimate.allowanceLeftUsd.toFixed(2)})`}.`,
      );
    }
    const resolved = await resolveCitationBusiness(db, business === "own" ? { own: true, userId: subject.id, profile: subject.profile } : { prospectId: business });
    if (!resolved.ok) return apiError(c, resolved.refusal.status, resolved.refusal.code, resolved.refusal.message);
    let scan: CitationScanRow;
    try {
      scan = await startCitationScan(c.env, { business: resolved.value, userId: subject.id, trigger: "manual" });
    } catch (error) {
      log.error("citations: scan start failed", {}, error);
      return apiError(c, 503, ErrorCode.unavailable, "The scan could not be started. Please try again.");
    }
    const found = (await getCitationScan(db, scan.id))!;
    return c.json(await viewOf(db, found), 201);
  })

  .get("/scans", validate("query", ListQuery), async (c) => {
    const { business } = c.req.valid("query");
    if (business !== "own") {
      const refused = adminOnly(c, "read the scans of");
      if (refused) return refused;
    }
    const db = getDb(c.env);
    const ownerKey = citationOwnerKey(business === "own" ? { kind: "own", userId: c.get("subject").id } : { kind: "prospect", prospectId: business });
    const scans = await listCitationScans(db, ownerKey);
    const checks = await checksOfScans(
      db,
      scans.map((s) => s.id),
    );
    return c.json({ scans: citationHistory(scans, checks) });
  })

  .get("/scans/:id", validId(CITATION_SCAN_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const found = await getCitationScan(db, c.req.valid("param").id);
    if (!found || !mayRead(c, found.scan)) return apiError(c, 404, ErrorCode.notFound, CITATION_SCAN_NOT_FOUND);
    return c.json(await viewOf(db, found));
  })

  .get("/scans/:id/export.csv", validId(CITATION_SCAN_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const found = await getCitationScan(db, c.req.valid("param").id);
    if (!found || !mayRead(c, found.scan)) return apiError(c, 404, ErrorCode.notFound, CITATION_SCAN_NOT_FOUND);
    const csv = citationsCsv(sourceResults(found.checks));
    // The byte-order mark makes spreadsheet apps read the file as UTF-8.
    return c.body(`\uFEFF${csv}`, 200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="citations-${found.scan.createdAt.slice(0, 10)}.csv"` });
  });
