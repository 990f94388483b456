// Which business an AI Visibility scan is about (issue 29): the user's own (Business Settings) or a prospect (admins),
// completed from its latest Local Search Audit (the Google listing's website, phone and profile link; the map pack's
// competitors). The place it is asked from is the business's city.
import { latestAuditResults } from "../audits/read";
import { auditChecks } from "../audits/view";
import type { Db } from "../db/client";
import { aiOwnerKey, type AiOwner } from "../db/ai-visibility";
import { prospectById } from "../db/rank";
import type { ProfileRow } from "../db/users";
import type { AskLocation } from "../domain/ai-visibility-contract";
import { splitAddress } from "../domain/citations";
import { ownSubject, prospectSubject } from "../audits/subject";
import { ErrorCode } from "../errors";

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

export type AiRefusal = { status: 400 | 404; code: string; message: string };

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
export async function resolveAiBusiness(
  db: Db,
  target: { own: true; userId: string; profile: ProfileRow | null } | { prospectId: string },
): Promise<{ ok: true; value: ResolvedAiBusiness } | { ok: false; refusal: AiRefusal }> {
  let owner: AiOwner;
  let subject;
  let timezone: string | undefined;
  if ("prospectId" in target) {
    const prospect = await prospectById(db, target.prospectId);
    if (!prospect) return { ok: false, refusal: { status: 404, code: ErrorCode.notFound, message: "Prospect not found" } };
    owner = { kind: "prospect", prospectId: prospect.id };
    subject = prospectSubject(prospect);
  } else {
    const own = ownSubject(target.profile);
    if (!own.ok) return { ok: false, refusal: { status: 400, code: ErrorCode.profileRequired, message: `Add your business's ${own.missing} in Business Settings first: AI Visibility asks about your trade in your city.` } };
    owner = { kind: "own", userId: target.userId };
    subject = own.subject;
    timezone = target.profile?.timeZone ?? undefined;
  }
  const trade = subject.keyword?.trim();
  if (!trade) {
    const message = owner.kind === "own" ? "Pick your business's category in Business Settings first: AI Visibility asks about your trade." : "Add the prospect's keyword (its trade) first: AI Visibility asks about it.";
    return { ok: false, refusal: { status: 400, code: ErrorCode.profileRequired, message } };
  }
  const { find, rank, steps } = await latestAuditResults(db, owner.kind === "own" ? { ownerId: owner.userId } : { prospectId: owner.prospectId });
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
