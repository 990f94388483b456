// What the audit's fakes answer (issue 18), as plain data the worker tests (in workerd) can import too: the fake
// website's business, its title and description, the map pack's competitors, PageSpeed's figures.

/** The business the site belongs to, as its Google listing shows it (the search fake serves this listing). */
export const FAKE_SITE_BUSINESS = {
  name: "Joe's Plumbing",
  legalName: "Smith Holdings LLC dba Joe's Plumbing",
  phone: '(512) 555-0142',
  listingPhone: '+1 512-555-0142',
  trackingPhone: '512-555-0199',
  address: '1200 Main Street #300, Austin, TX 78701',
  area: 'Austin, TX',
  keyword: 'plumber austin',
  placeId: 'ChIJfake-joes-plumbing',
} as const;

export const FAKE_SITE_TITLE = "Joe's Plumbing | Austin Plumber, Leak Repair & Water Heaters";
export const FAKE_SITE_DESCRIPTION =
  'Licensed Austin plumbers since 1998: leak repair, drain cleaning and water heaters. Same-day service, upfront prices. Call today.';

export const FAKE_COMPETITORS = [
  { title: 'Austin Pro Plumbing', rating: 4.8, reviews: 212 },
  { title: 'Capital City Plumbers', rating: 4.6, reviews: 154 },
  { title: 'Lone Star Rooter', rating: 4.4, reviews: 97 },
] as const;

/** The figures the fake reports (field data), so tests know the verdicts to expect. */
export const FAKE_FIELD = { lcpMs: 3100, inpMs: 180, clsX100: 4, performance: 0.72 } as const;
export const FAKE_LAB = { lcpMs: 2300, cls: 0.02, performance: 0.91 } as const;


/** FNV-1a: the fakes' answers are deterministic from their input. */
export function hash(text: string): number {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

/** Where Joe's Plumbing ranks in a map search from `ll` (1–20; 21–24: not in the top 20), the same for the same point. */
export function gridRank(ll: string): number {
  return (hash(`rank:${ll}`) % 24) + 1;
}

/** Whether the point's search fails for this keyword ('flaky': its first try only; 'deadpoint': always). */
export function gridPointFails(q: string, ll: string, attempt: number): 500 | 429 | null {
  const chosen = hash(`fail:${ll}`) % 4 === 0;
  if (!chosen) return null;
  if (/deadpoint/i.test(q)) return 429;
  if (/flaky/i.test(q) && attempt === 1) return 500;
  return null;
}

