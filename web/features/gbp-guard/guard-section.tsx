// The owner's profile guard on /integrations (issue 41): each connected location, when it was last checked (or why it
// could not be), whether Google lets the owner's edits go live, and the changes to decide; Check now; the owner's own
// edit of a location (owner-edit.tsx).
import { useQuery } from "@tanstack/react-query";
import { GUARD_WORDING, type GuardResponse } from "../../../worker/features/gbp-guard/rules/guard";
import { Badge } from "../../design/badge";
import { Button } from "../../design/button";
import { ShieldIcon } from "../../design/icons";
import { formatDateTime } from "../../lib/format-date";
import { useViewAs } from "../../lib/view-as";
import { useBusinessTimeZone } from "../profile";
import { ChangeDecision } from "./change-decision";
import { OwnerEditButton } from "./owner-edit";
import { guardQuery, useCheckGuard } from "./queries";
import { RetryAlert } from "../../design/alert";

export function GuardSection() {
  const viewAs = useViewAs();
  const query = useQuery(guardQuery("own", viewAs?.viewingUserId ?? null));
  const check = useCheckGuard();
  const zone = useBusinessTimeZone();
  if (query.isPending) return null;
  if (query.isError) return <RetryAlert message={`Failed to load the profile guard: ${query.error.message}`} onRetry={() => void query.refetch()} />;
  const data: GuardResponse = query.data;
  if (data.connection === "none" || data.locations.length === 0) return null;
  return (
    <section className="card card-pad guard-section" aria-labelledby="guard-title">
      <div className="guard-head">
        <ShieldIcon />
        <h2 className="integration-subtitle" id="guard-title">
          Profile guard
        </h2>
        <Button size="sm" busy={check.isPending} disabled={Boolean(viewAs)} onClick={() => check.mutate()}>
          Check now
        </Button>
      </div>
      <p className="muted">Every night your Google profile is compared with what you set: an edit by Google or by another manager shows here to keep or undo.</p>
      <ul className="guard-locations">
        {data.locations.map((l) => (
          <li key={l.locationName}>
            <strong>{l.title}</strong>
            {l.verified === false ? <Badge tone="danger">Not verified</Badge> : l.verified ? <Badge tone="success">Verified</Badge> : null}
            <span className={l.status === "failed" ? "field-error" : "muted"}>
              {l.status === "failed" ? `${GUARD_WORDING.couldNotCheck}: ${l.checkText}` : l.checkText}
              {l.lastCheckedAt ? ` · checked ${formatDateTime(l.lastCheckedAt, zone)}` : ""}
            </span>
            {viewAs ? null : <OwnerEditButton locationName={l.locationName} title={l.title} />}
            {l.verified === false && l.voiceText ? <span className="guard-voice">{l.voiceText}</span> : null}
          </li>
        ))}
      </ul>
      {data.open.map((c) => (
        <div key={c.id} className="guard-open">
          <p className="guard-what">
            {c.label} · {c.sourceText}
            {c.locationTitle ? ` · ${c.locationTitle}` : ""}
          </p>
          <ChangeDecision change={{ changeId: c.id, beforeText: c.beforeText, afterText: c.afterText, source: c.source }} readOnly={Boolean(viewAs)} />
          {c.error ? <p className="field-error">{c.error}</p> : null}
        </div>
      ))}
    </section>
  );
}
