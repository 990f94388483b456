// /shared/reports/:id inside the SPA (reached only by client-side navigation: the worker serves the link itself,
// rendered from the same SharedReportView). No sign-in, no phone, printable.
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useParams } from "react-router";
import type { SharedReportResponse } from "../../../../worker/features/reports/rules/view";
import { PageTitle } from "../../brand";
import { BrandLogo } from "../../../design/brand-mark";
import { useBrand } from "../../brand";
import { ReportNotFoundView, SharedReportView } from "../shared-report-view";
import { isNotFound, sharedReportQuery } from "../queries";
import { enhanceSharedReport } from "../shared-page/enhance";
import "../../../design/public-page.css";
import "../report-sections.css";
import "../shared-report.css";
import "../../../design/scan-results.css";

export { NOT_FOUND_TEXT, NOT_FOUND_TITLE } from "../shared-report-view";
export const LOAD_FAILED_TITLE = "Report Unavailable";
export const LOAD_FAILED_TEXT = "We could not load this report just now. Please check your connection and try again.";

type State =
  | { phase: "loading" }
  | { phase: "missing" }
  | { phase: "failed"; retry: () => void }
  | { phase: "loaded"; data: SharedReportResponse };

/**
 * The report, asked for again every SHARED_REPORT_POLL_MS while it is being prepared. Only a 404 is
 * "not found"; a time-out or a server error is a retry message (a failed poll keeps what is shown).
 */
function useSharedReport(id: string | undefined): State {
  const query = useQuery({ ...sharedReportQuery(id ?? ""), enabled: id !== undefined });
  if (id === undefined || isNotFound(query.error)) return { phase: "missing" };
  if (query.data) return { phase: "loaded", data: query.data };
  if (query.isError) return { phase: "failed", retry: () => void query.refetch() };
  return { phase: "loading" };
}

export default function SharedReportPage() {
  const { id } = useParams();
  const state = useSharedReport(id);
  const brand = useBrand();
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
  if (state.phase === "failed") {
    return (
      <div className="shared-missing">
        <PageTitle>{LOAD_FAILED_TITLE}</PageTitle>
        <main className="card shared-missing-card">
          <BrandLogo brand={brand} className="shared-missing-mark" />
          <h1>{LOAD_FAILED_TITLE}</h1>
          <p>{LOAD_FAILED_TEXT}</p>
          <button type="button" className="btn btn-primary" onClick={state.retry}>
            Try again
          </button>
        </main>
      </div>
    );
  }
  if (state.phase === "missing") return <ReportNotFoundView brand={brand} />;
  return (
    <>
      <title>{`${state.data.prospect.name} · SEO Report`}</title>
      <SharedReportView data={state.data} />
    </>
  );
}
