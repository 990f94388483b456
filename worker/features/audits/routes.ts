// /api/audits (issue 18): start an audit of a prospect (admins) or of the caller's own business, read one as its steps
// land, list a business's audits, pick the Google listing when none matched. Permissions are the shared business
// scope: prospects' audits are admins', an own-business audit is its owner's; viewing as someone is read-only
// (requireUser).
import { Hono, type Context } from "hono";
import { z } from "zod";
import { requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { businessScope, mayReadBusinessRow, scopeTarget } from "../../platform/http/business-scope";
import { refusalResponse } from "../../platform/http/paid-run";
import { getAudit, listAudits, type AuditRow } from "./queries";
import { apiError, ErrorCode } from "../../platform/errors";
import { validate, validId } from "../../platform/validate";
import { expireOverdueSteps } from "./run";
import { AuditErrorCode, auditViewNow, pickListing, requestAudit } from "./request";
import { auditSummary } from "./view";
import { paidFeature } from "../../platform/metering/guard";

export const AUDIT_NOT_FOUND = "Audit not found";
export { AuditErrorCode };

const StartAudit = z.union([
  z.strictObject({ prospectId: z.string().trim().min(1).max(64) }),
  z.strictObject({ own: z.literal(true) }),
]);

const HistoryQuery = z.union([
  z.object({ prospectId: z.string().trim().min(1).max(64) }),
  z.object({ own: z.literal("1") }),
]);

const ListingChoice = z.union([
  z.strictObject({ placeId: z.string().trim().min(1).max(300) }),
  z.strictObject({ mapsUrl: z.string().trim().min(1).max(2000) }),
]);

/** The business an audit request names (`prospectId`, or its own), a prospect only for an admin. */
const auditScope = (from: "json" | "query") => businessScope({ from, field: "prospectId", what: "audit" });

function tooRecent(c: Context<AppEnv>, latest: AuditRow, after: string) {
  return c.json(
    {
      error: { code: AuditErrorCode.tooRecent, message: `This business was audited less than 7 days ago; it can be audited again after ${after.slice(0, 10)}.` },
      rerunAfter: after,
      auditId: latest.id,
    },
    409,
  );
}

/** The audit when the caller may read it (a prospect's: an admin acting as one; an own business's: its owner). */
async function readableAudit(c: Context<AppEnv>, id: string) {
  const found = await getAudit(getDb(c.env), id);
  return found && mayReadBusinessRow(c, found.audit) ? found : null;
}

export const auditRoutes = new Hono<AppEnv>()
  .use(requireUser)

  .post("/", paidFeature, validate("json", StartAudit), auditScope("json"), async (c) => {
    const started = await requestAudit(c.env, scopeTarget(c.get("business")), c.get("caller").id);
    if (started.ok) return c.json(started.view, 201);
    if ("tooRecent" in started) return tooRecent(c, started.tooRecent.latest, started.tooRecent.after);
    return refusalResponse(c, started.refusal);
  })

  .get("/", validate("query", HistoryQuery), auditScope("query"), async (c) => {
    const scope = c.get("business");
    const audits = await listAudits(getDb(c.env), scope.kind === "prospect" ? { prospectId: scope.prospectId } : { ownerId: scope.userId });
    return c.json({ audits: audits.map(auditSummary) });
  })

  .get("/:id", validId(AUDIT_NOT_FOUND), async (c) => {
    const found = await readableAudit(c, c.req.valid("param").id);
    if (!found) return apiError(c, 404, ErrorCode.notFound, AUDIT_NOT_FOUND);
    // A step that has waited past its deadline ends as unavailable here too (no cron runs under wrangler dev).
    await expireOverdueSteps(c.env, found.audit.id);
    return c.json((await auditViewNow(getDb(c.env), found.audit, c.get("subject").profile))!);
  })

  .post("/:id/listing", validId(AUDIT_NOT_FOUND), validate("json", ListingChoice), async (c) => {
    const found = await readableAudit(c, c.req.valid("param").id);
    if (!found) return apiError(c, 404, ErrorCode.notFound, AUDIT_NOT_FOUND);
    const picked = await pickListing(c.env, found, c.req.valid("json"));
    return picked.ok ? c.json(picked.view) : refusalResponse(c, picked.refusal);
  });
