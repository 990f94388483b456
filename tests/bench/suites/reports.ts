// Report figures: 100 reports through the report-jobs queue against the fake AI (300 ms per answer), and
// shared-report requests/s served from the edge cache against the same route with the cache bypassed —
// through `wrangler dev` and, as BENCH.md advises, through Miniflare directly (no proxy in front).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Miniflare } from "miniflare";
import { templateReportContent } from "../../../worker/features/reports/rules/template";
import { STATUS_POLL_MS } from "../../../worker/features/reports/rules/status";
import { buildReportPrompt, REPORT_MAX_TOKENS, REPORT_TEMPERATURE } from "../../../worker/features/reports/rules/prompt";
import { adminToken, json, percentile, requestsPerSecond, round, timeSequential, queueConsumer, type Figure, type Suite } from "../lib";

const REPORTS = 100;
/** Reports generated one at a time after the batch run. */
const ALONE = 12;
/** The fake AI's added latency in `npm run bench` (tests/bench/run.ts). */
const AI_LATENCY_MS = 300;
/** Issue 26: a report's overhead beyond the AI (claim → saved), p50. */
const OVERHEAD_TARGET_MS = 30;

type Status = { id: string; status: string; source: string | null; claimed_at: string | null; generated_at: string | null };

/** The development-only flag that skips the edge cache (wantsCacheBypass in worker/features/reports/shared-cache.ts); a client's no-cache no longer does. */
function bypassUrl(url: string): string {
  const u = new URL(url);
  u.searchParams.set("cache", "bypass");
  return u.toString();
}

type SharedRates = { bare: number; cached: number; uncached: number; revalidated: number };

/** Loads `url` twice so the edge cache holds it (the second load must be a hit); its ETag, for the 304 runs. */
async function primedEtag(url: string): Promise<string> {
  const first = await fetch(url);
  const etag = first.headers.get("ETag")!;
  await first.arrayBuffer();
  const probe = await fetch(url);
  await probe.arrayBuffer();
  if (probe.headers.get("X-Cache") !== "HIT") throw new Error(`expected a cache hit at ${url}, got ${probe.headers.get("X-Cache")}`);
  return etag;
}

/** Bare route, cache hit, cache bypassed and 304 for one shared report URL (autocannon, median of 3). */
async function sharedRates(origin: string, url: string): Promise<SharedRates> {
  const etag = await primedEtag(url);
  const bare = await requestsPerSecond(`${origin}/auth/v1/health`);
  const cached = await requestsPerSecond(url);
  const uncached = await requestsPerSecond(bypassUrl(url));
  const revalidated = await requestsPerSecond(url, { headers: { "If-None-Match": etag } });
  if (cached.non2xx || uncached.non2xx) throw new Error("shared report answered non-2xx under load");
  return { bare: bare.rps, cached: cached.rps, uncached: uncached.rps, revalidated: revalidated.rps };
}

/** The server-rendered page (GET /shared/reports/:id): cache hit, bypass and 304 against the bare route. */
async function pageRates(origin: string, url: string, bare: number): Promise<SharedRates> {
  const etag = await primedEtag(url);
  const cached = await requestsPerSecond(url);
  const uncached = await requestsPerSecond(bypassUrl(url));
  const revalidated = await requestsPerSecond(url, { headers: { "If-None-Match": etag } });
  if (cached.non2xx || uncached.non2xx) throw new Error("shared page answered non-2xx under load");
  return { bare, cached: cached.rps, uncached: uncached.rps, revalidated: revalidated.rps };
}

function pageFigures(r: SharedRates, where: string): Figure[] {
  return [
    { name: `shared page (HTML), edge cache hit, ${where}`, value: round(r.cached, 0), unit: "req/s", note: "server-rendered report, Cache API" },
    { name: `shared page (HTML), cache bypassed, ${where}`, value: round(r.uncached, 0), unit: "req/s", note: "D1 reads + React renderToStaticMarkup" },
    { name: `shared page (HTML), If-None-Match → 304, ${where}`, value: round(r.revalidated, 0), unit: "req/s" },
    { name: `shared page cached / uncached, ${where}`, value: round(r.cached / r.uncached), unit: "×" },
    { name: `shared page cached / bare route, ${where}`, value: round(r.cached / r.bare), unit: "×", note: "target ≥ 0.5×" },
  ];
}

function sharedFigures(r: SharedRates, where: string): Figure[] {
  return [
    { name: `bare route (GET /auth/v1/health), ${where}`, value: round(r.bare, 0), unit: "req/s", note: "autocannon, 2 connections, median of 3" },
    { name: `shared report, edge cache hit, ${where}`, value: round(r.cached, 0), unit: "req/s", note: "version trusted per isolate for 5 s, then Cache API" },
    { name: `shared report, cache bypassed, ${where}`, value: round(r.uncached, 0), unit: "req/s", note: "?cache=bypass (development only): version + report/prospect + sender reads" },
    { name: `shared report, If-None-Match → 304, ${where}`, value: round(r.revalidated, 0), unit: "req/s" },
    { name: `shared report cached / uncached, ${where}`, value: round(r.cached / r.uncached), unit: "×" },
    { name: `shared report cached / bare route, ${where}`, value: round(r.cached / r.bare), unit: "×" },
  ];
}

/**
 * The built worker in Miniflare with an in-memory D1 (the real migrations) and one ready report of
 * template content: the shared route without wrangler dev's proxy.
 */
async function sharedRatesThroughMiniflare(): Promise<{ json: SharedRates; page: SharedRates }> {
  const outdir = mkdtempSync(join(tmpdir(), "porchlight-bench-"));
  try {
    const build = spawnSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outdir], { encoding: "utf8", env: { ...process.env, CI: "true" } });
    if (build.status !== 0) throw new Error(`worker build failed:\n${build.stdout}\n${build.stderr}`);
    const mf = new Miniflare({
      scriptPath: join(outdir, "index.js"),
      modules: true,
      modulesRoot: outdir,
      compatibilityDate: "2026-04-20",
      compatibilityFlags: ["nodejs_compat"],
      // The card renderer's font (wrangler.toml [[rules]]); .wasm is compiled by default.
      modulesRules: [
        { type: "Data", include: ["**/*.ttf"] },
        { type: "CompiledWasm", include: ["**/*.wasm"] },
      ],
      d1Databases: { DB: "bench-db" },
      queueProducers: { REPORT_JOBS: "report-jobs", USAGE_EVENTS: "usage-events" },
      bindings: { ENVIRONMENT: "development", JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123" },
      host: "127.0.0.1",
      port: 0,
    });
    try {
      const origin = (await mf.ready).origin;
      const db = await mf.getD1Database("DB");
      for (const file of readdirSync("migrations").filter((f) => f.endsWith(".sql")).sort()) {
        const statements = readFileSync(join("migrations", file), "utf8")
          .split("--> statement-breakpoint")
          .map((sql) => sql.trim())
          .filter(Boolean);
        await db.batch(statements.map((sql) => db.prepare(sql)));
      }
      const prospect = { name: "Bench Roofing", company_name: "Bench Roofing LLC", description: "Roof repair and replacement", area: "Austin, TX", keyword: "roofer in austin", tag: "Roofing" };
      const c = templateReportContent(prospect);
      const prospectId = crypto.randomUUID();
      const reportId = crypto.randomUUID();
      await db.batch([
        db
          .prepare("insert into prospects (id, name, company_name, description, area, keyword, tag, phone) values (?, ?, ?, ?, ?, ?, ?, ?)")
          .bind(prospectId, prospect.name, prospect.company_name, prospect.description, prospect.area, prospect.keyword, prospect.tag, "15125550100"),
        db
          .prepare(
            `insert into seo_reports (id, prospect_id, content_generated, status, source, version, seo_potential, potential,
               meta_seo, perfect_ad, gmb_articles, blog_structures, facebook_posts, generated_at)
             values (?, ?, 1, 'ready', 'template', 2, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .bind(
            reportId,
            prospectId,
            c.seoPotential.score,
            JSON.stringify(c.seoPotential),
            JSON.stringify(c.metaSEO),
            JSON.stringify(c.perfectAd),
            JSON.stringify(c.gmbArticles),
            JSON.stringify(c.blogStructures),
            JSON.stringify(c.facebookPosts),
            new Date().toISOString(),
          ),
      ]);
      const json = await sharedRates(origin, `${origin}/api/shared/reports/${reportId}`);
      const page = await pageRates(origin, `${origin}/shared/reports/${reportId}`, json.bare);
      return { json, page };
    } finally {
      await mf.dispose();
    }
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * The fake AI's own time beyond its 300 ms for a report (the worker's prompt, JSON mode), asked straight from Node as
 * many at once as the consumer asks: the provider's time, as the chat suite measures the fake AI's first token.
 */
async function directAiOverheads(aiUrl: string, atOnce: number): Promise<number[]> {
  const prompt = buildReportPrompt({ name: "Bench Roofing 0", description: "Roof repair and replacement", area: "Austin, TX", keyword: "roofer in austin" });
  const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: prompt }], max_tokens: REPORT_MAX_TOKENS, temperature: REPORT_TEMPERATURE, response_format: { type: "json_object" } });
  const out: number[] = [];
  for (let round = 0; round < 9; round++) {
    const times = await Promise.all(
      Array.from({ length: atOnce }, async () => {
        const t0 = performance.now();
        const res = await fetch(`${aiUrl}/chat/completions`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer fake-key" }, body });
        await res.json();
        if (!res.ok) throw new Error(`the fake AI answered ${res.status}`);
        return performance.now() - t0 - AI_LATENCY_MS;
      }),
    );
    if (round > 0) out.push(...times);
  }
  return out.sort((a, b) => a - b);
}

/** `count` drafts (Save Only) for the bench's roofer; their ids. */
async function createDrafts(baseUrl: string, headers: Record<string, string>, count: number, name: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${baseUrl}/api/reports`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: `${name} ${i}`, area: "Austin, TX", keyword: "roofer in austin", description: "Roof repair and replacement", phone: "(512) 555-0100", generate: false }),
    });
    const body = await json(res);
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(body)}`);
    ids.push(body.report.id);
  }
  return ids;
}

/**
 * Reports generated one at a time (each waited for before the next is sent): a report's overhead when it does not
 * share the local thread with the rest of its batch (`wrangler dev` runs the consumer, D1 and the queue on one).
 */
async function overheadsAlone(baseUrl: string, headers: Record<string, string>, providerMs: number): Promise<number[]> {
  const out: number[] = [];
  for (const id of await createDrafts(baseUrl, headers, ALONE, "Bench Roofing alone")) {
    const res = await fetch(`${baseUrl}/api/reports/${id}/generate`, { method: "POST", headers });
    if (res.status !== 202) throw new Error(`generate answered ${res.status}`);
    await res.arrayBuffer();
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [s] = (await json(await fetch(`${baseUrl}/api/reports/status?ids=${id}`, { headers }))).statuses as Status[];
      if (s?.status === "ready") {
        out.push(Date.parse(s.generated_at!) - Date.parse(s.claimed_at!) - AI_LATENCY_MS - providerMs);
        break;
      }
      if (Date.now() > deadline) throw new Error(`report ${id} not ready after 30 s: ${s?.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return out.sort((a, b) => a - b);
}

export const reportsSuite: Suite = {
  name: "reports",
  async run({ baseUrl, adminEmail, aiUrl }) {
    if (!aiUrl) throw new Error("the reports suite needs the fake AI's URL");
    const token = await adminToken(baseUrl, adminEmail);
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const atOnce = queueConsumer("report-jobs").batch;
    const direct = await directAiOverheads(aiUrl, atOnce);
    const providerMs = percentile(direct, 50);

    // 100 drafts (Save Only), then one "Generate all reports" puts them all on the queue at once.
    const ids = await createDrafts(baseUrl, headers, REPORTS, "Bench Roofing");

    const t0 = Date.now();
    const queued = await json(await fetch(`${baseUrl}/api/reports/generate-all`, { method: "POST", headers }));
    if (queued.queued < REPORTS) throw new Error(`generate-all queued ${queued.queued}`);
    let statuses: Status[];
    const deadline = Date.now() + 180_000;
    for (;;) {
      const res = await fetch(`${baseUrl}/api/reports/status?ids=${ids.join(",")}`, { headers });
      statuses = (await json(res)).statuses;
      if (statuses.length === REPORTS && statuses.every((s) => s.status === "ready")) break;
      if (Date.now() > deadline) {
        const counts = statuses.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s.status]: (acc[s.status] ?? 0) + 1 }), {});
        throw new Error(`not all ready after 180 s: ${JSON.stringify(counts)}`);
      }
      await new Promise((r) => setTimeout(r, STATUS_POLL_MS));
    }
    const totalMs = Math.max(...statuses.map((s) => Date.parse(s.generated_at!))) - t0;
    const fromAi = statuses.filter((s) => s.source === "ai").length;
    // Per report: claim → saved, minus the fake AI's own time (its 300 ms and what it adds, asked directly) = the
    // consumer's own work (the claim with the reservation, the HTTP round trip, parse, validate, save).
    const overhead = statuses
      .map((s) => Date.parse(s.generated_at!) - Date.parse(s.claimed_at!) - AI_LATENCY_MS - providerMs)
      .sort((a, b) => a - b);

    // Shared report: cached (edge cache hit) vs the same request with the development ?cache=bypass flag (no cache).
    // The same run's bare route latency, the scale for the overhead on a machine of another speed.
    const alone = await overheadsAlone(baseUrl, headers, percentile(await directAiOverheads(aiUrl, 1), 50));
    const bare = await timeSequential(40, async () => void (await (await fetch(`${baseUrl}/auth/v1/health`)).text()));
    const bare50 = percentile(bare, 50);
    const over50 = percentile(overhead, 50);

    const viaDev = await sharedRates(baseUrl, `${baseUrl}/api/shared/reports/${ids[0]!}`);
    const pageViaDev = await pageRates(baseUrl, `${baseUrl}/shared/reports/${ids[0]!}`, viaDev.bare);
    const viaMiniflare = await sharedRatesThroughMiniflare();

    return [
      { name: `${REPORTS} reports through the queue, all ready`, value: round(totalMs / 1000), unit: "s", note: `${fromAi}/${REPORTS} AI content; fake AI 300 ms/answer; sent → the last saved (its record), polled every ${STATUS_POLL_MS} ms as the Prospects screen does` },
      { name: "queue throughput", value: round(REPORTS / (totalMs / 1000)), unit: "reports/s" },
      {
        name: "per-report overhead beyond the AI, p50",
        value: round(over50),
        unit: "ms",
        note: `claimed_at → generated_at minus the AI as asked directly (300 ms + ${round(providerMs, 1)} ms); target ≤ ${OVERHEAD_TARGET_MS} ms (the claim and the reservation in one batch, the save beside the settle)`,
      },
      { name: "fake AI asked directly for a report, p50 beyond its 300 ms", value: round(providerMs, 1), unit: "ms", note: `${direct.length} calls from Node, ${atOnce} at once (the consumer's batch): the provider's own time` },
      { name: "per-report overhead beyond the AI, p95", value: round(percentile(overhead, 95)), unit: "ms" },
      {
        name: "per-report overhead beyond the AI, one report at a time, p50",
        value: round(percentile(alone, 50)),
        unit: "ms",
        note: `${ALONE} reports, each sent when the one before was ready (the AI asked directly one at a time taken off): a report not sharing wrangler dev's one thread with the rest of its batch; target ≤ ${OVERHEAD_TARGET_MS} ms`,
      },
      { name: "bare route latency p50 (GET /auth/v1/health), wrangler dev", value: round(bare50, 1), unit: "ms", note: "40 sequential, after the queue run" },
      { name: "per-report overhead p50 / bare route p50", value: round(over50 / bare50), unit: "×" },
      ...sharedFigures(viaDev, "wrangler dev"),
      ...pageFigures(pageViaDev, "wrangler dev"),
      ...sharedFigures(viaMiniflare.json, "Miniflare direct"),
      ...pageFigures(viaMiniflare.page, "Miniflare direct"),
    ];
  },
};
