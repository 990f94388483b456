// How the audit's checks, verdicts and steps read on screen: a short name per check, the step each check waits for,
// and the plain-words verdict labels (never colour alone). Pure: the edge-rendered shared page uses it too.
import type { Check, CheckId, SectionId, Verdict } from "../../../worker/features/audits/rules/checks";
import type { AuditStepId, AuditView } from "../../../worker/features/audits/rules/view";

export const CHECK_LABELS: Record<CheckId, string> = {
  website_present: "Website",
  name_matches: "Business name matches Google",
  address_matches: "Address matches Google",
  phone_matches: "Phone matches Google",
  phone_on_page: "Phone number on the site",
  phone_clickable: "Tap-to-call link",
  local_business_schema: "Business details for Google (LocalBusiness data)",
  title: "Page title",
  meta_description: "Meta description",
  h1: "Main heading (H1)",
  canonical: "Canonical address",
  viewport: "Set up for phones",
  lang: "Page language",
  noindex: "Visible to Google",
  open_graph: "Social sharing tags (Open Graph)",
  analytics: "Visitor analytics",
  https: "Secure (HTTPS)",
  http_redirect: "http → https redirect",
  performance_score: "Mobile performance score",
  lcp: "Main content loads (LCP)",
  inp: "Responds to taps (INP)",
  cls: "Layout stays still (CLS)",
  gbp_found: "Google Business Profile",
  gbp_categories: "Profile categories",
  gbp_hours: "Opening hours",
  gbp_website: "Website on the profile",
  rating: "Google rating",
  review_count: "Number of reviews",
  competitor_rating: "Rating against competitors",
  competitor_reviews: "Reviews against competitors",
  map_pack_position: "Google Maps position",
  organic_position: "Google search position",
};

/** The plain words a verdict shows beside its icon. `unknown` never reads as a failure. */
export const VERDICT_LABELS: Record<Verdict, string> = {
  pass: "Good",
  warn: "Could be better",
  fail: "Needs fixing",
  unknown: "Not checked",
};

/** The step whose result a check needs (name/address/phone agreement needs the page and the listing: "fetch" then "find"). */
const CHECK_STEPS: Record<CheckId, AuditStepId[]> = {
  website_present: ["fetch"],
  name_matches: ["fetch", "find"],
  address_matches: ["fetch", "find"],
  phone_matches: ["fetch", "find"],
  phone_on_page: ["fetch"],
  phone_clickable: ["fetch"],
  local_business_schema: ["fetch"],
  title: ["fetch"],
  meta_description: ["fetch"],
  h1: ["fetch"],
  canonical: ["fetch"],
  viewport: ["fetch"],
  lang: ["fetch"],
  noindex: ["fetch"],
  open_graph: ["fetch"],
  analytics: ["fetch"],
  https: ["fetch"],
  http_redirect: ["fetch"],
  performance_score: ["speed"],
  lcp: ["speed"],
  inp: ["speed"],
  cls: ["speed"],
  gbp_found: ["find"],
  gbp_categories: ["find"],
  gbp_hours: ["find"],
  gbp_website: ["find"],
  rating: ["find"],
  review_count: ["find"],
  competitor_rating: ["find", "rank"],
  competitor_reviews: ["find", "rank"],
  map_pack_position: ["rank"],
  organic_position: ["rank"],
};

/** The reason the API gives a check whose step has not finished. */
export const STILL_RUNNING = "still running";

const isUnfinished = (audit: Pick<AuditView, "steps">, step: AuditStepId) => {
  const status = audit.steps[step]?.status;
  return status === "pending" || status === "running";
};

/** The step a check is still waiting for, or null when its verdict is final. */
export function pendingStep(audit: Pick<AuditView, "steps">, check: Check): AuditStepId | null {
  if (check.verdict !== "unknown") return null;
  const waiting = CHECK_STEPS[check.id].find((step) => isUnfinished(audit, step));
  if (waiting) return waiting;
  return check.reason === STILL_RUNNING ? (CHECK_STEPS[check.id][0] ?? null) : null;
}

/** What a check still waiting for its step says instead of a verdict ("Measuring…" for page speed). */
export function pendingLabel(step: AuditStepId): string {
  return step === "speed" ? "Measuring…" : "Checking…";
}

/** The checks of some sections, in the API's order. */
export function checksIn(checks: readonly Check[], sections: readonly SectionId[]): Check[] {
  return checks.filter((c) => sections.includes(c.section));
}

/** "reason" → "Reason" (the API's reasons are written to follow "because"). */
export function sentence(text: string): string {
  const t = text.trim();
  return t ? t[0]!.toUpperCase() + t.slice(1) : t;
}
