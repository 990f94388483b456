// AI Visibility tracking (issue 29): the cron asks each business's tracked questions once a week, however often it runs
// (two runs side by side included), and raises the alert (bell) only when a question's new interval no longer overlaps
// the previous week's: a business named 5 of 5 then 0 of 5 is alerted, one named 2 of 5 both weeks is not.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AI_DEFAULT_SAMPLES } from "../../../worker/features/ai-visibility/rules/contract";
import type { AiScanSummary } from "../../../worker/features/ai-visibility/rules/scans";
import { sweepAiVisibility } from "../../../worker/features/ai-visibility/tracking";
import { deliver } from "../reports/reports-fixtures";
import { callWorker, countOf, setAllowance, signUpAdmin } from "../helpers";
import { aiEnv, bind, owner } from "./ai-visibility-fixtures";

// Perplexity only (the other engines' keys blank; no search key: the audit's competitors, none here, are the local set).
const ONLY_PERPLEXITY = { OPENAI_API_KEY: "", GEMINI_API_KEY: "", SERPAPI_KEY: "" };

const trackingEnv = () => aiEnv(ONLY_PERPLEXITY);

async function drain(t: ReturnType<typeof trackingEnv>) {
  for (let round = 0; t.sent.length > 0 && round < 10; round++) {
    const now = t.sent.splice(0);
    for (let i = 0; i < now.length; i += 2) await deliver("ai-visibility", now.slice(i, i + 2).map((body) => ({ body })), t.env);
  }
}

async function engineRequests(q: string): Promise<{ engine: string }[]> {
  const res = await fetch(`${env.TEST_AI_ENGINES_URL}/__requests?q=${encodeURIComponent(q)}`);
  return ((await res.json()) as { requests: { engine: string }[] }).requests;
}

async function trackedOwner(t: ReturnType<typeof trackingEnv>, adminToken: string, question: string) {
  const { token, userId } = await owner(t);
  const bindings = bind(t);
  await setAllowance(userId, 20, bindings, adminToken);
  const made = await callWorker("/api/ai-visibility/questions", { method: "POST", token, json: { business: "own", text: question, tracked: true } }, bindings);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { token, userId };
}

async function scansOf(t: ReturnType<typeof trackingEnv>, token: string): Promise<AiScanSummary[]> {
  return (await callWorker("/api/ai-visibility/scans?business=own", { token }, bind(t))).body.scans;
}

const alerts = (userId: string) => countOf("select count(*) as n from notifications where user_id = ? and kind = 'ai_visibility_changed'", userId);

describe("weekly tracking", () => {
  it("asks each tracked question once a week however often the cron runs, and alerts only when the intervals separate", async () => {
    const t = trackingEnv();
    const admin = await signUpAdmin();
    const moving = `m${crypto.randomUUID().slice(0, 8)}`;
    const steady = `s${crypto.randomUUID().slice(0, 8)}`;
    // Samples 0–4 (week one) name Joe's in all 5, samples 5–9 (week two) in none.
    const a = await trackedOwner(t, admin.session.access_token, `best plumber ${moving} [aiv:names=Joe's Plumbing|Rival Rooter] [aiv:pattern=1111100000]`);
    // 2 of 5 both weeks: the intervals overlap.
    const b = await trackedOwner(t, admin.session.access_token, `best plumber ${steady} [aiv:names=Joe's Plumbing|Rival Rooter] [aiv:pattern=11000]`);

    const week1 = Date.now();
    await Promise.all([sweepAiVisibility(t.env, week1), sweepAiVisibility(t.env, week1)]);
    await sweepAiVisibility(t.env, week1 + 60_000);
    expect(t.sent.flatMap((m) => m.answerIds)).toHaveLength(2 * AI_DEFAULT_SAMPLES);
    await drain(t);
    expect(await engineRequests(moving)).toHaveLength(AI_DEFAULT_SAMPLES);
    expect(await engineRequests(steady)).toHaveLength(AI_DEFAULT_SAMPLES);
    const first = await scansOf(t, a.token);
    expect(first.map((s) => [s.trigger, s.status, s.overall?.k, s.overall?.n])).toEqual([["weekly", "done", 5, 5]]);
    // The first week has nothing to compare with.
    expect(await alerts(a.userId)).toBe(0);

    const week2 = week1 + 7 * 86_400_000;
    await Promise.all([sweepAiVisibility(t.env, week2), sweepAiVisibility(t.env, week2)]);
    await drain(t);
    expect(await engineRequests(moving)).toHaveLength(2 * AI_DEFAULT_SAMPLES);
    const second = await scansOf(t, a.token);
    expect(second.map((s) => [s.trigger, s.status, s.overall?.k, s.overall?.n])).toEqual([
      ["weekly", "done", 0, 5],
      ["weekly", "done", 5, 5],
    ]);
    expect(await alerts(a.userId)).toBe(1);
    const steadyScans = await scansOf(t, b.token);
    expect(steadyScans.map((s) => s.overall?.k)).toEqual([2, 2]);
    expect(await alerts(b.userId)).toBe(0);
  });
});
