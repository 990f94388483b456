// When the audit found no Google listing it was sure of: pick the right one from the candidates Google Maps offered,
// or paste the listing's Maps link. Admin screens and the audit tools only (the shared page never shows candidates).
import { useId, useState } from "react";
import type { AuditView } from "../../../worker/features/audits/rules/view";
import { usePickListing, type ListingChoice } from "./queries";
import { Alert } from "../../design/alert";
import { Button } from "../../design/button";
import { TextField } from "../../design/text-field";
import "./audits.css";

/** Offered once the audit has finished without a listing (not when it never searched Google: no search key). */
export function needsListingChoice(audit: AuditView): boolean {
  const find = audit.steps.find?.status;
  return audit.status === "done" && audit.listing === null && (find === "done" || find === "failed");
}

const MAPS_LINK = /^https:\/\/(www\.)?(google\.[a-z.]+\/maps|maps\.google\.[a-z.]+|maps\.app\.goo\.gl|goo\.gl\/maps)\b/i;

export function ListingPicker({
  audit,
  onPick,
  busy,
  error,
}: {
  audit: AuditView;
  onPick: (choice: ListingChoice) => void;
  busy: boolean;
  error: string | null;
}) {
  const [placeId, setPlaceId] = useState<string | null>(null);
  const [link, setLink] = useState("");
  const [linkError, setLinkError] = useState<string | null>(null);
  const name = useId();
  const candidates = audit.candidates;
  return (
    <div className="audit-block audit-picker">
      <Alert tone="info" title="Which Google listing is this business?">
        <p>
          {candidates.length > 0
            ? `Google Maps showed ${candidates.length === 1 ? "one listing" : `${candidates.length} listings`} that could be ${audit.subject.name}, none clearly a match. Pick the right one, or paste its Google Maps link, and the listing checks run again.`
            : `We found no Google listing for ${audit.subject.name}. If it has one, paste its Google Maps link and the listing checks run again.`}
        </p>
      </Alert>
      {candidates.length > 0 ? (
        <form
          className="audit-candidates"
          onSubmit={(e) => {
            e.preventDefault();
            if (placeId) onPick({ placeId });
          }}
        >
          <fieldset>
            <legend className="audit-block-title">Listings Google Maps showed</legend>
            {candidates.map((c) => (
              <label key={c.placeId} className="audit-candidate">
                <input type="radio" name={name} value={c.placeId} checked={placeId === c.placeId} onChange={() => setPlaceId(c.placeId)} />
                <span>
                  <strong>{c.name}</strong>
                  <span className="audit-muted">
                    {" "}
                    {[c.address, c.phone, c.rating != null ? `${c.rating.toFixed(1)} ★ (${c.reviewCount ?? 0} reviews)` : null].filter(Boolean).join(" · ")}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <Button type="submit" variant="primary" size="sm" disabled={!placeId} busy={busy}>
            Use this listing
          </Button>
        </form>
      ) : null}
      <form
        className="audit-candidates"
        onSubmit={(e) => {
          e.preventDefault();
          const value = link.trim();
          if (!MAPS_LINK.test(value)) {
            setLinkError("Paste a Google Maps link, e.g. https://maps.app.goo.gl/… or https://www.google.com/maps/place/…");
            return;
          }
          setLinkError(null);
          onPick({ mapsUrl: value });
        }}
      >
        <TextField
          label="Or paste its Google Maps link"
          type="url"
          inputMode="url"
          placeholder="https://maps.app.goo.gl/…"
          value={link}
          error={linkError}
          onChange={(e) => setLink(e.target.value)}
        />
        <Button type="submit" size="sm" busy={busy}>
          Use this link
        </Button>
      </form>
      {error ? <Alert tone="error">{error}</Alert> : null}
    </div>
  );
}

/** The picker wired to POST /api/audits/:id/listing (the audit is read again when the choice is saved). */
export function AuditListingChoice({ audit }: { audit: AuditView }) {
  const pick = usePickListing(audit.id);
  if (!needsListingChoice(audit)) return null;
  return <ListingPicker audit={audit} onPick={(choice) => pick.mutate(choice)} busy={pick.isPending} error={pick.error?.message ?? null} />;
}
