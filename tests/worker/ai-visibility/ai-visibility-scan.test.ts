// An AI Visibility scan (issue 29) through the real ai-visibility consumer against the engine fakes (scripted by
// markers in the question, tests/fakes/ai-engines-script.ts): the mention rate and its Wilson interval for known
// samples, a redelivered message asking nothing twice, a failed engine shown failed (never "not mentioned"), a 429
// retried, the answer one click away, and an admin's prospect scan in the shared report with its answers (only its own).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../../worker/platform/env";
import { AI_VISIBILITY_MAX_RETRIES } from "../../../worker/features/ai-visibility/config";
import type { AnswerView, ScanView } from "../../../worker/features/ai-visibility/rules/contract";
import type { AiScanSummary, ReportAiVisibility } from "../../../worker/features/ai-visibility/rules/scans";
import { deliver, drainQueue, seedReport } from "../reports/reports-fixtures";
import { aiEnv, bind, owner, type AiEnv } from "./ai-visibility-fixtures";
import { callWorker, signUpAdmin } from "../helpers";
import { traceD1 } from "../d1-trace";
import { getDb } from "../../../worker/platform/db/client";
import { readCounter } from "../../../worker/platform/metering/store";
import { toMicro, userCapKey } from "../../../worker/domain/metering";
import { AI_ENGINE_USD_PER_CALL } from "../../../worker/features/ai-visibility/rules/contract";

/** Delivers what was sent through the real consumer, two messages a batch as wrangler.toml sets it; a retried message comes back with attempts + 1, the last one to the DLQ. */
async function drain(t: AiEnv) {
  const { log } = await drainQueue("ai-visibility", t, { maxRetries: AI_VISIBILITY_MAX_RETRIES, rounds: 20, batch: 2 });
  return { retries: log.filter((d) => d.outcome === "retry").length };
}

type Logged = { engine: string; question: string; sample: number; status: number };
async function engineRequests(q: string): Promise<Logged[]> {
  const res = await fetch(`${env.TEST_AI_ENGINES_URL}/__requests?q=${encodeURIComponent(q)}`);
  return ((await res.json()) as { requests: Logged[] }).requests;
}

async function readScan(t: AiEnv, token: string, id: string): Promise<ScanView> {
  const res = await callWorker(`/api/ai-visibility/scans/${id}`, { token }, bind(t));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ScanView;
}

describe("a scan against the engine fakes", () => {
  it("names the business in 2 of 5 answers: k=2, n=5 with its exact Wilson interval; every message twice asks each answer once", async () => {
    const t = aiEnv();
    const { token } = await owner(t);
    const mark = `m${crypto.randomUUID().slice(0, 8)}`;
    // Joe's Plumbing first in samples 0 and 1 only; Austin Pro Plumbing (in the Maps pack: local) in every answer.
    const question = `best plumber in Austin ${mark} [aiv:names=Joe's Plumbing|Austin Pro Plumbing] [aiv:pattern=11000] [aiv:cite=angi.com|yelp.com]`;
    const started = await callWorker("/api/ai-visibility/scans", { method: "POST", token, json: { business: "own", questions: [question], engines: ["perplexity"], samples: 5 } }, bind(t));
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const view = started.body as ScanView;
    expect(view.progress).toEqual({ done: 0, total: 5, failed: 0 });
    expect(await engineRequests(mark)).toHaveLength(0);

    // Every message delivered twice: no answer is asked twice.
    t.sent.push(...t.sent.map((m) => ({ ...m, answerIds: [...m.answerIds] })));
    await drain(t);
    expect(await engineRequests(mark)).toHaveLength(5);

    const done = await readScan(t, token, view.id);
    expect(done.status).toBe("done");
    expect(done.progress).toEqual({ done: 5, total: 5, failed: 0 });
    const figure = done.figures[0]!;
    expect(figure).toMatchObject({ engine: "perplexity", k: 2, n: 5, failed: 0, mention_rate: 0.4, avg_position: 1 });
    expect(figure.low).toBeCloseTo(0.1176, 4);
    expect(figure.high).toBeCloseTo(0.7693, 4);
    // Joe's 2 mentions of the 7 local mentions (Austin Pro Plumbing's 5).
    expect(figure.share_of_voice).toBeCloseTo(2 / 7, 4);
    expect(figure.named.find((n) => n.name === "Austin Pro Plumbing")).toMatchObject({ mentions: 5, local: true, self: false });
    expect(figure.answerIds).toHaveLength(5);
    expect(done.overall).toMatchObject({ k: 2, n: 5 });
    expect(done.citedDomains.map((d) => [d.domain, d.answers, d.of])).toEqual([
      ["angi.com", 5, 5],
      ["yelp.com", 5, 5],
    ]);
    expect(done.engineErrors).toEqual([]);
    // No AI key in the tests: "What to do" comes from the templates, and says so.
    expect(done.actions?.source).toBe("template");
    expect(done.actions?.items.length).toBeGreaterThan(0);
    expect(done.costCents).toBe(5);

    // The answer one click away: the whole text and sources from R2, who it names.
    const answers = await Promise.all(figure.answerIds.map(async (id) => (await callWorker(`/api/ai-visibility/answers/${id}`, { token }, bind(t))).body as AnswerView));
    const naming = answers.filter((a) => a.named.some((n) => n.self));
    expect(naming).toHaveLength(2);
    expect(naming[0]!.text).toContain("Joe's Plumbing");
    expect(naming[0]).toMatchObject({ status: "ok", engine: "perplexity", question, error: null });
    expect(naming[0]!.sources.map((s) => new URL(s.url).hostname)).toEqual(["www.angi.com", "www.yelp.com"]);

    const history = await callWorker("/api/ai-visibility/scans?business=own", { token }, bind(t));
    const row = (history.body.scans as AiScanSummary[])[0]!;
    expect(row).toMatchObject({ id: view.id, status: "done", trigger: "manual", questions: 1, engines: ["perplexity"] });
    expect(row.perEngine).toEqual([expect.objectContaining({ engine: "perplexity", k: 2, n: 5 })]);
  });

  it("shows a failed engine failed, never as not mentioned, and retries a 429 without asking anything twice", async () => {
    const t = aiEnv();
    const { token } = await owner(t);
    const mark = `m${crypto.randomUUID().slice(0, 8)}`;
    const question = `emergency plumber ${mark} [aiv:names=Joe's Plumbing] [aiv:fail=gemini:500] [aiv:fail=perplexity:429@0]`;
    const started = await callWorker("/api/ai-visibility/scans", { method: "POST", token, json: { business: "own", questions: [question], engines: ["gemini", "perplexity"], samples: 3 } }, bind(t));
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const { retries } = await drain(t);
    expect(retries).toBeGreaterThan(0);
    const asked = await engineRequests(mark);
    // Gemini: 3 calls, each a 500 (not retried). Perplexity: 3 answers, the first after one 429.
    expect(asked.filter((r) => r.engine === "gemini")).toHaveLength(3);
    expect(asked.filter((r) => r.engine === "perplexity").map((r) => r.status)).toEqual([429, 200, 200, 200]);

    const done = await readScan(t, token, (started.body as ScanView).id);
    expect(done.status).toBe("done");
    expect(done.progress).toEqual({ done: 6, total: 6, failed: 3 });
    const gemini = done.figures.find((f) => f.engine === "gemini")!;
    // No answers means no rate: null, not "named in 0%".
    expect(gemini).toMatchObject({ k: 0, n: 0, failed: 3, mention_rate: null });
    const perplexity = done.figures.find((f) => f.engine === "perplexity")!;
    expect(perplexity).toMatchObject({ k: 3, n: 3, failed: 0 });
    expect(done.engineErrors.map((e) => e.engine)).toEqual(["gemini"]);
    const failed = (await callWorker(`/api/ai-visibility/answers/${gemini.answerIds[0]}`, { token }, bind(t))).body as AnswerView;
    expect(failed).toMatchObject({ status: "failed", text: null, named: [] });
    expect(failed.error).toBeTruthy();
  });
});

describe("a message's round trips (the bench's overhead per answer)", () => {
  it("claims its 3 answers and takes their reservations in one batch, and stores each answer beside its settle in one more", async () => {
    const t = aiEnv();
    const { token } = await owner(t);
    const mark = `m${crypto.randomUUID().slice(0, 8)}`;
    const started = await callWorker(
      "/api/ai-visibility/scans",
      { method: "POST", token, json: { business: "own", questions: [`best plumber in Austin ${mark} [aiv:names=Joe's Plumbing]`], engines: ["perplexity"], samples: 3 } },
      bind(t),
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const messages = t.sent.splice(0);
    expect(messages.map((m) => m.answerIds.length)).toEqual([3]);
    const trace = traceD1();
    const { result } = await deliver("ai-visibility", [{ body: messages[0]! }], { ...t.env, DB: trace.db } as Env);
    expect(result.explicitAcks).toHaveLength(1);
    expect((await engineRequests(mark)).length).toBe(3);
    const calls = trace.describe().split("\n");
    // The scan with its answers' engines, the payer's allowance, the claim with the 3 reservations, then per answer
    // its store with the settle (3), then the scan's finish. Before: a reservation, a store and a settle per answer.
    // (The claim's batch: its 2 statements and 4 per reservation; a store's 2 beside a settle's 2.) An own scan's finish
    // also refreshes the client's AI figures on the agency's clients view (issue 41): its context, the figures, the row.
    const what = calls.map((c) => c.replace(/^\d+: /, ""));
    expect(what.slice(0, 6), calls.join("\n")).toEqual(["batch of 2", "batch of 4", "batch of 14", "batch of 4", "batch of 4", "batch of 4"]);
    expect(calls.length, calls.join("\n")).toBeLessThanOrEqual(3 + 3 + 4 + 3);
    const scan = await readScan(t, token, (started.body as ScanView).id);
    expect(scan.progress).toEqual({ done: 3, total: 3, failed: 0 });
  });
});

describe("the prospect's report", () => {
  it("shows an admin's scan in the shared report: 'Asked … N times, Perplexity named … and you 0 times'", async () => {
    const t = aiEnv();
    const admin = await signUpAdmin();
    const seeded = await seedReport();
    const mark = `m${crypto.randomUUID().slice(0, 8)}`;
    const question = `best roofer in Austin ${mark} [aiv:names=Austin Pro Plumbing|Capital City Plumbers]`;
    const started = await callWorker("/api/ai-visibility/scans", { method: "POST", token: admin.session.access_token, json: { business: seeded.prospect.id, questions: [question], engines: ["perplexity"], samples: 3 } }, bind(t));
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const before = await callWorker(`/api/shared/reports/${seeded.id}`, {}, bind(t));
    expect(before.body.aiVisibility).toBeNull();
    await drain(t);
    const shared = await callWorker(`/api/shared/reports/${seeded.id}`, {}, bind(t));
    expect(shared.status).toBe(200);
    const section = shared.body.aiVisibility as ReportAiVisibility;
    expect(section).toMatchObject({ scanId: (started.body as ScanView).id, city: "Austin", samples: 3 });
    expect(section.lines).toHaveLength(1);
    expect(section.lines[0]!.text).toBe(`Asked '${question}' 3 times, Perplexity named Austin Pro Plumbing 3 times and you 0 times`);
    expect(section.lines[0]!.answerIds).toHaveLength(3);

    // The answers behind the line, one click away on the shared page: public, scoped to this report's scan.
    const answerId = section.lines[0]!.answerIds[0]!;
    const opened = await callWorker(`/api/shared/reports/${seeded.id}/ai-answers/${answerId}`, {}, bind(t));
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body as AnswerView).toMatchObject({ id: answerId, scanId: section.scanId, status: "ok", question });
    expect((opened.body as AnswerView).text).toContain("Austin Pro Plumbing");
    // Another business's shared report never opens this answer, nor does an id of no answer.
    const other = await seedReport();
    const elsewhere = await callWorker(`/api/shared/reports/${other.id}/ai-answers/${answerId}`, {}, bind(t));
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toMatchObject({ error: { code: "not_found", message: "Answer not found" } });
    expect((await callWorker(`/api/shared/reports/${seeded.id}/ai-answers/${crypto.randomUUID()}`, {}, bind(t))).status).toBe(404);
  });
});

describe("an engine that does not answer in time (issue 39)", () => {
  it("settles each timed-out call at its price, as the chat does: the provider may have billed it", async () => {
    const t = aiEnv({ AI_ENGINE_TIMEOUT_MS: "300" } as Partial<Env>);
    const { token, userId } = await owner(t);
    const mark = `m${crypto.randomUUID().slice(0, 8)}`;
    const started = await callWorker(
      "/api/ai-visibility/scans",
      { method: "POST", token, json: { business: "own", questions: [`best plumber ${mark} [aiv:fail=perplexity:timeout]`], engines: ["perplexity"], samples: 3 } },
      bind(t),
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    // What the start spent (the competitors' maps search), before any engine is asked.
    const before = await readCounter(getDb(env), userCapKey(userId, new Date()));
    await drain(t);
    const done = await readScan(t, token, (started.body as ScanView).id);
    expect(done.progress).toMatchObject({ total: 3, failed: 3 });
    const asked = (await engineRequests(mark)).filter((r) => r.engine === "perplexity").length;
    expect(asked).toBeGreaterThanOrEqual(3);
    const counter = await readCounter(getDb(env), userCapKey(userId, new Date()));
    // Every call that reached the engine is counted at its price; nothing stays reserved.
    expect(counter).toEqual({ reservedMicro: 0, settledMicro: before.settledMicro + asked * toMicro(AI_ENGINE_USD_PER_CALL.perplexity) });
  });
});
