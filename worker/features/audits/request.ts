// What the audits' routes ask of the capability: an audit started for a business (when it could check anything and
// the last one is not too recent), an audit read with whether its business changed since, and the listing picked by
// hand when none matched.
import type { Env } from "../../platform/env";
import { getDb, type Db } from "../../platform/db/client";
import type { ProfileRow } from "../../platform/auth/users";
import { ErrorCode, type FieldErrors } from "../../platform/errors";
import { log } from "../../platform/log";
import { tellAgency } from "../../platform/notifications/tell-agency";
import { CUSTOMER_UNAVAILABLE, UnavailableCode } from "../setup/rules/setup";
import { businessSubject, type BusinessTarget } from "./business-of";
import { getProspectForAudit, latestAudit, reopenSteps, type AuditRow, type AuditStepRow } from "./queries";
import { loadAuditView } from "./read";
import { auditCanCheck, startAudit } from "./run";
import { readMapsUrl } from "./steps";
import { ownSubject, prospectSubject, subjectChanged } from "./subject";
import type { AuditStepId, AuditView } from "./rules/view";
import { rerunAfter, subjectOf } from "./view";

export const AuditErrorCode = {
  tooRecent: "audit_too_recent",
  stepRunning: "audit_step_running",
  badListing: "listing_choice_invalid",
  profileIncomplete: ErrorCode.profileRequired,
} as const;

type Refusal<S> = { status: S; code: string; message: string; fields?: FieldErrors };
export type ListingChoice = { placeId: string } | { mapsUrl: string };

/**
 * Starts an audit of the business for `callerId`, answering its first view; or why not: the business (404, 400), no
 * search and no website (503, the agency told), an audit less than 7 days old whose inputs did not change
 * (`tooRecent`), a start that failed (503).
 */
export async function requestAudit(
  env: Env,
  target: BusinessTarget,
  callerId: string,
): Promise<{ ok: true; view: AuditView } | { ok: false; refusal: Refusal<400 | 404 | 503> } | { ok: false; tooRecent: { latest: AuditRow; after: string } }> {
  const db = getDb(env);
  const business = await businessSubject(db, target, "the audit searches Google for it.");
  if (!business.ok) return business;
  const { owner, subject } = business.value;
  if (!auditCanCheck(env, subject)) {
    // Without search the audit could only read the website: with none, it would check nothing (issue 39).
    await tellAgency(env, "search");
    const add = owner.kind === "own" ? "Add your website in Business Settings to have it checked now." : "Add the prospect's website to have it checked now.";
    const message = `${CUSTOMER_UNAVAILABLE.search}, and without a website there is nothing else the audit can check. ${add} Your agency has been told.`;
    return { ok: false, refusal: { status: 503, code: UnavailableCode.search, message } };
  }
  const prospectId = owner.kind === "prospect" ? owner.prospectId : null;
  const latest = await latestAudit(db, owner.kind === "prospect" ? { prospectId: owner.prospectId } : { ownerId: owner.userId });
  // An audit whose inputs changed (Business Settings, the prospect's details) is stale: it may run again at once.
  const after = latest && !subjectChanged(subjectOf(latest), subject) ? rerunAfter(latest) : null;
  if (latest && after) return { ok: false, tooRecent: { latest, after } };
  let audit: AuditRow;
  try {
    audit = await startAudit(env, { kind: owner.kind, prospectId, subject, userId: callerId });
  } catch (error) {
    log.error("audits: start failed", {}, error);
    return { ok: false, refusal: { status: 503, code: ErrorCode.unavailable, message: "The audit could not be started. Please try again." } };
  }
  return { ok: true, view: (await loadAuditView(db, audit.id))! };
}

/** The business's details as they are now (null: the prospect is gone or the profile lacks what the audit needs). */
async function currentSubject(db: Db, audit: AuditRow, profile: ProfileRow | null) {
  if (audit.kind === "own") {
    const own = ownSubject(profile);
    return own.ok ? own.subject : null;
  }
  const prospect = audit.prospectId ? await getProspectForAudit(db, audit.prospectId) : null;
  return prospect ? prospectSubject(prospect) : null;
}

/**
 * The audit's view with `stale` set when the business's details changed since it ran (then it may run again now);
 * `profile`: the reader's, for their own business.
 */
export async function auditViewNow(db: Db, audit: AuditRow, profile: ProfileRow | null): Promise<AuditView | null> {
  const [view, now] = await Promise.all([loadAuditView(db, audit.id), currentSubject(db, audit, profile)]);
  if (!view) return null;
  const stale = now !== null && subjectChanged(subjectOf(audit), now);
  return stale ? { ...view, stale, rerunAfter: null } : { ...view, stale };
}

/**
 * The listing picked by hand: the audit's find step runs again with it, and everything that reads the listing after
 * it. Refused: a link that is not a Google Maps place (400), an audit that did not search or is still running (409).
 */
export async function pickListing(env: Env, found: { audit: AuditRow; steps: AuditStepRow[] }, choice: ListingChoice): Promise<{ ok: true; view: AuditView } | { ok: false; refusal: Refusal<400 | 409> }> {
  if ("mapsUrl" in choice && !readMapsUrl(choice.mapsUrl)) {
    const message = "That is not a Google Maps link to a place. Open the listing on Google Maps and copy the address from the browser.";
    return { ok: false, refusal: { status: 400, code: AuditErrorCode.badListing, message, fields: { mapsUrl: ["Not a Google Maps place link"] } } };
  }
  const find = found.steps.find((s) => s.step === "find");
  if (!find || find.status === "skipped") return { ok: false, refusal: { status: 409, code: AuditErrorCode.stepRunning, message: "This audit did not search Google (no search key), so there is no listing to pick." } };
  if (found.steps.some((s) => s.status === "pending" || s.status === "running")) {
    return { ok: false, refusal: { status: 409, code: AuditErrorCode.stepRunning, message: "The audit is still running; pick the listing once it has finished." } };
  }
  // The listing and everything that reads it run again: find, rank, and the website steps when the site came from the listing.
  const again: AuditStepId[] = subjectOf(found.audit).website ? ["find", "rank"] : ["find", "fetch", "speed", "rank"];
  const db = getDb(env);
  await reopenSteps(db, found.audit.id, again, JSON.stringify(choice));
  await env.AUDITS.send({ auditId: found.audit.id, step: "find" });
  return { ok: true, view: (await loadAuditView(db, found.audit.id))! };
}
