// AuditView fixtures for the screens' tests, built with the real rules (runChecks, scoreAudit, fixFirst) from what
// each step "saw", so a fixture is an audit the server could answer.
import { runChecks, type AuditInputs, type PageFacts } from "../../worker/features/audits/rules/checks";
import { fixFirst, scoreAudit } from "../../worker/features/audits/rules/score";
import type { AuditStepId, AuditStepState, AuditView } from "../../worker/features/audits/rules/view";

export const FACTS: PageFacts = {
  redirectChain: ["http://ridgeroofing.test/", "https://ridgeroofing.test/"],
  finalUrl: "https://ridgeroofing.test/",
  title: "Ridge Roofing | Roof Repair and Replacement in Austin, Texas since 1998",
  metaDescription: null,
  h1Count: 2,
  canonical: "https://ridgeroofing.test/",
  viewport: "width=device-width, initial-scale=1",
  lang: "en",
  noindex: false,
  jsonLd: ['{"@type":"RoofingContractor","name":"Ridge Roofing LLC","telephone":"(512) 555-0100","address":"100 Main St Suite 4, Austin, TX"}'],
  telLinks: ["tel:+15125550100"],
  text: "Call (512) 555-0100",
  openGraph: { "og:title": "Ridge Roofing" },
  analytics: [],
};

const LISTING = {
  name: "Ridge Roofing",
  address: "100 Main Street, Austin, TX",
  phone: "+1 512-555-0100",
  website: "https://ridgeroofing.test/",
  categories: ["Roofing contractor"],
  hoursSet: true,
  rating: 4.2,
  reviewCount: 18,
};

export const COMPETITORS = [
  { name: "Capitol Roofing", rating: 4.8, reviewCount: 212 },
  { name: "Lone Star Roofs", rating: 4.6, reviewCount: 95 },
  { name: "Hill Country Roofing", rating: 4.9, reviewCount: 61 },
];

const DONE_INPUTS: AuditInputs = {
  page: { status: "fetched", facts: FACTS },
  listing: { status: "found", listing: LISTING },
  pageSpeed: { status: "ok", performanceScore: 54, lcpMs: 3900, inpMs: null, cls: 0.04, source: "lab" },
  rank: { status: "ok", keyword: "roof repair", area: "Austin, TX", mapPosition: 7, mapResultsChecked: 20, organicPosition: null, organicResultsChecked: 100 },
  competitors: { status: "ok", competitors: COMPETITORS },
};

const STILL = { status: "failed" as const, reason: "still running" };

type Phase = "done" | "running" | "no-search" | "not-found";

const STEPS: Record<Phase, Record<AuditStepId, AuditStepState>> = {
  done: { find: { status: "done" }, fetch: { status: "done" }, speed: { status: "done" }, rank: { status: "done" } },
  running: { find: { status: "done" }, fetch: { status: "done" }, speed: { status: "running" }, rank: { status: "pending" } },
  "no-search": {
    find: { status: "skipped", reason: "no search key is configured" },
    fetch: { status: "done" },
    speed: { status: "done" },
    rank: { status: "skipped", reason: "no search key is configured" },
  },
  "not-found": { find: { status: "done" }, fetch: { status: "done" }, speed: { status: "done" }, rank: { status: "done" } },
};

/** An audit of the fake Ridge Roofing in one of a few states; `over` replaces any field. */
export function auditFixture(phase: Phase = "done", over: Partial<AuditView> = {}): AuditView {
  const inputs: AuditInputs =
    phase === "running"
      ? { ...DONE_INPUTS, pageSpeed: STILL, rank: STILL, competitors: STILL }
      : phase === "no-search"
        ? {
            ...DONE_INPUTS,
            listing: { status: "failed", reason: "no search key is configured" },
            rank: { status: "failed", reason: "no search key is configured" },
            competitors: { status: "failed", reason: "no search key is configured" },
          }
        : phase === "not-found"
          ? { ...DONE_INPUTS, listing: { status: "not_found", candidates: 2 } }
          : DONE_INPUTS;
  const checks = runChecks(inputs);
  const found = inputs.listing.status === "found";
  return {
    id: `audit-${phase}`,
    subject: { kind: "prospect", prospectId: "p1", name: "Ridge Roofing", website: "https://ridgeroofing.test/", keyword: "roof repair", area: "Austin, TX" },
    status: phase === "running" ? "running" : "done",
    createdAt: "2026-11-20T10:00:00.000Z",
    finishedAt: phase === "running" ? null : "2026-11-20T10:01:00.000Z",
    rerunAfter: "2026-11-27T10:00:00.000Z",
    steps: STEPS[phase],
    listing: found ? { ...LISTING, placeId: "place-1", latitude: 30.27, longitude: -97.74, mapsUrl: "https://www.google.com/maps/place/?q=place_id:place-1" } : null,
    candidates:
      phase === "not-found"
        ? [
            { placeId: "cand-1", name: "Ridge Roofing & Gutters", address: "9 Oak Ave, Round Rock, TX", phone: "(512) 555-0199", rating: 4.1, reviewCount: 7 },
            { placeId: "cand-2", name: "Ridge Line Roofing", address: "100 Main St, Austin, TX", phone: null, rating: null, reviewCount: null },
          ]
        : [],
    site: { finalUrl: FACTS.finalUrl, title: FACTS.title, metaDescription: FACTS.metaDescription, fetchedAt: "2026-11-20T10:00:20.000Z" },
    pageSpeed: inputs.pageSpeed.status === "ok" ? inputs.pageSpeed : null,
    rank: phase === "done" || phase === "not-found" ? inputs.rank : null,
    competitors: phase === "done" || phase === "not-found" ? COMPETITORS : [],
    checks,
    score: scoreAudit(checks),
    fixFirst: fixFirst(checks),
    previous: { id: "audit-old", createdAt: "2026-11-01T10:00:00.000Z", overall: 48 },
    ...over,
  };
}
