// /api/audits (issue 18): start an audit of a prospect (admins) or of the caller's own business, read one as its steps
// land, list a business's audits, pick the Google listing when none matched. Permissions are enforced here: prospects'
// audits are admins', an own-business audit is its owner's; viewing as someone is read-only (requireUser).
import { Hono, type Context } from "hono";
import { z } from "zod";
import { actsAsAdmin, adminRefusal, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { getAudit, getProspectForAudit, latestAudit, listAudits, reopenSteps, type AuditRow } from "./queries";
import type { AuditStepId } from "./rules/view";
import { apiError, ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";
import { validate, validId } from "../../platform/validate";
import { loadAuditView } from "./read";
import { auditCanCheck, startAudit } from "./run";
import { readMapsUrl } from "./steps";
import { ownSubject, prospectSubject, subjectChanged } from "./subject";
import { expireOverdueSteps } from "./run";
import type { Db } from "../../platform/db/client";
import type { AuditView } from "./rules/view";
import { auditSummary, rerunAfter, subjectOf } from "./view";
import { paidFeature } from "../../platform/metering/guard";
import { tellAgency } from "../../platform/notifications/tell-agency";
import { CUSTOMER_UNAVAILABLE, UnavailableCode } from "../setup/rules/setup";

export const AUDIT_NOT_FOUND = "Audit not found";
export const AuditErrorCode = {
  tooRecent: "audit_too_recent",
  stepRunning: "audit_step_running",
  badListing: "listing_choice_invalid",
  profileIncomplete: ErrorCode.profileRequired,
} as const;

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

const adminOnly = (c: Context<AppEnv>) => adminRefusal(c, "You need administrator privileges to audit a prospect.");

/** The business's details as they are now (null: the prospect is gone or the profile lacks what the audit needs). */
async function currentSubject(c: Context<AppEnv>, db: Db, audit: AuditRow) {
  if (audit.kind === "own") {
    const own = ownSubject(c.get("subject").profile);
    return own.ok ? own.subject : null;
  }
  const prospect = audit.prospectId ? await getProspectForAudit(db, audit.prospectId) : null;
  return prospect ? prospectSubject(prospect) : null;
}

/** The view with `stale` set when the business's details changed since the audit ran (then it may run again now). */
async function viewWithStaleness(c: Context<AppEnv>, db: Db, audit: AuditRow): Promise<AuditView | null> {
  const [view, now] = await Promise.all([loadAuditView(db, audit.id), currentSubject(c, db, audit)]);
  if (!view) return null;
  const stale = now !== null && subjectChanged(subjectOf(audit), now);
  return stale ? { ...view, stale, rerunAfter: null } : { ...view, stale };
}

/**
 * Who may read an audit: a prospect's, admins (with requireAdmin's two-factor rule); their own business's, the owner
 * (as the subject, so view-as reads it).
 */
function mayRead(c: Context<AppEnv>, audit: AuditRow): boolean {
  return audit.kind === "prospect" ? actsAsAdmin(c) : audit.userId === c.get("subject").id;
}

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

export const auditRoutes = new Hono<AppEnv>()
  .use(requireUser)

  .post("/", paidFeature, validate("json", StartAudit), async (c) => {
    const body = c.req.valid("json");
    const db = getDb(c.env);
    const subject = c.get("subject");
    let target: { kind: "prospect" | "own"; prospectId: string | null; subject: ReturnType<typeof prospectSubject> };
    if ("prospectId" in body) {
      const refused = adminOnly(c);
      if (refused) return refused;
      const prospect = await getProspectForAudit(db, body.prospectId);
      if (!prospect) return apiError(c, 404, ErrorCode.notFound, "Prospect not found");
      target = { kind: "prospect", prospectId: prospect.id, subject: prospectSubject(prospect) };
    } else {
      const own = ownSubject(subject.profile);
      if (!own.ok) {
        return apiError(c, 400, AuditErrorCode.profileIncomplete, `Add your business's ${own.missing} in Business Settings first: the audit searches Google for it.`);
      }
      target = { kind: "own", prospectId: null, subject: own.subject };
    }
    if (!auditCanCheck(c.env, target.subject)) {
      // Without search the audit could only read the website: with none, it would check nothing (issue 39).
      await tellAgency(c.env, "search");
      const add = target.kind === "own" ? "Add your website in Business Settings to have it checked now." : "Add the prospect's website to have it checked now.";
      return apiError(c, 503, UnavailableCode.search, `${CUSTOMER_UNAVAILABLE.search}, and without a website there is nothing else the audit can check. ${add} Your agency has been told.`);
    }
    const latest = await latestAudit(db, target.prospectId ? { prospectId: target.prospectId } : { ownerId: subject.id });
    // An audit whose inputs changed (Business Settings, the prospect's details) is stale: it may run again at once.
    const after = latest && !subjectChanged(subjectOf(latest), target.subject) ? rerunAfter(latest) : null;
    if (latest && after) return tooRecent(c, latest, after);
    let audit: AuditRow;
    try {
      audit = await startAudit(c.env, { ...target, userId: c.get("caller").id });
    } catch (error) {
      log.error("audits: start failed", {}, error);
      return apiError(c, 503, ErrorCode.unavailable, "The audit could not be started. Please try again.");
    }
    return c.json((await loadAuditView(db, audit.id))!, 201);
  })

  .get("/", validate("query", HistoryQuery), async (c) => {
    const query = c.req.valid("query");
    const db = getDb(c.env);
    if ("prospectId" in query) {
      const refused = adminOnly(c);
      if (refused) return refused;
      return c.json({ audits: (await listAudits(db, { prospectId: query.prospectId })).map(auditSummary) });
    }
    return c.json({ audits: (await listAudits(db, { ownerId: c.get("subject").id })).map(auditSummary) });
  })

  .get("/:id", validId(AUDIT_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const found = await getAudit(db, c.req.valid("param").id);
    if (!found || !mayRead(c, found.audit)) return apiError(c, 404, ErrorCode.notFound, AUDIT_NOT_FOUND);
    // A step that has waited past its deadline ends as unavailable here too (no cron runs under wrangler dev).
    await expireOverdueSteps(c.env, found.audit.id);
    return c.json((await viewWithStaleness(c, db, found.audit))!);
  })

  .post("/:id/listing", validId(AUDIT_NOT_FOUND), validate("json", ListingChoice), async (c) => {
    const db = getDb(c.env);
    const found = await getAudit(db, c.req.valid("param").id);
    if (!found || !mayRead(c, found.audit)) return apiError(c, 404, ErrorCode.notFound, AUDIT_NOT_FOUND);
    const choice = c.req.valid("json");
    if ("mapsUrl" in choice && !readMapsUrl(choice.mapsUrl)) {
      return apiError(c, 400, AuditErrorCode.badListing, "That is not a Google Maps link to a place. Open the listing on Google Maps and copy the address from the browser.", {
        mapsUrl: ["Not a Google Maps place link"],
      });
    }
    const find = found.steps.find((s) => s.step === "find");
    if (!find || find.status === "skipped") return apiError(c, 409, AuditErrorCode.stepRunning, "This audit did not search Google (no search key), so there is no listing to pick.");
    const busy = found.steps.filter((s) => s.status === "pending" || s.status === "running");
    if (busy.length > 0) return apiError(c, 409, AuditErrorCode.stepRunning, "The audit is still running; pick the listing once it has finished.");
    // The listing and everything that reads it run again: find, rank, and the website steps when the site came from the listing.
    const again: AuditStepId[] = subjectOf(found.audit).website ? ["find", "rank"] : ["find", "fetch", "speed", "rank"];
    await reopenSteps(db, found.audit.id, again, JSON.stringify(choice));
    await c.env.AUDITS.send({ auditId: found.audit.id, step: "find" });
    return c.json((await loadAuditView(db, found.audit.id))!);
  });
