// "Run an AI Visibility scan" from the clients view (issue 41): the client's kept questions (else the suggested ones)
// put to every configured engine, as their own "Scan now" does, paid from their allowance.
import type { ClientRunner } from "../../platform/client-runs";
import { resolveAiBusiness } from "./business";
import { aiScanCost } from "./scan";
import { scanEngines, scanQuestions, startManualAiScan } from "./service";

export const aiScanRun: ClientRunner = async (env, db, client) => {
  const asked = scanEngines(env, {});
  if (!asked.ok) return { ok: false, code: asked.refusal.code, message: asked.refusal.message };
  const resolved = await resolveAiBusiness(db, { own: true, userId: client.id, profile: client.profile });
  if (!resolved.ok) return { ok: false, code: resolved.refusal.code, message: resolved.refusal.message };
  const questions = await scanQuestions(env, db, client, resolved.value, undefined);
  if (!questions.ok) return { ok: false, code: questions.refusal.code, message: questions.refusal.message };
  const { engines, samples } = asked.value;
  return {
    ok: true,
    micro: aiScanCost(engines, questions.value.length, samples).micro,
    start: async () => {
      const started = await startManualAiScan(env, db, { resolved: resolved.value, userId: client.id, questions: questions.value, engines, samples });
      return started.ok ? { ok: true } : { ok: false, code: started.refusal.code, message: started.refusal.message };
    },
  };
};
