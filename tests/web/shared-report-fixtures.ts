// The shared report page's answer (/api/shared/reports/:token) for the screens' tests of one section of it.
import type { SharedReportResponse } from "../../worker/features/reports/rules/view";

/** A queued roofer's report (no content yet, no sender) created at `createdAt`; `over` adds the section under test. */
export function sharedRoofer(createdAt: string, business: string, area: string, over: Partial<SharedReportResponse> = {}): SharedReportResponse {
  return {
    report: { id: "r-1", status: "queued", source: null, created_at: createdAt, generated_at: null, version: 3, content: null },
    prospect: { name: business, company_name: business, area, keyword: "roofer", tag: null, description: "" },
    sender: null,
    ...over,
  };
}
