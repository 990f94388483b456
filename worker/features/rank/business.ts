// Which business a scan or a tracked keyword is about, and where its Google listing is (issue 19): the user's own
// (Business Settings) or a prospect (admins), the listing (place id and coordinates) from its latest audit's find
// step, else from an earlier scan or keyword of the same business, else found with one metered maps search.
import type { ProfileRow } from "../../platform/auth/users";
import type { Payer } from "../../domain/metering";
import type { RankBusiness } from "./rules/view";
import { pickListing } from "../../domain/listing-match";
import { getAudit, latestAudit } from "../audits";
import type { Db } from "../../platform/db/client";
import { listGridScans, listTrackedKeywords, prospectById, type RankOwner } from "./queries";
import type { Env } from "../../platform/env";
import { reserveLoggedCall } from "../../platform/metering/usage-log";
import { METERED_TOOL_NAMES } from "../usage/rules/usage-stats";
import { searchConfigured, searchMaps } from "../../platform/providers/local-search";
import { ownSubject, prospectSubject } from "../audits";
import { type FindResult } from "../audits";
import { parseJson } from "../../domain/json";
import { ErrorCode } from "../../platform/errors";
import { CUSTOMER_UNAVAILABLE, UnavailableCode } from "../setup/rules/setup";
import { tellAgency } from "../../platform/notifications/tell-agency";
import { rankSearchTimeoutMs } from "./config";

export const RankErrorCode = {
  listingNotFound: "listing_not_found",
  profileIncomplete: ErrorCode.profileRequired,
  searchUnavailable: UnavailableCode.search,
  allowanceExceeded: "allowance_exceeded",
  gridSizeNotAllowed: "grid_size_not_allowed",
  keywordLimit: "keyword_limit_reached",
  keywordExists: "keyword_already_tracked",
} as const;

export const LISTING_NOT_FOUND_MESSAGE =
  "We could not tell which Google Maps listing is this business. Pick it in Local Search Audit (from the map results, or paste its Google Maps link), then try again.";
export const SEARCH_UNAVAILABLE_MESSAGE = `Rank tracking searches Google Maps. ${CUSTOMER_UNAVAILABLE.searchTold}`;

export type ResolvedBusiness = { owner: RankOwner; business: RankBusiness & { placeId: string; latitude: number; longitude: number }; website: string | null };
export type BusinessRefusal = { status: 400 | 402 | 404 | 422 | 503; code: string; message: string };

type Subject = { name: string; area: string | null; phone: string | null; address: string | null; website: string | null };

function located(b: RankBusiness): b is RankBusiness & { placeId: string; latitude: number; longitude: number } {
  return b.placeId !== null && b.latitude !== null && b.longitude !== null;
}

/** The listing the latest audit of this business found, if it found one with coordinates. */
async function fromAudit(db: Db, owner: RankOwner): Promise<{ placeId: string; latitude: number; longitude: number; website: string | null } | null> {
  const latest = await latestAudit(db, owner.kind === "own" ? { ownerId: owner.userId } : { prospectId: owner.prospectId });
  if (!latest) return null;
  const found = await getAudit(db, latest.id);
  const find = found?.steps.find((s) => s.step === "find");
  const result = find?.status === "done" ? parseJson<FindResult>(find.result) : null;
  if (result?.status !== "found") return null;
  const { placeId, latitude, longitude, website } = result.listing;
  return placeId && latitude !== null && longitude !== null ? { placeId, latitude, longitude, website: website ?? null } : null;
}

/** A listing an earlier scan or keyword of this business was run with. */
async function fromEarlier(db: Db, owner: RankOwner): Promise<RankBusiness | null> {
  const [scans, keywords] = await Promise.all([listGridScans(db, owner, undefined, 5), listTrackedKeywords(db, owner)]);
  for (const json of [...scans.map((s) => s.business), ...keywords.map((k) => k.business)]) {
    const b = parseJson<RankBusiness>(json);
    if (b && located(b)) return b;
  }
  return null;
}

/** One metered maps search for the business by name and area; the listing when one matches with confidence. */
async function bySearch(env: Env, subject: Subject, payer: Payer): Promise<{ placeId: string; latitude: number; longitude: number; website: string | null } | BusinessRefusal | null> {
  const reserved = await reserveLoggedCall(env, payer, { kind: "search" }, METERED_TOOL_NAMES.listingLookup);
  if (!reserved.ok) return { status: 402, code: reserved.refusal.code, message: reserved.refusal.message };
  const got = await searchMaps(env, { q: subject.name, location: subject.area }, rankSearchTimeoutMs(env)).catch(async (error: unknown) => {
    await reserved.ticket.release();
    throw error;
  });
  await (got.ok ? reserved.ticket.settle({ kind: "search", calls: 1 }) : reserved.ticket.release());
  if (!got.ok) return null;
  const { match } = pickListing({ name: subject.name, phone: subject.phone, address: subject.address }, got.places);
  const place = match === null ? null : got.places[match]!;
  if (!place?.placeId || place.latitude === null || place.longitude === null) return null;
  return { placeId: place.placeId, latitude: place.latitude, longitude: place.longitude, website: place.website };
}

/**
 * The business of a request: the caller's own (`own`) or a prospect (the route has checked the caller is an admin),
 * with its listing located, or why not (profile incomplete, prospect missing, listing not found, no search key).
 */
export async function resolveBusiness(
  env: Env,
  db: Db,
  target: { own?: true; prospectId?: string },
  who: { userId: string; profile: ProfileRow | null },
  payer: Payer,
): Promise<{ ok: true; value: ResolvedBusiness } | { ok: false; refusal: BusinessRefusal }> {
  let owner: RankOwner;
  let subject: Subject;
  if (target.prospectId !== undefined) {
    const prospect = await prospectById(db, target.prospectId);
    if (!prospect) return { ok: false, refusal: { status: 404, code: ErrorCode.notFound, message: "Prospect not found" } };
    owner = { kind: "prospect", prospectId: prospect.id };
    subject = prospectSubject(prospect);
  } else {
    const own = ownSubject(who.profile);
    if (!own.ok) {
      return { ok: false, refusal: { status: 400, code: RankErrorCode.profileIncomplete, message: `Add your business's ${own.missing} in Business Settings first: rank tracking searches Google for it.` } };
    }
    owner = { kind: "own", userId: who.userId };
    subject = own.subject;
  }
  // Every grid point and keyword check is a Google search: refused before anything is stored, and the agency is told.
  if (!searchConfigured(env)) {
    await tellAgency(env, "search");
    return { ok: false, refusal: { status: 503, code: RankErrorCode.searchUnavailable, message: SEARCH_UNAVAILABLE_MESSAGE } };
  }
  const base = { kind: owner.kind, prospectId: owner.kind === "prospect" ? owner.prospectId : null, name: subject.name, area: subject.area };
  const audit = await fromAudit(db, owner);
  if (audit) return { ok: true, value: { owner, business: { ...base, placeId: audit.placeId, latitude: audit.latitude, longitude: audit.longitude }, website: subject.website ?? audit.website } };
  const earlier = await fromEarlier(db, owner);
  if (earlier && located(earlier)) return { ok: true, value: { owner, business: { ...base, placeId: earlier.placeId, latitude: earlier.latitude, longitude: earlier.longitude }, website: subject.website } };
  const found = await bySearch(env, subject, payer);
  if (found && "status" in found) return { ok: false, refusal: found };
  if (!found) return { ok: false, refusal: { status: 422, code: RankErrorCode.listingNotFound, message: LISTING_NOT_FOUND_MESSAGE } };
  return { ok: true, value: { owner, business: { ...base, placeId: found.placeId, latitude: found.latitude, longitude: found.longitude }, website: subject.website ?? found.website } };
}
