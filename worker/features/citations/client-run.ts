// "Run a citation scan" from the clients view (issue 41): the client's scan as their own "Scan now" starts it, with
// their plan's limit, paid from their allowance.
import type { ClientRunner } from "../../platform/client-runs";
import { resolveCitationBusiness } from "./business";
import { citationEstimate } from "./rules/citations";
import { citationRunRefusal, startManualCitationScan } from "./service";

export const citationScanRun: ClientRunner = async (env, db, client) => {
  const scope = { kind: "own" as const, userId: client.id, profile: client.profile };
  const refused = await citationRunRefusal(env, db, client, scope);
  if (refused) return { ok: false, code: refused.code, message: refused.message };
  const resolved = await resolveCitationBusiness(db, { own: true, userId: client.id, profile: client.profile });
  if (!resolved.ok) return { ok: false, code: resolved.refusal.code, message: resolved.refusal.message };
  return {
    ok: true,
    micro: citationEstimate().micro,
    start: async () => {
      const started = await startManualCitationScan(env, db, resolved.value, client.id);
      return started.ok ? { ok: true } : { ok: false, code: started.refusal.code, message: started.refusal.message };
    },
  };
};
