// Which business an AI Visibility scan is about (issue 29): the user's own (Business Settings) or a prospect (admins),
// completed from its latest Local Search Audit (the Google listing's website, phone and profile link; the map pack's
// competitors). The place it is asked from is the business's city.
import { auditedBusiness, type BusinessRefusal, type BusinessTarget } from "../audits";
import { auditChecks } from "../audits";
import type { Db } from "../../platform/db/client";
import { aiOwnerKey, type AiOwner } from "./queries";
import { ErrorCode } from "../../platform/errors";
import type { AskLocation } from "./rules/contract";
import { splitAddress } from "../citations/rules/citations";

export type AiParty = { name: string; website?: string | null; phone?: string | null; reviewCount?: number | null };

/** What the scan stores as its business (JSON), as it was when asked. */
export type AiBusiness = {
  name: string;
  website: string | null;
  phone: string | null;
  gbpUrl: string | null;
  /** The trade people ask about ("plumber"), from the category or the prospect's keyword. */
  category: string;
  /** "Austin, TX": where the Maps search is made. */
  area: string;
  location: AskLocation;
  /** Its Google reviews (the audit's listing), for the review gap in "What to do"; null when unknown. */
  reviewCount?: number | null;
  /** What the audit found missing on its website (schema, title, …): "What to do" may name them. */
  auditGaps?: string[];
};

/** The audit's website checks "What to do" may build on (pages and schema AI assistants read). */
const GAP_CHECKS: ReadonlySet<string> = new Set(["website_present", "local_business_schema", "title", "meta_description", "h1", "phone_on_page"]);

export type ResolvedAiBusiness = { owner: AiOwner; ownerKey: string; business: AiBusiness; auditCompetitors: AiParty[] };

export type AiRefusal = BusinessRefusal;

/** The audit's failed or weak website checks, in its words; none when it has not run (or cannot be read). */
function websiteGaps(steps: Parameters<typeof auditChecks>[0]): string[] {
  if (steps.length === 0) return [];
  try {
    return auditChecks(steps)
      .filter((c) => GAP_CHECKS.has(c.id) && (c.verdict === "fail" || c.verdict === "warn"))
      .map((c) => c.evidence);
  } catch {
    return [];
  }
}

/** The business of a request (the route has checked that the caller may use a prospect), or why not. */
export async function resolveAiBusiness(db: Db, target: BusinessTarget): Promise<{ ok: true; value: ResolvedAiBusiness } | { ok: false; refusal: AiRefusal }> {
  const found = await auditedBusiness(db, target, "AI Visibility asks about your trade in your city.");
  if (!found.ok) return found;
  const { owner, subject, timezone } = found.value;
  const trade = subject.keyword?.trim();
  if (!trade) {
    const message = owner.kind === "own" ? "Pick your business's category in Business Settings first: AI Visibility asks about your trade." : "Add the prospect's keyword (its trade) first: AI Visibility asks about it.";
    return { ok: false, refusal: { status: 400, code: ErrorCode.profileRequired, message } };
  }
  const { find, rank, steps } = found.value.audit;
  const listing = find?.status === "found" ? find.listing : null;
  const parts = splitAddress(subject.address ?? listing?.address ?? subject.area ?? null);
  const areaParts = (subject.area ?? "").split(",").map((p) => p.trim());
  const city = parts.city ?? areaParts[0] ?? "";
  const region = parts.region ?? areaParts[1] ?? "";
  const auditCompetitors: AiParty[] = rank?.competitors.status === "ok" ? rank.competitors.competitors.map((c) => ({ name: c.name, phone: c.phone ?? null, reviewCount: c.reviewCount })) : [];
  const auditGaps = websiteGaps(steps);
  return {
    ok: true,
    value: {
      owner,
      ownerKey: aiOwnerKey(owner),
      business: {
        name: subject.name,
        website: subject.website ?? listing?.website ?? null,
        phone: subject.phone ?? listing?.phone ?? null,
        gbpUrl: listing?.mapsUrl ?? null,
        category: trade,
        // "Austin, TX" (a ZIP in the place makes Maps search the ZIP's name instead of the trade in the city).
        area: city && region ? `${city}, ${region}` : (subject.area ?? city),
        location: { city, region, country: "US", ...(parts.zip ? { postalCode: parts.zip } : {}), ...(timezone ? { timezone } : {}) },
        reviewCount: listing?.reviewCount ?? null,
        auditGaps,
      },
      auditCompetitors,
    },
  };
}
