// What reports does when other capabilities announce something (wired in worker/registry.ts).
import type { Events } from "../../platform/events";
import { bumpReportVersionOfProspect } from "./queries";
import { forgetPages, forgetVersion, purgeSharedReport } from "./shared-cache";

/** A prospect's new findings change what its written report shows: a new version, and the old one's cached copy purged. */
export async function showNewFindings({ env, db, prospectId }: Events["prospect.findings-changed"]): Promise<void> {
  const bumped = await bumpReportVersionOfProspect(db, prospectId);
  if (bumped) await purgeSharedReport(env, bumped.reportId, bumped.version - 1);
}

/** The report changed under this isolate's memo (one report's, or every report's when none is named). */
export function forgetReportVersion({ reportId }: Events["prospect.report-changed"]): void {
  forgetVersion(reportId);
}

/** Shared pages rendered under the old brand are forgotten. */
export function forgetBrandedPages(): void {
  forgetPages();
}
