// /tools/local-search-audit: Local Search Audit — everything the audit checks: website, listing, speed, rank (issue 18).
import { AuditTool, LOCAL_SEARCH_SCOPE } from "../audit-tool";

export default function LocalSearchAuditPage() {
  return <AuditTool scope={LOCAL_SEARCH_SCOPE} />;
}
