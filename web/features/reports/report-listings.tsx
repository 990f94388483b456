// The report's "Listings" section (issue 27): the prospect's newest finished citation scan, on the admin report and
// the shared page. It shows which sources are wrong and which fields, never a listing's values (no phone number).
import type { ReactNode } from "react";
import { type CitationVerdict } from "../../../worker/features/citations/rules/citations";
import { reportListingSourceText, type ReportListings } from "../../../worker/features/citations/rules/summary";
import { formatLongUsDate } from "../../../worker/features/reports/rules/format";
import { Badge, type BadgeTone } from "../../design/badge";
import { MapPinIcon } from "../../design/icons";
import { ReportSection } from "./report-sections";

export const VERDICT_LABELS: Record<CitationVerdict, { label: string; tone: BadgeTone }> = {
  consistent: { label: "Consistent", tone: "success" },
  inconsistent: { label: "Inconsistent", tone: "danger" },
  duplicate: { label: "Duplicate", tone: "warning" },
  not_found: { label: "Not found", tone: "soon" },
  unknown: { label: "Unknown", tone: "view" },
};

export const LISTINGS_ID = "listings";

/** The tracker's address for a prospect (the report page and the prospect card open it with the prospect chosen). */
export function citationTrackerPath(prospect: { id: string; name: string }): string {
  return `/tools/citation-tracker?${new URLSearchParams({ prospect: prospect.id, name: prospect.name }).toString()}`;
}

/** The prospect the tracker's address names, if any. */
export function prospectFromParams(params: URLSearchParams): { id: string; name: string } | null {
  const id = params.get("prospect");
  return id ? { id, name: params.get("name") ?? "" } : null;
}

/** `actions`: the admin report's link to the tracker; the shared page has none. */
export function ListingsSection({ listings, actions = null }: { listings: ReportListings; actions?: ReactNode }) {
  const s = listings.summary;
  return (
    <ReportSection
      id={LISTINGS_ID}
      icon={MapPinIcon}
      title="Listings"
      subtitle={`Directories and maps checked on ${formatLongUsDate(listings.createdAt)}`}
      actions={actions}
    >
      <p className="listings-sentence">{listings.sentence}</p>
      <p className="audit-muted">
        Citation score: {s.score === null ? "not enough data" : `${s.score}/100`} · {s.consistent} consistent · {s.inconsistent + s.duplicates} wrong or
        duplicate · {s.not_found} not found
      </p>
      {listings.sources.length > 0 ? (
        <ul className="listings-sources">
          {listings.sources.map((src) => (
            <li key={src.name}>
              {src.verdict === "inconsistent" || src.verdict === "duplicate" ? (
                <Badge tone={VERDICT_LABELS[src.verdict].tone}>{VERDICT_LABELS[src.verdict].label}</Badge>
              ) : (
                <Badge tone="warning">Competitors here</Badge>
              )}{" "}
              {reportListingSourceText(src)}
            </li>
          ))}
        </ul>
      ) : null}
    </ReportSection>
  );
}
