// The audit's four steps (issue 18): find the business on Google Maps, read its website, measure page speed, look up
// where it ranks. Each reserves from the meter before its paid call, keeps to its own time-out and answers an outcome:
// a result, a skip with its reason, or a failure (retryable when the provider may answer later).
import type { Competitor } from "./rules/checks";
import type { AuditCandidate, AuditListing, AuditStepId } from "./rules/view";
import { pickListing } from "../../domain/listing-match";
import type { Payer } from "../../domain/metering";
import type { AuditRow, AuditStepRow, AuditSubjectRecord } from "./queries";
import type { Env } from "../../platform/env";
import { METERED_TOOL_NAMES } from "../usage/rules/usage-stats";
import { meteredProviderCall } from "../../platform/metering/usage-log";
import { searchMaps, searchOrganic, type MapsPlace } from "../../platform/providers/local-search";
import { pagespeedConfigured, runPageSpeed } from "../../platform/providers/pagespeed";
import { fetchWebsite, websiteUrl } from "../../platform/providers/website";
import { stepTimeoutMs } from "./config";
import { CUSTOMER_UNAVAILABLE } from "../setup/rules/setup";
import { parseJson } from "../../domain/json";
import { subjectOf, type FetchResult, type FindResult, type RankResult, type SpeedResult } from "./view";

export type StepOutcome =
  | { kind: "done"; result: FindResult | FetchResult | SpeedResult | RankResult }
  | { kind: "skipped"; reason: string }
  | { kind: "failed"; reason: string; retryable: boolean };

/** Customers' words for a step that could not run (issue 26): what happened, never the server's set-up. */
export const SEARCH_UNAVAILABLE = CUSTOMER_UNAVAILABLE.search;
export const SPEED_UNAVAILABLE = CUSTOMER_UNAVAILABLE.pagespeed;

/** How many candidates the admin is offered when no listing matched with confidence. */
const MAX_CANDIDATES = 5;

function listingOf(place: MapsPlace): AuditListing {
  return {
    name: place.name,
    address: place.address,
    phone: place.phone,
    website: place.website,
    categories: place.categories,
    hoursSet: place.hoursSet,
    rating: place.rating,
    reviewCount: place.reviewCount,
    placeId: place.placeId,
    latitude: place.latitude,
    longitude: place.longitude,
    mapsUrl: place.placeId ? `https://www.google.com/maps/place/?q=place_id:${encodeURIComponent(place.placeId)}` : null,
  };
}

function candidateOf(place: MapsPlace): AuditCandidate | null {
  if (!place.placeId) return null;
  return { placeId: place.placeId, name: place.name, address: place.address, phone: place.phone, rating: place.rating, reviewCount: place.reviewCount };
}

/** A place id, or the place's name, from a Google Maps link the admin pasted. */
export function readMapsUrl(raw: string): { placeId: string } | { name: string } | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  const isMaps = (/(^|\.)google\.[a-z.]+$/.test(host) && (url.pathname.startsWith("/maps") || host.startsWith("maps."))) || host === "maps.google.com";
  if (!isMaps || (url.protocol !== "https:" && url.protocol !== "http:")) return null;
  const id = url.searchParams.get("query_place_id") ?? url.searchParams.get("place_id") ?? /place_id:([\w-]+)/.exec(decodeURIComponent(url.search))?.[1];
  if (id) return { placeId: id };
  const name = /\/maps\/place\/([^/@]+)/.exec(url.pathname)?.[1];
  if (name) return { name: decodeURIComponent(name.replace(/\+/g, " ")).trim() };
  return null;
}

async function findStep(env: Env, audit: AuditRow, payer: Payer): Promise<StepOutcome> {
  const subject = subjectOf(audit);
  const timeout = stepTimeoutMs(env, "find");
  const choice = parseJson<{ placeId?: string; mapsUrl?: string }>(audit.listingChoice);
  const fromUrl = choice?.mapsUrl ? readMapsUrl(choice.mapsUrl) : null;
  const placeId = choice?.placeId ?? (fromUrl && "placeId" in fromUrl ? fromUrl.placeId : null);
  if (placeId || (fromUrl && "name" in fromUrl)) {
    // The admin picked the listing: take it as found, whatever its name.
    const got = await meteredProviderCall(env, payer, { kind: "search" }, METERED_TOOL_NAMES.auditMaps, () =>
      searchMaps(env, placeId ? { q: subject.name, placeId } : { q: (fromUrl as { name: string }).name, location: subject.area }, timeout),
    );
    if (!got.ok) return { kind: "failed", reason: got.reason, retryable: got.retryable };
    const place = placeId ? (got.places.find((p) => p.placeId === placeId) ?? got.places[0]) : got.places[0];
    if (!place) return { kind: "failed", reason: "the listing picked was not found on Google Maps", retryable: false };
    return { kind: "done", result: { status: "found", listing: listingOf(place), candidates: [], picked: true } };
  }
  const got = await meteredProviderCall(env, payer, { kind: "search" }, METERED_TOOL_NAMES.auditMaps, () => searchMaps(env, { q: subject.name, location: subject.area }, timeout));
  if (!got.ok) return { kind: "failed", reason: got.reason, retryable: got.retryable };
  const { match } = pickListing({ name: subject.name, phone: subject.phone, address: subject.address }, got.places);
  if (match !== null) return { kind: "done", result: { status: "found", listing: listingOf(got.places[match]!), candidates: [] } };
  const candidates = got.places
    .map(candidateOf)
    .filter((c): c is AuditCandidate => c !== null)
    .slice(0, MAX_CANDIDATES);
  return { kind: "done", result: { status: "not_found", candidates } };
}

/** The website to read: the one given, else the listing's. */
export function websiteOf(subject: AuditSubjectRecord, find: FindResult | null): string | null {
  if (subject.website) return subject.website;
  return find?.status === "found" ? (find.listing.website ?? null) : null;
}

function storedFind(rows: readonly AuditStepRow[]): { row: AuditStepRow | undefined; result: FindResult | null } {
  const row = rows.find((r) => r.step === "find");
  return { row, result: row?.status === "done" ? parseJson<FindResult>(row.result) : null };
}

async function fetchStep(env: Env, audit: AuditRow, rows: readonly AuditStepRow[]): Promise<StepOutcome> {
  const subject = subjectOf(audit);
  const find = storedFind(rows);
  const website = websiteOf(subject, find.result);
  const fetchedAt = new Date().toISOString();
  if (!website) {
    if (find.row?.status === "skipped") return { kind: "done", result: { page: { status: "failed", reason: `no website was given, and ${find.row.reason ?? SEARCH_UNAVAILABLE}` }, fetchedAt } };
    if (find.row?.status === "failed") return { kind: "done", result: { page: { status: "failed", reason: "no website was given, and the Google listing could not be looked up" }, fetchedAt } };
    return { kind: "done", result: { page: { status: "no_website" }, fetchedAt } };
  }
  // Read locally too (issue 39): a website has no key to miss, and the fetch guard refuses private addresses here as in production.
  const got = await fetchWebsite(env, website, stepTimeoutMs(env, "fetch"));
  if (!got.ok) return { kind: "done", result: { page: { status: "failed", reason: got.reason }, fetchedAt } };
  return { kind: "done", result: { page: { status: "fetched", facts: got.page.facts }, fetchedAt, bytes: got.page.bytes, truncated: got.page.truncated } };
}

async function speedStep(env: Env, audit: AuditRow, rows: readonly AuditStepRow[], payer: Payer): Promise<StepOutcome> {
  const website = websiteOf(subjectOf(audit), storedFind(rows).result);
  if (!website) return { kind: "skipped", reason: "the business has no website to measure" };
  if (!pagespeedConfigured(env)) return { kind: "skipped", reason: SPEED_UNAVAILABLE };
  const url = websiteUrl(website);
  const got = await meteredProviderCall(env, payer, { kind: "pagespeed" }, METERED_TOOL_NAMES.auditSpeed, () => runPageSpeed(env, url, stepTimeoutMs(env, "speed")));
  if (!got.ok) return { kind: "failed", reason: got.reason, retryable: got.retryable };
  return { kind: "done", result: { ...got.value, url } };
}

function hostOf(url: string): string | null {
  try {
    return new URL(websiteUrl(url)).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return null;
  }
}

async function rankStep(env: Env, audit: AuditRow, rows: readonly AuditStepRow[], payer: Payer): Promise<StepOutcome> {
  const subject = subjectOf(audit);
  if (!subject.keyword?.trim() || !subject.area?.trim()) return { kind: "skipped", reason: "no keyword and area to search for" };
  const timeout = stepTimeoutMs(env, "rank");
  const find = storedFind(rows).result;
  const website = websiteOf(subject, find);
  const host = website ? hostOf(website) : null;
  // The map pack and the organic results are asked for side by side (no organic search without a site to look for).
  const [maps, organic] = await Promise.all([
    meteredProviderCall(env, payer, { kind: "search" }, METERED_TOOL_NAMES.auditRank, () => searchMaps(env, { q: subject.keyword!, location: subject.area }, timeout)),
    host ? meteredProviderCall(env, payer, { kind: "search" }, METERED_TOOL_NAMES.auditRank, () => searchOrganic(env, { q: subject.keyword!, location: subject.area! }, timeout)) : null,
  ]);
  if (!maps.ok) return { kind: "failed", reason: maps.reason, retryable: maps.retryable };
  if (organic && !organic.ok) return { kind: "failed", reason: organic.reason, retryable: organic.retryable };
  const organicChecked = organic ? organic.links.length : 0;
  const organicPosition = organic && host ? (organic.links.find((l) => hostOf(l.link) === host)?.position ?? null) : null;
  // The business among the map results: its place id when found, else the same matching rule as the find step.
  const placeId = find?.status === "found" ? find.listing.placeId : null;
  let ownIndex = placeId ? maps.places.findIndex((p) => p.placeId === placeId) : -1;
  if (ownIndex < 0) ownIndex = pickListing({ name: subject.name, phone: subject.phone, address: subject.address }, maps.places).match ?? -1;
  const competitors: Competitor[] = maps.places
    .filter((_, i) => i !== ownIndex)
    .slice(0, 3)
    .map((p) => ({ name: p.name, rating: p.rating, reviewCount: p.reviewCount, phone: p.phone }));
  return {
    kind: "done",
    result: {
      rank: {
        status: "ok",
        keyword: subject.keyword,
        area: subject.area,
        mapPosition: ownIndex >= 0 ? maps.places[ownIndex]!.position : null,
        mapResultsChecked: maps.places.length,
        organicPosition,
        organicResultsChecked: organicChecked,
      },
      competitors: { status: "ok", competitors },
      hasWebsite: host !== null,
    },
  };
}

export async function runStep(env: Env, step: AuditStepId, audit: AuditRow, rows: readonly AuditStepRow[], payer: Payer): Promise<StepOutcome> {
  switch (step) {
    case "find":
      return findStep(env, audit, payer);
    case "fetch":
      return fetchStep(env, audit, rows);
    case "speed":
      return speedStep(env, audit, rows, payer);
    case "rank":
      return rankStep(env, audit, rows, payer);
  }
}
