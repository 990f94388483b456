// Who an audit is of: a prospect (its name, area, keyword, phone, website) or the user's own business profile (company
// name, address, phone, website, trade). Pure over the rows.
import type { AuditSubjectRecord } from "./queries";
import type { ProspectRow } from "../prospects";
import type { ProfileRow } from "../../platform/auth/users";

/** "1200 Main St, Suite 300, Austin, TX 78701" → "Austin, TX": the place a search is made in. */
export function areaFromAddress(address: string): string {
  const parts = address
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length <= 2) return parts.join(", ");
  const last = parts[parts.length - 1]!.replace(/\s+\d{5}(-\d{4})?$/, "").trim();
  const city = parts[parts.length - 2]!;
  // "Austin, TX 78701, USA": drop the country.
  if (/^(usa|us|united states)$/i.test(last) && parts.length >= 3) {
    return `${parts[parts.length - 3]}, ${parts[parts.length - 2]!.replace(/\s+\d{5}(-\d{4})?$/, "").trim()}`;
  }
  return `${city}, ${last}`;
}

/** A trade as people search for it: "Landscaping & Lawn Care" → "landscaping & lawn care". */
function keywordOf(category: string | null): string | null {
  if (!category || category === "Other") return null;
  return category.toLowerCase();
}

export function prospectSubject(p: Pick<ProspectRow, "name" | "companyName" | "area" | "keyword" | "phone" | "website">): AuditSubjectRecord {
  return {
    name: p.companyName?.trim() || p.name,
    website: p.website?.trim() || null,
    keyword: p.keyword?.trim() || null,
    area: p.area?.trim() || null,
    phone: p.phone?.trim() || null,
    address: null,
  };
}

/** The own-business subject, or the first missing field the audit needs. */
export function ownSubject(profile: ProfileRow | null): { ok: true; subject: AuditSubjectRecord } | { ok: false; missing: string } {
  const name = profile?.companyName?.trim();
  if (!name) return { ok: false, missing: "company name" };
  const location = profile?.companyLocation?.trim() || null;
  if (!location) return { ok: false, missing: "location" };
  // The street address (when given) goes in front of the location: the listing is matched by it.
  const street = profile?.companyStreetAddress?.trim() || null;
  const address = street ? `${street}, ${location}` : location;
  return {
    ok: true,
    subject: {
      name,
      website: profile?.companyWebsite?.trim() || null,
      keyword: keywordOf(profile?.companyCategory ?? null),
      area: areaFromAddress(location),
      phone: profile?.companyPhone?.trim() || null,
      address,
    },
  };
}

/** An audit whose inputs (name, website, phone, address, keyword, area) changed since it ran is stale: it may run again at once. */
export function subjectChanged(ran: AuditSubjectRecord, now: AuditSubjectRecord): boolean {
  const norm = (v: string | null | undefined) => (v ?? "").trim().toLowerCase();
  const keys = ["name", "website", "phone", "address", "keyword", "area"] as const;
  return keys.some((k) => norm(ran[k]) !== norm(now[k]));
}
