// AI Visibility's routes (issue 29) before any engine answers: questions kept per business (suggested from the trade
// and city, the plan's limit), the estimate, the stable refusals (unknown or unavailable engine, samples, too many
// questions), 402 past the allowance with no call and no message, and who may scan and read what.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import wranglerToml from "../../../wrangler.toml?raw";
import { AI_VISIBILITY_MAX_RETRIES } from "../../../worker/features/ai-visibility/config";
import { AI_ENGINE_USD_PER_CALL, type EstimateView, type ScanView, type TrackedQuestion } from "../../../worker/features/ai-visibility/rules/contract";
import { consumerSettings } from "../reports/reports-fixtures";
import { aiEnv, bind, owner } from "./ai-visibility-fixtures";
import { callWorker, setAllowance, signUpAdmin } from "../helpers";

async function mapsSearches(): Promise<number> {
  const got = (await (await fetch(`${env.SERPAPI_BASE_URL}/__requests`)).json()) as { requests: { engine?: string }[] };
  return got.requests.filter((r) => r.engine === "google_maps").length;
}

describe("ai-visibility settings", () => {
  it("keeps the consumer's settings and its dead-letter queue in wrangler.toml", () => {
    const block = consumerSettings("ai-visibility", AI_VISIBILITY_MAX_RETRIES);
    expect(/max_batch_size = (\d+)/.exec(block)?.[1]).toBe("2");
    for (const setting of ["max_batch_timeout", "max_concurrency", "retry_delay"]) expect(block).toMatch(new RegExp(`^${setting} = \\d+`, "m"));
    expect(wranglerToml).toMatch(/\[\[queues\.consumers\]\]\s*\nqueue = "ai-visibility-dlq"/);
  });
});

describe("questions", () => {
  it("suggests questions from the trade and city, keeps, tracks, edits and deletes them up to the plan's limit", async () => {
    const t = aiEnv();
    const { token } = await owner(t);
    const first = await callWorker("/api/ai-visibility/questions?business=own", { token }, bind(t));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.questions).toEqual([]);
    expect(first.body.limit).toBe(3);
    expect(first.body.suggested.length).toBeGreaterThan(0);
    // The trade's noun (issue 39): "best plumber in Austin", never "best plumbing in Austin".
    expect(first.body.suggested[0]).toMatch(/plumber/i);
    expect(first.body.suggested.join(" ")).not.toMatch(/plumbing/i);
    expect(first.body.suggested[0]).toMatch(/Austin/);
    // Every engine is keyed in the tests' bindings, so all are offered; one without its key is listed as not available.
    expect(first.body.engines).toHaveLength(5);
    expect(first.body.engines.every((e: { available: boolean }) => e.available)).toBe(true);
    const { token: second } = await owner(t);
    const without = await callWorker("/api/ai-visibility/questions?business=own", { token: second }, { ...bind(t), PERPLEXITY_API_KEY: "" });
    expect(without.body.engines).toContainEqual({ engine: "perplexity", available: false, reason: "unavailable" });

    const made: TrackedQuestion[] = [];
    for (const text of ["best plumber in Austin", "emergency plumber near me", "who installs water heaters in Austin TX"]) {
      const res = await callWorker("/api/ai-visibility/questions", { method: "POST", token, json: { business: "own", text } }, bind(t));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      made.push(res.body as TrackedQuestion);
    }
    expect(made[0]).toMatchObject({ text: "best plumber in Austin", tracked: false });
    const fourth = await callWorker("/api/ai-visibility/questions", { method: "POST", token, json: { business: "own", text: "plumber with good reviews in 78701" } }, bind(t));
    expect(fourth.status).toBe(400);
    expect(fourth.body.error.code).toBe("too_many_questions");

    const tracked = await callWorker(`/api/ai-visibility/questions/${made[0]!.id}`, { method: "PATCH", token, json: { tracked: true } }, bind(t));
    expect(tracked.status).toBe(200);
    expect(tracked.body).toMatchObject({ id: made[0]!.id, tracked: true, text: "best plumber in Austin" });
    const renamed = await callWorker(`/api/ai-visibility/questions/${made[1]!.id}`, { method: "PATCH", token, json: { text: "emergency plumber in Austin" } }, bind(t));
    expect(renamed.body).toMatchObject({ text: "emergency plumber in Austin", tracked: false });
    expect((await callWorker(`/api/ai-visibility/questions/${made[1]!.id}`, { method: "PATCH", token, json: {} }, bind(t))).status).toBe(400);
    expect((await callWorker(`/api/ai-visibility/questions/${made[2]!.id}`, { method: "DELETE", token }, bind(t))).status).toBe(204);

    const listed = await callWorker("/api/ai-visibility/questions?business=own", { token }, bind(t));
    expect((listed.body.questions as TrackedQuestion[]).map((q) => [q.text, q.tracked])).toEqual([
      ["best plumber in Austin", true],
      ["emergency plumber in Austin", false],
    ]);
    expect(listed.body.suggested).toEqual([]);

    // Someone else's question is not found for them.
    const other = await owner(t);
    expect((await callWorker(`/api/ai-visibility/questions/${made[0]!.id}`, { method: "PATCH", token: other.token, json: { tracked: false } }, bind(t))).status).toBe(404);
    expect((await callWorker(`/api/ai-visibility/questions/${made[0]!.id}`, { method: "DELETE", token: other.token }, bind(t))).status).toBe(404);
  });
});

describe("a scan's estimate and refusals", () => {
  it("estimates calls × price per engine and refuses bad engines, samples and too many questions with stable codes", async () => {
    // Perplexity without its key: not offered here.
    const t = aiEnv({ PERPLEXITY_API_KEY: "" });
    const { token } = await owner(t);
    const body = { business: "own", questions: ["best plumber in Austin", "emergency plumber near me"], engines: ["google_ai_mode"], samples: 4 };
    const estimate = await callWorker("/api/ai-visibility/scans?estimate=1", { method: "POST", token, json: body }, bind(t));
    expect(estimate.status, JSON.stringify(estimate.body)).toBe(200);
    const view = estimate.body as EstimateView;
    expect(view.calls).toBe(8);
    expect(view.perEngine).toEqual([{ engine: "google_ai_mode", calls: 8, costCents: Math.ceil(8 * AI_ENGINE_USD_PER_CALL.google_ai_mode * 100) }]);
    // The Maps search for the competitor set is part of the cost.
    expect(view.costCents).toBe(Math.ceil((8 * AI_ENGINE_USD_PER_CALL.google_ai_mode + 0.015) * 100));
    expect(view.allowed).toBe(true);
    expect(t.sent).toEqual([]);

    const refusals: [unknown, number, string][] = [
      [{ ...body, engines: ["bing_chat"] }, 400, "unknown_engine"],
      [{ ...body, engines: ["perplexity"] }, 400, "engine_not_configured"],
      [{ ...body, samples: 2 }, 400, "samples_out_of_range"],
      [{ ...body, samples: 11 }, 400, "samples_out_of_range"],
      [{ ...body, questions: ["a one", "a two", "a three", "a four"] }, 400, "too_many_questions"],
      [{ ...body, samples: "five" }, 400, "validation_failed"],
    ];
    for (const [json, status, code] of refusals) {
      const res = await callWorker("/api/ai-visibility/scans?estimate=1", { method: "POST", token, json }, bind(t));
      expect(res.status, JSON.stringify(json)).toBe(status);
      expect(res.body.error.code).toBe(code);
    }
  });

  it("answers 402 past the allowance before any call or message", async () => {
    const t = aiEnv();
    const { token, userId } = await owner(t);
    await setAllowance(userId, 0.1, bind(t));
    const body = { business: "own", questions: ["best plumber in Austin"], engines: ["google_ai_overview", "google_ai_mode"], samples: 5 };
    const estimate = await callWorker("/api/ai-visibility/scans?estimate=1", { method: "POST", token, json: body }, bind(t));
    expect(estimate.body).toMatchObject({ calls: 10, allowed: false });
    const before = await mapsSearches();
    const res = await callWorker("/api/ai-visibility/scans", { method: "POST", token, json: body }, bind(t));
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe("allowance_exceeded");
    expect(t.sent).toEqual([]);
    expect(await mapsSearches()).toBe(before);
    expect((await callWorker("/api/ai-visibility/scans?business=own", { token }, bind(t))).body.scans).toEqual([]);
  });
});

describe("a large scan", () => {
  it("stores a 5 × 4 × 3 scan's 60 answers within D1's 100 bound parameters a statement, sent 3 a message", async () => {
    const t = aiEnv();
    const admin = await signUpAdmin();
    const prospect = crypto.randomUUID();
    await env.DB.prepare("insert into prospects (id, name, company_name, area, keyword, phone) values (?, ?, ?, ?, ?, ?)").bind(prospect, "Dana Reyes", "Desert Sun Plumbing", "Austin, TX", "plumber", "(512) 555-0100").run();
    const questions = ["best plumber in Austin", "emergency plumber near me", "who installs water heaters in Austin TX", "plumber with good reviews in 78701", "affordable drain cleaning Austin"];
    const res = await callWorker("/api/ai-visibility/scans", { method: "POST", token: admin.session.access_token, json: { business: prospect, questions, engines: ["chatgpt", "perplexity", "gemini", "google_ai_mode"], samples: 3 } }, bind(t));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((res.body as ScanView).progress).toEqual({ done: 0, total: 60, failed: 0 });
    expect(t.sent).toHaveLength(20);
    expect(new Set(t.sent.flatMap((m) => m.answerIds)).size).toBe(60);
  });
});

describe("permissions", () => {
  it("lets admins scan prospects, refuses users, and keeps each business's scans to those who may read them", async () => {
    const t = aiEnv();
    const user = await owner(t);
    const stranger = await owner(t);
    const admin = await signUpAdmin();
    const adminToken = admin.session.access_token;
    const prospect = crypto.randomUUID();
    await env.DB.prepare("insert into prospects (id, name, company_name, area, keyword, phone, website) values (?, ?, ?, ?, ?, ?, ?)").bind(prospect, "Dana Reyes", "Desert Sun Roofing", "Mesa, AZ", "roofer", "+1 480-555-0100", "https://desertsun.test").run();
    const body = { business: prospect, questions: ["best roofer in Mesa"], engines: ["google_ai_mode"], samples: 3 };

    expect((await callWorker("/api/ai-visibility/scans", { method: "POST", token: user.token, json: body }, bind(t))).status).toBe(403);
    expect((await callWorker(`/api/ai-visibility/scans?business=${prospect}`, { token: user.token }, bind(t))).status).toBe(403);
    expect((await callWorker(`/api/ai-visibility/questions?business=${prospect}`, { token: user.token }, bind(t))).status).toBe(403);
    expect((await callWorker("/api/ai-visibility/questions", { method: "POST", token: user.token, json: { business: prospect, text: "best roofer in Mesa" } }, bind(t))).status).toBe(403);

    const made = await callWorker("/api/ai-visibility/scans", { method: "POST", token: adminToken, json: body }, bind(t));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const scan = made.body as ScanView;
    expect(scan).toMatchObject({ business: prospect, businessName: "Desert Sun Roofing", status: "queued", samples: 3, engines: ["google_ai_mode"], progress: { done: 0, total: 3, failed: 0 }, overall: null, actions: null });
    expect(scan.questions.map((q) => q.text)).toEqual(["best roofer in Mesa"]);
    expect(t.sent.flatMap((m) => m.answerIds)).toHaveLength(3);
    expect(t.sent.every((m) => m.scanId === scan.id && m.answerIds.length <= 3)).toBe(true);
    expect(scan.figures.map((f) => [f.engine, f.n, f.answerIds.length])).toEqual([["google_ai_mode", 0, 3]]);

    expect((await callWorker(`/api/ai-visibility/scans/${scan.id}`, { token: adminToken }, bind(t))).status).toBe(200);
    expect((await callWorker(`/api/ai-visibility/scans/${scan.id}`, { token: user.token }, bind(t))).status).toBe(404);
    const answerId = scan.figures[0]!.answerIds[0]!;
    expect((await callWorker(`/api/ai-visibility/answers/${answerId}`, { token: user.token }, bind(t))).status).toBe(404);
    // Not asked yet: 409, never shown as failed.
    const pending = await callWorker(`/api/ai-visibility/answers/${answerId}`, { token: adminToken }, bind(t));
    expect(pending.status).toBe(409);
    expect(pending.body.error.code).toBe("answer_pending");
    const history = await callWorker(`/api/ai-visibility/scans?business=${prospect}`, { token: adminToken }, bind(t));
    expect(history.body.scans.map((s: { id: string }) => s.id)).toEqual([scan.id]);

    // A user's own scan: theirs only.
    const own = await callWorker("/api/ai-visibility/scans", { method: "POST", token: user.token, json: { business: "own", questions: ["best plumber in Austin"], engines: ["google_ai_mode"], samples: 3 } }, bind(t));
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect((await callWorker(`/api/ai-visibility/scans/${(own.body as ScanView).id}`, { token: stranger.token }, bind(t))).status).toBe(404);
    expect((await callWorker("/api/ai-visibility/scans?business=own", { token: stranger.token }, bind(t))).body.scans).toEqual([]);
    expect((await callWorker(`/api/ai-visibility/scans/${crypto.randomUUID()}`, { token: user.token }, bind(t))).status).toBe(404);
    const missing = await callWorker("/api/ai-visibility/scans", { method: "POST", token: adminToken, json: { ...body, business: crypto.randomUUID() } }, bind(t));
    expect(missing.status).toBe(404);
  });
});
