// The report-jobs consumer against the fake OpenAI-compatible server (real openai SDK): every outcome and the final row.
import { createExecutionContext, createScheduledController, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../../worker/index";
import { buildReportPrompt } from "../../../worker/features/reports/rules/prompt";
import { costFor, estimateTokens } from "../../../worker/domain/usage-cost";
import type { Env, ReportJobMessage, UsageEventMessage } from "../../../worker/platform/env";
import { AI_NOT_CONFIGURED_REASON, REPORT_JOBS_MAX_RETRIES, REPORT_MAX_ATTEMPTS } from "../../../worker/features/reports/config";
import { toReportProspect } from "../../../worker/features/reports/generate";
import { consumerSettings, deliver, readReport, recorder, seedReport } from "./reports-fixtures";

function testEnv(overrides: Partial<Env> = {}) {
  const usage = recorder<UsageEventMessage>();
  const jobs = recorder<ReportJobMessage>();
  const e: Env = { ...env, AI_API_KEY: "test", USAGE_EVENTS: usage.queue, REPORT_JOBS: jobs.queue, ...overrides };
  return { env: e, usage: usage.sent, jobs: jobs.sent };
}

async function job(reportId: string, attempts: number, e: Env) {
  const { result, ids, delays } = await deliver("report-jobs", [{ body: { reportId }, attempts }], e);
  const id = ids[0]!;
  // workerd's result names retried messages; the delay each was retried with comes from `delays`.
  expect(result.retryMessages.map((r: { msgId: string }) => r.msgId)).toEqual(delays.map((d) => d.msgId));
  return { result, id, retries: delays };
}

describe("report-jobs settings", () => {
  it("keeps REPORT_JOBS_MAX_RETRIES equal to max_retries of the report-jobs consumer in wrangler.toml", () => {
    consumerSettings("report-jobs", REPORT_JOBS_MAX_RETRIES);
    expect(REPORT_MAX_ATTEMPTS).toBe(REPORT_JOBS_MAX_RETRIES + 1);
  });
});

describe("report-jobs consumer", () => {
  it("saves the whole AI answer, marks the report ready and logs the provider's token counts", async () => {
    const seeded = await seedReport("[fake:ok]");
    const t = testEnv();
    const { result, id } = await job(seeded.id, 1, t.env);

    expect(result.explicitAcks).toEqual([id]);
    expect(result.retryMessages).toEqual([]);
    const row = await readReport(seeded.id);
    expect(row).toMatchObject({ status: "ready", source: "ai", attempts: 1, version: 2, content_generated: 1, last_error: null, seo_potential: 78 });
    expect(row.generated_at).toBeTruthy();
    // The ad and the meta tags are stored too, not rebuilt locally later.
    expect(JSON.parse(row.meta_seo!).title).toContain(seeded.prospect.name);
    expect(JSON.parse(row.perfect_ad!)).toMatchObject({ displayUrl: expect.stringContaining("www."), improvements: expect.any(Array) });
    expect(JSON.parse(row.potential!)).toEqual({ score: 78, keyword_potential: 7.8, business_relevance: 7.4, competition: "Medium" });
    expect(JSON.parse(row.gmb_articles!)).toHaveLength(3);
    expect(JSON.parse(row.blog_structures!)[0].sections).toHaveLength(5);
    const posts = JSON.parse(row.facebook_posts!);
    expect(posts).toHaveLength(3);
    expect(posts[0]).toMatchObject({ author: seeded.prospect.companyName, likes: expect.any(Number), image: expect.any(String) });

    expect(t.usage).toHaveLength(1);
    const event = t.usage[0]!;
    const prompt = buildReportPrompt(toReportProspect(seeded.prospect));
    // The fake's provider counts add per-message framing, so they differ from the plain estimate.
    expect(event).toMatchObject({ tool_name: "SEO Report Generator", user_id: seeded.report.userId, model: env.AI_MODEL_REPORT });
    expect(event.input_tokens).toBe(estimateTokens(prompt) + 4 + 3);
    expect(event.total_tokens).toBe(event.input_tokens + event.output_tokens);
    expect(event.estimated_cost).toBe(costFor(event.model, event.input_tokens, event.output_tokens));
  });

  it("estimates tokens (length / 4, rounded up) when the provider sends no usage", async () => {
    const seeded = await seedReport("[fake:no-usage]");
    const t = testEnv();
    const { result } = await job(seeded.id, 1, t.env);
    expect(result.retryMessages).toEqual([]);
    expect((await readReport(seeded.id)).status).toBe("ready");
    const prompt = buildReportPrompt(toReportProspect(seeded.prospect));
    expect(t.usage[0]!.input_tokens).toBe(estimateTokens(prompt));
  });

  it("retries with the base delay when the AI is slower than the time-out", async () => {
    const seeded = await seedReport("[fake:slow]");
    const t = testEnv();
    const { result, id, retries } = await job(seeded.id, 1, t.env);
    expect(result.explicitAcks).toEqual([]);
    expect(retries).toEqual([{ msgId: id, delaySeconds: 1 }]);
    const row = await readReport(seeded.id);
    expect(row).toMatchObject({ status: "queued", attempts: 1, content_generated: 0, version: 1, source: null });
    expect(row.last_error).toMatch(/timed out|aborted/i);
    expect(t.usage.map((u) => u.tool_name)).toEqual(["SEO Report Generator (Failed)"]);
  });

  it("recovers on the next delivery after a 500", async () => {
    const seeded = await seedReport("[fake:500-then-ok]");
    const t = testEnv();
    const first = await job(seeded.id, 1, t.env);
    expect(first.retries).toEqual([{ msgId: first.id, delaySeconds: 1 }]);
    expect((await readReport(seeded.id)).last_error).toContain("500");

    const second = await job(seeded.id, 2, t.env);
    expect(second.result.explicitAcks).toEqual([second.id]);
    expect(await readReport(seeded.id)).toMatchObject({ status: "ready", source: "ai", attempts: 2, last_error: null, version: 2 });
    expect(t.usage.map((u) => u.tool_name)).toEqual(["SEO Report Generator (Failed)", "SEO Report Generator"]);
  });

  it("backs off exponentially and saves template content on the last attempt when the AI always fails", async () => {
    const seeded = await seedReport("[fake:500]");
    const t = testEnv();
    const delays: number[] = [];
    for (let attempt = 1; attempt < REPORT_MAX_ATTEMPTS; attempt++) {
      const { result, id, retries } = await job(seeded.id, attempt, t.env);
      expect(result.retryMessages).toEqual([{ msgId: id }]);
      delays.push(retries[0]!.delaySeconds!);
      expect((await readReport(seeded.id)).status).toBe("queued");
    }
    expect(delays).toEqual([1, 2, 4, 8]);

    const last = await job(seeded.id, REPORT_MAX_ATTEMPTS, t.env);
    expect(last.result.explicitAcks).toEqual([last.id]);
    expect(last.result.retryMessages).toEqual([]);
    const row = await readReport(seeded.id);
    expect(row).toMatchObject({ status: "ready", source: "template", attempts: 5, content_generated: 1, version: 2 });
    expect(row.last_error).toMatch(/failed 5 times.*500/);
    expect(JSON.parse(row.gmb_articles!)).toHaveLength(3);
    expect(JSON.parse(row.meta_seo!).title).toBeTruthy();
    expect(t.usage).toHaveLength(5);
    expect(t.usage.every((u) => u.tool_name === "SEO Report Generator (Failed)")).toBe(true);
  });

  it.each([
    ["malformed", /malformed JSON/],
    ["schema-invalid", /did not match the report format/],
    ["empty", /^Empty response received from OpenRouter$/],
    ["429", /429/],
  ])("retries when the AI answer is %s", async (scenario, error) => {
    const seeded = await seedReport(`[fake:${scenario}]`);
    const t = testEnv();
    const { result, id, retries } = await job(seeded.id, 1, t.env);
    expect(result.explicitAcks).toEqual([]);
    expect(retries).toEqual([{ msgId: id, delaySeconds: 1 }]);
    const row = await readReport(seeded.id);
    expect(row).toMatchObject({ status: "queued", attempts: 1, content_generated: 0, gmb_articles: null });
    expect(row.last_error).toMatch(error);
    expect(t.usage).toHaveLength(1);
    expect(t.usage[0]!.tool_name).toBe("SEO Report Generator (Failed)");
  });

  it("does the work once when the same message arrives twice in a batch and again later", async () => {
    const seeded = await seedReport("[fake:ok]");
    const t = testEnv();
    const { result, ids } = await deliver(
      "report-jobs",
      [{ body: { reportId: seeded.id } }, { body: { reportId: seeded.id } }],
      t.env,
    );
    expect(result.explicitAcks.sort()).toEqual([...ids].sort());
    expect(result.retryMessages).toEqual([]);
    const after = await readReport(seeded.id);
    expect(after).toMatchObject({ status: "ready", attempts: 1, version: 2 });

    const again = await job(seeded.id, 1, t.env);
    expect(again.result.explicitAcks).toEqual([again.id]);
    expect(await readReport(seeded.id)).toEqual(after);
    expect(t.usage).toHaveLength(1);
  });

  it("acknowledges, without work, a message for a report another consumer is generating", async () => {
    const seeded = await seedReport("[fake:ok]");
    const claimedAt = new Date(Date.now() - 60_000).toISOString();
    await env.DB.prepare("update seo_reports set status = 'generating', claimed_at = ?, attempts = 1 where id = ?")
      .bind(claimedAt, seeded.id)
      .run();
    const t = testEnv();
    const { result, id } = await job(seeded.id, 1, t.env);
    expect(result.explicitAcks).toEqual([id]);
    expect(await readReport(seeded.id)).toMatchObject({ status: "generating", claimed_at: claimedAt, attempts: 1 });
    expect(t.usage).toHaveLength(0);
  });

  it("saves template content at once, and says why, when no AI key is set", async () => {
    const seeded = await seedReport("[fake:ok]");
    const t = testEnv({ AI_API_KEY: "" });
    const { result, id } = await job(seeded.id, 1, t.env);
    expect(result.explicitAcks).toEqual([id]);
    const row = await readReport(seeded.id);
    expect(row).toMatchObject({ status: "ready", source: "template", last_error: AI_NOT_CONFIGURED_REASON, content_generated: 1 });
    expect(JSON.parse(row.facebook_posts!)).toHaveLength(3);
    expect(t.usage).toHaveLength(0);
  });

  it("acknowledges a malformed body or an unknown report instead of retrying forever", async () => {
    const t = testEnv();
    const { result, ids } = await deliver(
      "report-jobs",
      [{ body: { nope: true } }, { body: "text" }, { body: { reportId: crypto.randomUUID() } }],
      t.env,
    );
    expect(result.explicitAcks.sort()).toEqual([...ids].sort());
    expect(result.retryMessages).toEqual([]);
  });
});

describe("report-jobs dead-letter queue", () => {
  it("saves template content for a report that reaches it", async () => {
    const seeded = await seedReport("[fake:500]");
    await env.DB.prepare("update seo_reports set last_error = 'API request failed: 500' where id = ?").bind(seeded.id).run();
    const t = testEnv();
    const { result, ids } = await deliver("report-jobs-dlq", [{ body: { reportId: seeded.id }, attempts: 1 }], t.env);
    expect(result.explicitAcks).toEqual(ids);
    const row = await readReport(seeded.id);
    expect(row).toMatchObject({ status: "ready", source: "template", content_generated: 1, version: 2 });
    expect(row.last_error).toContain("API request failed: 500");
    expect(t.usage).toHaveLength(0);
  });

  it("leaves a ready report alone", async () => {
    const seeded = await seedReport("[fake:ok]");
    const t = testEnv();
    await job(seeded.id, 1, t.env);
    const before = await readReport(seeded.id);
    const { result, ids } = await deliver("report-jobs-dlq", [{ body: { reportId: seeded.id } }], t.env);
    expect(result.explicitAcks).toEqual(ids);
    expect(await readReport(seeded.id)).toEqual(before);
  });
});

describe("the stale-claim sweep (cron)", () => {
  it("re-queues a stale generating claim and an overdue queued report, and leaves fresh ones", async () => {
    const stale = await seedReport("[fake:ok]");
    const fresh = await seedReport("[fake:ok]");
    const overdue = await seedReport("[fake:ok]");
    const waiting = await seedReport("[fake:ok]");
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
    await env.DB.batch([
      env.DB.prepare("update seo_reports set status = 'generating', claimed_at = ?, attempts = 1 where id = ?").bind(minutesAgo(6), stale.id),
      env.DB.prepare("update seo_reports set status = 'generating', claimed_at = ?, attempts = 1 where id = ?").bind(minutesAgo(2), fresh.id),
      env.DB.prepare("update seo_reports set claimed_at = ? where id = ?").bind(minutesAgo(31), overdue.id),
      env.DB.prepare("update seo_reports set claimed_at = ? where id = ?").bind(minutesAgo(10), waiting.id),
    ]);

    const t = testEnv();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), t.env, createExecutionContext());

    const sent = t.jobs.map((j) => j.reportId);
    expect(sent).toContain(stale.id);
    expect(sent).toContain(overdue.id);
    expect(sent).not.toContain(fresh.id);
    expect(sent).not.toContain(waiting.id);
    expect(await readReport(stale.id)).toMatchObject({ status: "queued", attempts: 1 });
    expect((await readReport(fresh.id)).status).toBe("generating");

    // The re-sent message then finishes the report.
    const { result, id } = await job(stale.id, 1, t.env);
    expect(result.explicitAcks).toEqual([id]);
    expect(await readReport(stale.id)).toMatchObject({ status: "ready", source: "ai", attempts: 2 });
  });

  it("lets a consumer take over a stale claim directly when its message arrives first", async () => {
    const seeded = await seedReport("[fake:ok]");
    await env.DB.prepare("update seo_reports set status = 'generating', claimed_at = ?, attempts = 1 where id = ?")
      .bind(new Date(Date.now() - 6 * 60_000).toISOString(), seeded.id)
      .run();
    const t = testEnv();
    const { result, id } = await job(seeded.id, 2, t.env);
    expect(result.explicitAcks).toEqual([id]);
    expect(await readReport(seeded.id)).toMatchObject({ status: "ready", attempts: 2 });
  });
});
