// /shared/reports/:id inside the SPA (reached only by client-side navigation: the worker serves the link itself,
// rendered from the same SharedReportView). No sign-in, no phone, printable.
import { useEffect } from "react";
import { useParams } from "react-router";
import type { SharedReportResponse } from "../../worker/domain/report-view";
import { ReportNotFoundView, SharedReportView } from "../components/shared-report-view";
import { ApiError, apiFetch } from "../lib/api";
import { usePolled } from "../lib/use-polled";
import { enhanceSharedReport } from "../shared-report/enhance";
import "../report.css";

export { NOT_FOUND_TEXT, NOT_FOUND_TITLE } from "../components/shared-report-view";
/** A report still being generated is asked for again this often. */
const PREPARING_POLL_MS = 5000;

type State =
  | { phase: "loading" }
  | { phase: "missing" }
  | { phase: "loaded"; data: SharedReportResponse };

function useSharedReport(id: string | undefined): State {
  const polled = usePolled(
    id,
    (signal) =>
      apiFetch<SharedReportResponse>(`/api/shared/reports/${encodeURIComponent(id!)}`, {
        accessToken: null,
        viewAs: false,
        timeoutMs: 15_000,
        signal,
      }),
    {
      isDone: (data) => data.report.status === "ready",
      pollMs: PREPARING_POLL_MS,
      // While a preparing report is shown, a failed poll just tries again later; a 404 means it is gone.
      keepPolling: (error) => !(error instanceof ApiError && error.status === 404),
    },
  );
  return polled.phase === "error" ? { phase: "missing" } : polled;
}

export default function SharedReportPage() {
  const { id } = useParams();
  const state = useSharedReport(id);
  const ready = state.phase === "loaded" && state.data.report.status === "ready";
  // The same behaviour the server-rendered page gets from its own script.
  useEffect(() => (ready ? enhanceSharedReport(document) : undefined), [ready]);

  if (state.phase === "loading") {
    return (
      <div className="loading-screen is-fullscreen" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <span>Loading report...</span>
      </div>
    );
  }
  if (state.phase === "missing") return <ReportNotFoundView />;
  return (
    <>
      <title>{`${state.data.prospect.name} · SEO Report`}</title>
      <SharedReportView data={state.data} />
    </>
  );
}
