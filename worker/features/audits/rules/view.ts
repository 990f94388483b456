// What the audit API answers (issue 18): one audit with its steps as they land, its checks, score and "fix first"
// list. Shared by the worker (which builds it) and the web (the report's "What we found", the GBP Audit and Local
// Search Audit tools, the edge-rendered shared page), so both sides read one shape.
import type { Check, Competitor, Listing, PageSpeedInput, RankInput } from "./checks";
import type { AuditScore, Fix } from "./score";
import type { UnavailableCode } from "../../setup/rules/setup";

/** The audit's steps, in the order they run. */
export const AUDIT_STEPS = ["find", "fetch", "speed", "rank"] as const;
export type AuditStepId = (typeof AUDIT_STEPS)[number];

export const AUDIT_STEP_LABELS: Record<AuditStepId, string> = {
  find: "Finding the business on Google",
  fetch: "Reading the website",
  speed: "Measuring page speed",
  rank: "Checking where it ranks",
};

/**
 * One step's state. `skipped` carries why (no search key, no website, …) and is shown as "no data", never as a
 * failure; `failed` carries the reason in plain words. A step that failed after an earlier good result keeps the
 * good result (keepGoodResult) and says so in `reason`.
 */
export type AuditStepState = {
  status: "pending" | "running" | "done" | "failed" | "skipped";
  reason?: string;
  /** Why the step could not run, as a stable code (issue 26): the screen words it and says who was told. */
  code?: UnavailableCode;
  finishedAt?: string | null;
};

/** The business audited: a prospect (admins) or the user's own business profile. */
export type AuditSubject = {
  kind: "prospect" | "own";
  /** The prospect's id, or null for the user's own business. */
  prospectId: string | null;
  name: string;
  website: string | null;
  /** The report's keyword (or the business's main service) the rank step searched. */
  keyword: string | null;
  /** The area (city, state) the rank and find steps searched in. */
  area: string | null;
};

/** The listing found on Google Maps, with what the audit keeps of it. */
export type AuditListing = Listing & {
  placeId: string | null;
  latitude: number | null;
  longitude: number | null;
  /** A link to the listing on Google Maps. */
  mapsUrl: string | null;
};

/** A Google Maps candidate offered when no listing matched confidently; the admin may pick one. */
export type AuditCandidate = { placeId: string; name: string; address: string | null; phone: string | null; rating: number | null; reviewCount: number | null };

/** What the website step read of the page: the report shows its current title and description beside the AI's better ones. */
export type AuditSite = {
  /** The address the page was read at, after redirects. */
  finalUrl: string;
  title: string | null;
  metaDescription: string | null;
  /** When the page was read. */
  fetchedAt: string;
};

export type AuditStatus = "queued" | "running" | "done";

export type AuditView = {
  id: string;
  subject: AuditSubject;
  /** `done` once every step is done, failed or skipped. */
  status: AuditStatus;
  createdAt: string;
  finishedAt: string | null;
  /** When this audit may be re-run (7 days after it was made); null when it may be re-run now. */
  rerunAfter: string | null;
  /** The business's details changed since this audit ran (issue 26): it may run again at once. */
  stale?: boolean;
  steps: Record<AuditStepId, AuditStepState>;
  listing: AuditListing | null;
  /** Offered when the find step had no confident match (empty otherwise). */
  candidates: AuditCandidate[];
  /** The page as read (null until the website step has read it, or when it could not). */
  site: AuditSite | null;
  pageSpeed: PageSpeedInput | null;
  rank: RankInput | null;
  /** The top three in the map pack for the keyword, beside the business's own figures. */
  competitors: Competitor[];
  /** Every check made so far, in runChecks' order; steps not yet finished give `unknown` with reason "still running". */
  checks: Check[];
  score: AuditScore;
  fixFirst: Fix[];
  /** The audit before this one of the same business, for "how the score moved"; null for the first. */
  previous: { id: string; createdAt: string; overall: number | null } | null;
};

/** One row of an audit history list (GET /api/audits?prospectId= or ?own=1). */
export type AuditSummary = {
  id: string;
  subject: Pick<AuditSubject, "kind" | "prospectId" | "name">;
  status: AuditStatus;
  createdAt: string;
  overall: number | null;
};
