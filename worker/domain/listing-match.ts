// Picks the business's Google Maps listing from the search's candidates by name similarity and phone/address
// agreement, never by position alone (issue 18, step 1); no confident match → null, and the admin picks.
import { compareAddresses, comparePhones, nameVariants } from "./nap";

export type BusinessToFind = { name: string; phone?: string | null; address?: string | null };

export type ListingCandidate = { name: string; phone?: string | null; address?: string | null };

export type ScoredCandidate = { index: number; nameScore: number; phoneAgrees: boolean | null; addressAgrees: boolean | null; confident: boolean };

/** 1 for the same name (after normalising), else the share of words the two names have in common (Jaccard). */
export function nameSimilarity(a: string, b: string): number {
  const va = nameVariants(a);
  const vb = nameVariants(b);
  if (va.some((x) => vb.includes(x))) return 1;
  let best = 0;
  for (const x of va) {
    for (const y of vb) {
      const wx = new Set(x.split(" "));
      const wy = new Set(y.split(" "));
      const shared = [...wx].filter((w) => wy.has(w)).length;
      best = Math.max(best, shared / new Set([...wx, ...wy]).size);
    }
  }
  return best;
}

function agrees(verdict: string): boolean | null {
  return verdict === "pass" ? true : verdict === "unknown" ? null : false;
}

/**
 * Confident when the name is close (≥ 0.5 of its words) and the phone agrees, or the name is the same and nothing known
 * disagrees. Of several confident candidates the best is taken only when it is strictly better than the next.
 */
export function pickListing(business: BusinessToFind, candidates: readonly ListingCandidate[]): { match: number | null; scored: ScoredCandidate[] } {
  const scored = candidates.map((candidate, index): ScoredCandidate => {
    const nameScore = nameSimilarity(business.name, candidate.name);
    const phoneAgrees = business.phone ? agrees(comparePhones([business.phone], candidate.phone).verdict) : null;
    const addressAgrees = business.address ? agrees(compareAddresses(business.address, candidate.address).verdict) : null;
    const disagrees = phoneAgrees === false || addressAgrees === false;
    const confident = (nameScore >= 0.5 && phoneAgrees === true) || (nameScore === 1 && !disagrees);
    return { index, nameScore, phoneAgrees, addressAgrees, confident };
  });
  const rank = (s: ScoredCandidate) => s.nameScore + (s.phoneAgrees ? 1 : 0) + (s.addressAgrees ? 0.5 : 0);
  const confident = scored.filter((s) => s.confident).sort((a, b) => rank(b) - rank(a));
  if (confident.length === 0) return { match: null, scored };
  if (confident.length > 1 && rank(confident[0]!) === rank(confident[1]!)) return { match: null, scored };
  return { match: confident[0]!.index, scored };
}
