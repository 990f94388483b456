// The audit's findings for a business's prompts (issue 18 meets issue 20): the keyword it ranks poorly for and the
// gaps its latest audit of the user's own business found. Without an audit, prompts are built from the profile alone.
import { contentFindings, type AuditFindings } from "./rules/content";
import { getDb } from "../../platform/db/client";
import { latestAudit } from "../audits";
import { loadAuditView } from "../audits";
import type { Env } from "../../platform/env";

/** The latest audit's findings for this user's business, or null when there is no audit yet. */
export async function auditFindingsFor(env: Env, userId: string): Promise<AuditFindings | null> {
  const db = getDb(env);
  const latest = await latestAudit(db, { ownerId: userId });
  if (!latest) return null;
  const view = await loadAuditView(db, latest.id);
  return view ? contentFindings(view) : null;
}
