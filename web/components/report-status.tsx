// Report generation status on the Prospects screen: "Generate all reports", a status badge, and live polling.
import { useEffect, useMemo, useRef, useState } from "react";
import type { ReportStatus, ReportStatusItem, ReportStatusResponse } from "../../worker/domain/report-view";
import { API_TIMEOUT_MS, ApiError, apiFetch } from "../lib/api";
import { Button } from "./button";
import { SparklesIcon } from "./icons";
import "../report.css";

/** How often reports being generated are asked about. */
export const STATUS_POLL_MS = 2000;
const STATUS_IDS_PER_REQUEST = 100;
const PENDING: ReadonlySet<ReportStatus> = new Set(["queued", "generating"]);
const UNGENERATED: ReadonlySet<ReportStatus> = new Set(["draft", "failed"]);

type KnownReport = { id: string; status: string };

const STATUSES: ReadonlySet<string> = new Set(["draft", "queued", "generating", "ready", "failed"]);

/** A status string from another API as a ReportStatus (unknown values read as draft). */
export function asReportStatus(status: string | null | undefined): ReportStatus {
  return status && STATUSES.has(status) ? (status as ReportStatus) : "draft";
}

/** True when a report has not been generated and is not on its way. */
export function isUngenerated(status: string | undefined | null): boolean {
  return status != null && UNGENERATED.has(asReportStatus(status));
}

/**
 * Live statuses for the given reports: polls GET /api/reports/status for those queued or generating
 * until they settle. Returns the latest known status per report id.
 */
export function useLiveReportStatuses(reports: KnownReport[]): Map<string, ReportStatusItem> {
  const [live, setLive] = useState<Map<string, ReportStatusItem>>(new Map());
  const liveRef = useRef(live);
  liveRef.current = live;
  const known = useMemo(() => reports.map((r) => `${r.id}:${r.status}`).join(","), [reports]);
  const reportsRef = useRef(reports);
  reportsRef.current = reports;

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const pendingIds = () =>
      reportsRef.current
        .filter((r) => PENDING.has(liveRef.current.get(r.id)?.status ?? asReportStatus(r.status)))
        .map((r) => r.id);

    const poll = async () => {
      const ids = pendingIds();
      if (ids.length === 0) return;
      try {
        const updates: ReportStatusItem[] = [];
        for (let i = 0; i < ids.length; i += STATUS_IDS_PER_REQUEST) {
          const chunk = ids.slice(i, i + STATUS_IDS_PER_REQUEST);
          const res = await apiFetch<ReportStatusResponse>(`/api/reports/status?ids=${chunk.map(encodeURIComponent).join(",")}`, {
            timeoutMs: API_TIMEOUT_MS,
            signal: controller.signal,
            viewAs: false,
          });
          updates.push(...res.statuses);
        }
        if (controller.signal.aborted) return;
        setLive((current) => {
          const next = new Map(current);
          for (const u of updates) next.set(u.id, u);
          liveRef.current = next;
          return next;
        });
      } catch (error) {
        if (controller.signal.aborted || (error instanceof ApiError && error.status === 403)) return;
      }
      if (pendingIds().length > 0) timer = setTimeout(poll, STATUS_POLL_MS);
    };
    timer = setTimeout(poll, STATUS_POLL_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [known]);

  return live;
}

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
      {PENDING.has(status) ? <span className="report-status-pulse" aria-hidden="true" /> : null}
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
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="secondary"
      busy={busy}
      disabled={disabled}
      onClick={async () => {
        setBusy(true);
        try {
          const res = await apiFetch<{ queued: number; warning?: string }>("/api/reports/generate-all", {
            method: "POST",
            timeoutMs: API_TIMEOUT_MS,
          });
          if (res.warning) onError(res.warning);
          onQueued(res.queued);
        } catch (error) {
          onError(`Failed to queue reports: ${error instanceof Error ? error.message : "Unknown error"}`);
        } finally {
          setBusy(false);
        }
      }}
    >
      <SparklesIcon size="sm" />
      Generate all reports
    </Button>
  );
}
