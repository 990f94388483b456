// /api/citations (issue 27): the Citation Tracker's scans (estimate, run, read, history, CSV) and its sources table.
// Permissions are enforced here: a user scans and reads their own business, admins prospects' too; viewing as someone
// is read-only (requireUser refuses writes). A scan past the allowance answers 402 before any call; plan limits apply
// to a user's own scans (Free one a month, Self Service one a week).
import { Hono } from "hono";
import { z } from "zod";
import { requireUser } from "../../platform/auth/middleware";
import { businessScope, mayReadBusinessRow, scopeOwner, scopeTarget } from "../../platform/http/business-scope";
import { estimateOrRefusal, estimateQuery, refusalResponse } from "../../platform/http/paid-run";
import { resolveCitationBusiness } from "./business";
import { citationScanEstimate } from "./scan";
import { citationAllowanceRefusal, citationRunRefusal, citationScanView, startManualCitationScan } from "./service";
import { citationHistory, sourceResults } from "./view";
import type { AppEnv } from "../../platform/context";
import { checksOfScans, citationOwnerKey, getCitationScan, listCitationScans } from "./queries";
import { getDb } from "../../platform/db/client";
import { CITATION_SOURCES, SOURCE_KIND_LABELS } from "./rules/sources";
import { CitationScanRequest } from "./rules/citations";
import { citationsCsv } from "./rules/summary";
import { apiError, ErrorCode } from "../../platform/errors";
import { validate, validId } from "../../platform/validate";
import { paidFeature } from "../../platform/metering/guard";

export { CitationErrorCode } from "./service";
export const CITATION_SCAN_NOT_FOUND = "Scan not found";

const ListQuery = z.object({ business: z.union([z.literal("own"), z.string().trim().min(1).max(100)], { error: "business: own or a prospect id" }) });

/** `business`: own, or a prospect's (admins'); read rule: the admin flag (as the subject, so view-as reads). */
const scanScope = (from: "json" | "query", what: string) => businessScope({ from, field: "business", what, wording: "short" });

export const citationRoutes = new Hono<AppEnv>()
  .use(requireUser)

  .get("/sources", (c) =>
    c.json({
      sources: CITATION_SOURCES.map((s) => ({ id: s.id, name: s.name, domain: s.domain, kind: s.kind, kindLabel: SOURCE_KIND_LABELS[s.kind], lookup: s.lookup, claimUrl: s.claimUrl, note: s.note ?? null })),
    }),
  )

  .post("/scans", paidFeature, estimateQuery, validate("json", CitationScanRequest), scanScope("json", "scan"), async (c) => {
    const db = getDb(c.env);
    const subject = c.get("subject");
    const business = c.get("business");
    const estimate = await citationScanEstimate(c.env, db, subject.id);
    // Refused before any call: the whole scan's searches must fit what is left.
    const refused = await estimateOrRefusal(c, estimate, citationAllowanceRefusal, async () => {
      const refusal = await citationRunRefusal(c.env, db, subject, business);
      return refusal && refusalResponse(c, refusal);
    });
    if (refused) return refused;
    const resolved = await resolveCitationBusiness(db, scopeTarget(business));
    if (!resolved.ok) return refusalResponse(c, resolved.refusal);
    const started = await startManualCitationScan(c.env, db, resolved.value, subject.id);
    if (!started.ok) return refusalResponse(c, started.refusal);
    return c.json(started.value, 201);
  })

  .get("/scans", validate("query", ListQuery), scanScope("query", "read the scans of"), async (c) => {
    const db = getDb(c.env);
    const ownerKey = citationOwnerKey(scopeOwner(c.get("business")));
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
    if (!found || !mayReadBusinessRow(c, found.scan, "admin-flag")) return apiError(c, 404, ErrorCode.notFound, CITATION_SCAN_NOT_FOUND);
    return c.json(await citationScanView(db, found));
  })

  .get("/scans/:id/export.csv", validId(CITATION_SCAN_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const found = await getCitationScan(db, c.req.valid("param").id);
    if (!found || !mayReadBusinessRow(c, found.scan, "admin-flag")) return apiError(c, 404, ErrorCode.notFound, CITATION_SCAN_NOT_FOUND);
    const csv = citationsCsv(sourceResults(found.checks));
    // The byte-order mark makes spreadsheet apps read the file as UTF-8.
    return c.body(`\uFEFF${csv}`, 200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="citations-${found.scan.createdAt.slice(0, 10)}.csv"` });
  });
