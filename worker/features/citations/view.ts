// Builds what the citations API answers (worker/features/citations/rules/citations.ts types) from the stored scan and its checks: the
// verdicts, summary, fix list and what changed since the previous scan are computed here from what was stored.
import type { CitationCheckRow, CitationScanRow } from "./queries";
import { CITATION_SOURCES } from "./rules/sources";
import { pendingResult, type CitationScanSummaryRow, type CitationScanView, type CitationSourceResult } from "./rules/citations";
import { diffScans, fixList, summarize } from "./rules/summary";
import { fromMicro } from "../../domain/metering";
import type { StoredCitationBusiness } from "./scan";

/** Each source's result in the table's order; a source not answered yet (or retrying) shows as pending. */
export function sourceResults(checks: readonly CitationCheckRow[]): CitationSourceResult[] {
  return CITATION_SOURCES.map((s) => {
    const row = checks.find((c) => c.source === s.id);
    if (row?.result && (row.status === "done" || row.status === "failed")) {
      try {
        return JSON.parse(row.result) as CitationSourceResult;
      } catch {
        /* a result that does not parse shows as pending */
      }
    }
    const pending = pendingResult(s.id);
    return row?.status === "retrying" ? { ...pending, evidence: `The search failed (${row.reason ?? "no answer"}); it is being tried again. Not a "not listed".` } : pending;
  });
}

export function businessOf(scan: CitationScanRow): StoredCitationBusiness {
  return JSON.parse(scan.business) as StoredCitationBusiness;
}

export function buildCitationScanView(scan: CitationScanRow, checks: readonly CitationCheckRow[], previous: { scan: CitationScanRow; checks: readonly CitationCheckRow[] } | null): CitationScanView {
  const sources = sourceResults(checks);
  const business = businessOf(scan);
  return {
    id: scan.id,
    status: scan.status,
    business: { kind: scan.kind, prospectId: scan.prospectId, name: business.name },
    expected: business.expected,
    competitors: business.competitors,
    createdAt: scan.createdAt,
    finishedAt: scan.finishedAt,
    trigger: scan.trigger,
    estimate: { searches: scan.estimateSearches, costUsd: fromMicro(scan.estimateMicro) },
    sources,
    summary: summarize(sources),
    fixes: scan.status === "done" ? fixList(sources) : [],
    changes: previous && scan.status === "done" ? diffScans(sourceResults(previous.checks), sources) : [],
    previous: previous ? { id: previous.scan.id, createdAt: previous.scan.createdAt } : null,
  };
}

/** The history list: each scan's summary and what changed from the scan before it (`scans` newest first). */
export function citationHistory(scans: readonly CitationScanRow[], checks: readonly CitationCheckRow[]): CitationScanSummaryRow[] {
  const done = scans.filter((s) => s.status === "done");
  return scans.map((scan) => {
    const sources = sourceResults(checks.filter((c) => c.scanId === scan.id));
    const before = done.find((s) => s.createdAt < scan.createdAt);
    const changes = before && scan.status === "done" ? diffScans(sourceResults(checks.filter((c) => c.scanId === before.id)), sources) : [];
    return { id: scan.id, status: scan.status, createdAt: scan.createdAt, finishedAt: scan.finishedAt, trigger: scan.trigger, summary: summarize(sources), changes };
  });
}
