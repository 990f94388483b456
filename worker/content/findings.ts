// The audit's findings for a business's prompts (issue 18 builds the audits in parallel): keywords where it ranks
// poorly and the gaps found. Until audits land there are none, and prompts are built from the profile alone.
import type { AuditFindings } from "../domain/content";
import type { Env } from "../env";

/** The latest audit's findings for this user's business, or null when there is no audit yet. */
export async function auditFindingsFor(_env: Env, _userId: string): Promise<AuditFindings | null> {
  return null;
}
