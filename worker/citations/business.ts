// Which business a citation scan is about, and what its listings should say (issue 27): the user's own (Business
// Settings) or a prospect (admins), completed from its latest Local Search Audit (the Google listing's address, phone
// and website; the numbers the business's own site shows, its redirects; the map-pack competitors and their phones).
import { sitePhones } from "../domain/audit-checks";
import type { CitationCompetitor, ExpectedBusiness } from "../domain/citations";
import { splitAddress } from "../domain/citations";
import { normalizePhone } from "../domain/nap";
import { latestAuditResults } from "../audits/read";
import type { Db } from "../db/client";
import { citationOwnerKey, type CitationOwner } from "../db/citations";
import { prospectById } from "../db/rank";
import type { ProfileRow } from "../db/users";
import { ownSubject, prospectSubject } from "../audits/subject";
import { ErrorCode } from "../errors";

/** What judgeGoogle reads from the audit. */
export type GoogleFromAudit = Parameters<typeof import("../domain/citations").judgeGoogle>[1];

export type CitationBusiness = {
  owner: CitationOwner;
  ownerKey: string;
  name: string;
  expected: ExpectedBusiness;
  competitors: CitationCompetitor[];
  google: GoogleFromAudit;
};

export type CitationRefusal = { status: 400 | 404; code: string; message: string };

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return null;
  }
}

/** The business of a request (the route has checked that the caller may scan a prospect), or why not. */
export async function resolveCitationBusiness(
  db: Db,
  target: { own: true; userId: string; profile: ProfileRow | null } | { prospectId: string },
): Promise<{ ok: true; value: CitationBusiness } | { ok: false; refusal: CitationRefusal }> {
  let owner: CitationOwner;
  let subject;
  if ("prospectId" in target) {
    const prospect = await prospectById(db, target.prospectId);
    if (!prospect) return { ok: false, refusal: { status: 404, code: ErrorCode.notFound, message: "Prospect not found" } };
    owner = { kind: "prospect", prospectId: prospect.id };
    subject = prospectSubject(prospect);
  } else {
    const own = ownSubject(target.profile);
    if (!own.ok) return { ok: false, refusal: { status: 400, code: ErrorCode.profileRequired, message: `Add your business's ${own.missing} in Business Settings first: the Citation Tracker compares your listings with it.` } };
    owner = { kind: "own", userId: target.userId };
    subject = own.subject;
  }
  const { latest, find, fetched, rank } = await latestAuditResults(db, owner.kind === "own" ? { ownerId: owner.userId } : { prospectId: owner.prospectId });
  const listing = find?.status === "found" ? find.listing : null;
  const parts = splitAddress(subject.address ?? listing?.address ?? null);
  const phone = normalizePhone(subject.phone ?? "") ?? normalizePhone(listing?.phone ?? "");
  const website = subject.website ?? listing?.website ?? null;
  const page = fetched?.page.status === "fetched" ? fetched.page.facts : null;
  const knownPhones = page ? sitePhones(page).filter((p) => p !== phone) : [];
  const knownHosts = page ? [...new Set(page.redirectChain.map(hostOf).filter((h): h is string => h !== null))] : [];
  const competitors: CitationCompetitor[] =
    rank?.competitors.status === "ok" ? rank.competitors.competitors.filter((c) => c.phone).slice(0, 3).map((c) => ({ name: c.name, phone: c.phone ?? null })) : [];
  const at = latest?.finishedAt ?? latest?.createdAt ?? new Date().toISOString();
  const google: GoogleFromAudit = !find || find.status === "failed" ? null : find.status === "found" ? { status: "found", listing: find.listing, at } : { status: "not_found", at };
  return {
    ok: true,
    value: {
      owner,
      ownerKey: citationOwnerKey(owner),
      name: subject.name,
      expected: { name: subject.name, ...parts, city: parts.city ?? subject.area?.split(",")[0]?.trim() ?? null, phone, website, knownPhones, knownHosts },
      competitors,
      google,
    },
  };
}
