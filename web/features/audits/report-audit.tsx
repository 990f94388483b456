// The admin report's "What we found": the prospect's newest audit, polled while its steps run, with the listing
// picker when Google Maps matched nothing for sure, and a way to audit a prospect that has no audit yet.
import type { ReactNode } from "react";
import type { AuditView } from "../../../worker/features/audits/rules/view";
import { formatLongUsDate } from "../../../worker/features/reports/rules/format";
import { useAudits, useStartAudit } from "./queries";
import { Alert, RetryAlert } from "../../design/alert";
import { WHAT_WE_FOUND_ID, WhatWeFoundSection } from "./audit-findings";
import { AuditListingChoice } from "./audit-listing-picker";
import { Button } from "../../design/button";
import { ReportSearchIcon, RefreshIcon } from "../../design/icons";
import { ReportSection } from "../reports";

export const AUDIT_LOAD_FAILED = "Could not load what the audit found. Please try again.";

/** When an audit may be run again ("Re-run available on November 27, 2026"), or null when it may be now. */
export function rerunNote(audit: Pick<AuditView, "rerunAfter">, now = Date.now()): string | null {
  if (!audit.rerunAfter) return null;
  const at = Date.parse(audit.rerunAfter);
  return Number.isFinite(at) && at > now ? `Audits are kept for 7 days: it can run again on ${formatLongUsDate(audit.rerunAfter)}.` : null;
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <ReportSection id={WHAT_WE_FOUND_ID} icon={ReportSearchIcon} title="What we found">
      {children}
    </ReportSection>
  );
}

/** `initial`: the audit the report's own response carried, shown until the audit's own queries answer. */
export function ReportAudit({ prospectId, initial = null }: { prospectId: string; initial?: AuditView | null }) {
  const target = { prospectId };
  const { history, audit: live } = useAudits(target);
  const audit = { ...live, data: live.data ?? (history.isPending ? (initial ?? undefined) : undefined) };
  const start = useStartAudit();
  const run = (label: string) => (
    <Button variant="primary" busy={start.isPending} onClick={() => start.mutate(target)}>
      <RefreshIcon size="sm" />
      {label}
    </Button>
  );

  if (history.isError || audit.isError) {
    return (
      <Frame>
        <RetryAlert message={AUDIT_LOAD_FAILED} onRetry={() => void (history.isError ? history.refetch() : audit.refetch())} />
      </Frame>
    );
  }
  if (!audit.data && (history.isPending || history.data.length > 0)) {
    return (
      <Frame>
        <p className="audit-muted" role="status">
          Loading what we found…
        </p>
      </Frame>
    );
  }
  if (!audit.data) {
    return (
      <Frame>
        <p className="audit-muted">
          This business has not been audited yet. An audit reads its website and Google listing, measures its page speed and
          checks where it ranks, so the report can point at real problems.
        </p>
        {start.error ? <Alert tone="error">{start.error.message}</Alert> : null}
        <div>{run("Audit this business")}</div>
      </Frame>
    );
  }
  const data = audit.data;
  const wait = rerunNote(data);
  return (
    <WhatWeFoundSection audit={data}>
      <AuditListingChoice audit={data} />
      {data.status === "done" ? (
        <div className="audit-rerun">
          {wait ? <p className="audit-muted">{wait}</p> : run("Run the audit again")}
          {start.error ? <Alert tone="error">{start.error.message}</Alert> : null}
        </div>
      ) : null}
    </WhatWeFoundSection>
  );
}
