// Which business a citation scan is about, and what its listings should say (issue 27): the user's own (Business
// Settings) or a prospect (admins), completed from its latest Local Search Audit (the Google listing's address, phone
// and website; the numbers the business's own site shows, its redirects; the map-pack competitors and their phones).
import { sitePhones } from "../audits/rules/checks";
import type { CitationCompetitor, ExpectedBusiness } from "./rules/citations";
import { expectedDetails } from "./rules/citations";
import { auditedBusiness, type BusinessRefusal, type BusinessTarget } from "../audits";
import type { Db } from "../../platform/db/client";
import { citationOwnerKey, type CitationOwner } from "./queries";

/** What judgeGoogle reads from the audit. */
export type GoogleFromAudit = Parameters<typeof import("./rules/citations").judgeGoogle>[1];

export type CitationBusiness = {
  owner: CitationOwner;
  ownerKey: string;
  name: string;
  expected: ExpectedBusiness;
  competitors: CitationCompetitor[];
  google: GoogleFromAudit;
};

export type CitationRefusal = BusinessRefusal;

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return null;
  }
}

/** The business of a request (the route has checked that the caller may scan a prospect), or why not. */
export async function resolveCitationBusiness(db: Db, target: BusinessTarget): Promise<{ ok: true; value: CitationBusiness } | { ok: false; refusal: CitationRefusal }> {
  const found = await auditedBusiness(db, target, "the Citation Tracker compares your listings with it.");
  if (!found.ok) return found;
  const { owner, subject } = found.value;
  const { latest, find, fetched, rank } = found.value.audit;
  const listing = find?.status === "found" ? find.listing : null;
  const at = latest?.finishedAt ?? latest?.createdAt ?? new Date().toISOString();
  const details = expectedDetails(
    { address: subject.address, area: subject.area, phone: subject.phone, website: subject.website },
    listing ? { address: listing.address ?? null, phone: listing.phone ?? null, website: listing.website ?? null, at } : null,
  );
  const { phone } = details;
  const page = fetched?.page.status === "fetched" ? fetched.page.facts : null;
  const knownPhones = page ? sitePhones(page).filter((p) => p !== phone) : [];
  const knownHosts = page ? [...new Set(page.redirectChain.map(hostOf).filter((h): h is string => h !== null))] : [];
  const competitors: CitationCompetitor[] =
    rank?.competitors.status === "ok" ? rank.competitors.competitors.filter((c) => c.phone).slice(0, 3).map((c) => ({ name: c.name, phone: c.phone ?? null })) : [];
  const google: GoogleFromAudit = !find || find.status === "failed" ? null : find.status === "found" ? { status: "found", listing: find.listing, at } : { status: "not_found", at };
  return {
    ok: true,
    value: {
      owner,
      ownerKey: citationOwnerKey(owner),
      name: subject.name,
      expected: { name: subject.name, ...details, knownPhones, knownHosts },
      competitors,
      google,
    },
  };
}
