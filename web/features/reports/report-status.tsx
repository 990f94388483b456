// Report generation status on the Prospects screen: a status badge and "Generate all reports" (polling: web/features/reports/queries).
import { asReportStatus, isPending, type ReportStatus } from "../../../worker/features/reports/rules/status";
import { useGenerateAllReports } from "./queries";
import { Button } from "../../design/button";
import { SparklesIcon } from "../../design/icons";
import "./report-status.css";

const LABELS: Record<ReportStatus, string> = {
  draft: "Not generated",
  queued: "Queued",
  generating: "Generating",
  ready: "Report ready",
  failed: "Generation failed",
};

export function ReportStatusBadge({ status: given, source }: { status: string; source?: "ai" | "template" | null }) {
  const status = asReportStatus(given);
  const label = status === "ready" && source === "template" ? "Ready (template)" : LABELS[status];
  return (
    <span className={`report-status is-${status}`} role="status" aria-label={`Report: ${label}`}>
      {isPending(status) ? <span className="report-status-pulse" aria-hidden="true" /> : null}
      {label}
    </span>
  );
}

/** "Generate all reports": queues every report that is not generated yet. */
export function GenerateAllReportsButton({
  disabled,
  onQueued,
  onError,
}: {
  disabled?: boolean;
  onQueued: (count: number) => void;
  onError: (message: string) => void;
}) {
  const generateAll = useGenerateAllReports();
  return (
    <Button
      variant="secondary"
      busy={generateAll.isPending}
      disabled={disabled}
      onClick={() =>
        generateAll.mutate(undefined, {
          onSuccess: (res) => {
            if (res.warning) onError(res.warning);
            onQueued(res.queued);
          },
          onError: (error) => onError(`Failed to queue reports: ${error instanceof Error ? error.message : "Unknown error"}`),
        })
      }
    >
      <SparklesIcon size="sm" />
      Generate all reports
    </Button>
  );
}
