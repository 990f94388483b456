// Reads an audit as the API answers it (AuditView), and a business's latest one (for the report and the chats).
import type { AuditView } from "./rules/view";
import type { Db } from "../../platform/db/client";
import { getAudit, latestAudit, previousAudit } from "./queries";
import { parseJson } from "../../domain/json";
import { buildAuditView, type FetchResult, type FindResult, type RankResult } from "./view";

export async function loadAuditView(db: Db, id: string, opts: { publicView?: boolean } = {}): Promise<AuditView | null> {
  const found = await getAudit(db, id);
  if (!found) return null;
  return buildAuditView(found.audit, found.steps, await previousAudit(db, found.audit), opts);
}

/** The prospect's newest audit, or null when it has none. */
export async function latestProspectAuditView(db: Db, prospectId: string, opts: { publicView?: boolean } = {}): Promise<AuditView | null> {
  const latest = await latestAudit(db, { prospectId });
  return latest ? loadAuditView(db, latest.id, opts) : null;
}

/** The finished steps of a business's latest audit (the tools that build on it: citations, AI Visibility); nulls before one. */
export async function latestAuditResults(db: Db, who: { prospectId: string } | { ownerId: string }) {
  const latest = await latestAudit(db, who);
  const audit = latest ? await getAudit(db, latest.id) : null;
  const stepResult = <T,>(step: string) => {
    const row = audit?.steps.find((s) => s.step === step);
    return row?.status === "done" ? parseJson<T>(row.result) : null;
  };
  return { latest, steps: audit?.steps ?? [], find: stepResult<FindResult>("find"), fetched: stepResult<FetchResult>("fetch"), rank: stepResult<RankResult>("rank") };
}
