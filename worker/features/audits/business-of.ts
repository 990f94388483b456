// Which business a tool that builds on the Local Search Audit is about (the Citation Tracker, AI Visibility): the user's
// own (Business Settings) or a prospect (admins; the route has checked the caller may use it), with its latest audit.
import { getProspectForAudit, type AuditSubjectRecord } from "./queries";
import type { Db } from "../../platform/db/client";
import type { ProfileRow } from "../../platform/auth/users";
import { ErrorCode } from "../../platform/errors";
import { latestAuditResults } from "./read";
import { ownSubject, prospectSubject } from "./subject";

export type BusinessTarget = { own: true; userId: string; profile: ProfileRow | null } | { prospectId: string };
export type BusinessOwner = { kind: "own"; userId: string } | { kind: "prospect"; prospectId: string };
export type BusinessRefusal = { status: 400 | 404; code: string; message: string };

export type AuditedBusiness = {
  owner: BusinessOwner;
  subject: AuditSubjectRecord;
  /** The user's own time zone (Business Settings); none for a prospect. */
  timezone: string | null;
  audit: Awaited<ReturnType<typeof latestAuditResults>>;
};

/**
 * The business as it is now, or why not: a prospect that is not there (404), an own business whose Business Settings
 * lack what the tool needs (400; `why` ends the sentence: "…first: `why`").
 */
export async function businessSubject(
  db: Db,
  target: BusinessTarget,
  why: string,
): Promise<{ ok: true; value: Omit<AuditedBusiness, "audit"> } | { ok: false; refusal: BusinessRefusal }> {
  if ("prospectId" in target) {
    const prospect = await getProspectForAudit(db, target.prospectId);
    if (!prospect) return { ok: false, refusal: { status: 404, code: ErrorCode.notFound, message: "Prospect not found" } };
    return { ok: true, value: { owner: { kind: "prospect", prospectId: prospect.id }, subject: prospectSubject(prospect), timezone: null } };
  }
  const own = ownSubject(target.profile);
  if (!own.ok) return { ok: false, refusal: { status: 400, code: ErrorCode.profileRequired, message: `Add your business's ${own.missing} in Business Settings first: ${why}` } };
  return { ok: true, value: { owner: { kind: "own", userId: target.userId }, subject: own.subject, timezone: target.profile?.timeZone ?? null } };
}

/** The business (see businessSubject) and its latest audit's results, or why not. */
export async function auditedBusiness(db: Db, target: BusinessTarget, why: string): Promise<{ ok: true; value: AuditedBusiness } | { ok: false; refusal: BusinessRefusal }> {
  const found = await businessSubject(db, target, why);
  if (!found.ok) return found;
  const { owner } = found.value;
  const audit = await latestAuditResults(db, owner.kind === "own" ? { ownerId: owner.userId } : { prospectId: owner.prospectId });
  return { ok: true, value: { ...found.value, audit } };
}
