// /tools/gbp-audit: GBP Audit — the Google Business Profile, its reputation and the competitors beside it (issue 18).
import { AuditTool, GBP_SCOPE } from "../audit-tool";

export default function GbpAuditPage() {
  return <AuditTool scope={GBP_SCOPE} />;
}
