// `npm run bench`: starts the local worker (what `wrangler dev` serves, tests/e2e/dev-server.ts) with fakes, runs every suite, prints a table, writes results.json.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { aiEngineVars, startFakes } from "../fakes";
import { buildWeb, startDevServer } from "../e2e/dev-server";
import { authSuite } from "./suites/auth";
import { reportsSuite } from "./suites/reports";
import { prospectsSuite } from "./suites/prospects";
import { webSuite } from "./suites/web";
import { usageSuite } from "./suites/usage";
import { chatSuite, CHAT_FIRST_TOKEN_MS } from "./suites/chat";
import { auditsSuite } from "./suites/audits";
import { contentSuite } from "./suites/content";
import { rankSuite } from "./suites/rank";
import { leadsSuite } from "./suites/leads";
import { citationsSuite } from "./suites/citations";
import { reviewsSuite } from "./suites/reviews";
import { aiVisibilitySuite } from "./suites/ai-visibility";
import { clientReportsSuite } from "./suites/client-reports";
import { commandCenterSuite } from "./suites/command-center";
import { dropStaleSockets, type BenchContext, type Figure, type Suite } from "./lib";

const suites: Suite[] = [authSuite, reportsSuite, prospectsSuite, webSuite, usageSuite, chatSuite, auditsSuite, contentSuite, rankSuite, leadsSuite, citationsSuite, reviewsSuite, aiVisibilitySuite, clientReportsSuite, commandCenterSuite];

async function main() {
  const only = process.argv.slice(2);
  const fakes = await startFakes({ services: ["ai", "search", "pagespeed", "website", "dns", "aiEngines"], aiLatencyMs: 300, aiFirstTokenMs: CHAT_FIRST_TOKEN_MS });
  // The usage suite times the fake directly, to tell the worker's share of a post generation.
  process.env.BENCH_AI_URL = fakes.ai.url;
  // The audits suite sets the search and PageSpeed fakes' latency and 429 share, and audits the fake website.
  process.env.BENCH_SEARCH_URL = fakes.search!.url;
  process.env.BENCH_PAGESPEED_URL = fakes.pagespeed!.url;
  process.env.BENCH_SITE_URL = fakes.website!.url;
  // AI Visibility's suite sets the engines' latency (POST /__config {latencyMs} here, {aiLatencyMs} on the search fake).
  process.env.BENCH_AI_ENGINES_URL = fakes.aiEngines!.url;
  buildWeb();
  const vars: Record<string, string> = {
    ENVIRONMENT: "development",
    JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    ADMIN_EMAILS: "bench-admin@agency.test",
    AI_API_KEY: "fake-key",
    AI_BASE_URL: fakes.ai.url,
    REPORT_RETRY_BASE_SECONDS: "1",
    SERPAPI_KEY: "fake-key",
    SERPAPI_BASE_URL: fakes.search!.url,
    PAGESPEED_BASE_URL: fakes.pagespeed!.url,
    AUDIT_ALLOW_LOOPBACK: "1",
    // The rank suite makes some 4,000 searches (1,000 keywords checked twice, map and organic): above the default
    // daily ceiling ($25), which would refuse the rest (stored as failed checks) and measure the meter instead.
    SPEND_CEILING_DAILY_USD: "500",
    // The citations suite: listing pages from the fake directory web, their hosts looked up by the fake resolver
    // (the fetch guard resolves every name first; nothing leaves loopback).
    CITATIONS_WEB_BASE_URL: `${fakes.search!.url}/dir`,
    DNS_RESOLVER_URL: fakes.dns!.resolverUrl,
    // AI Visibility's engines against their fake (Google's two are the search fake).
    ...aiEngineVars(fakes.aiEngines!.url),
  };
  // The citations suite starts a second server with these and a libSQL store, to count a scan's queries.
  process.env.BENCH_SERVER_VARS = JSON.stringify(vars);
  const server = await startDevServer({ port: Number(process.env.BENCH_PORT ?? 8798), state: process.env.BENCH_STATE ?? ".e2e/bench-state", vars, logs: "all" });
  // BENCH_DEBUG: the server's output kept in a file as it runs (a stalled queue can be read while it stalls).
  const dump = process.env.BENCH_DEBUG ? setInterval(() => writeFileSync("/tmp/bench-server.log", server.output()), 5000) : null;
  const ctx: BenchContext = { baseUrl: server.baseUrl, adminEmail: "bench-admin@agency.test", aiUrl: fakes.ai.url };
  const figures: Figure[] = [];
  try {
    for (const suite of suites) {
      if (only.length && !only.includes(suite.name)) continue;
      console.log(`\n▶ ${suite.name}`);
      await dropStaleSockets(server.baseUrl);
      const out = await suite.run(ctx);
      figures.push(...out);
      for (const f of out) console.log(`  ${f.name}: ${f.value} ${f.unit}${f.note ? `  (${f.note})` : ""}`);
    }
  } finally {
    if (dump) {
      clearInterval(dump);
      writeFileSync("/tmp/bench-server.log", server.output());
    }
    await server.stop();
    await fakes.close();
  }
  console.log("\n| figure | value | unit | note |\n|---|---|---|---|");
  for (const f of figures) console.log(`| ${f.name} | ${f.value} | ${f.unit} | ${f.note ?? ""} |`);
  // A run of some suites (`npm run bench -- chat`) replaces their figures and keeps the others' from the last run.
  let kept: (Figure & { measuredAt?: string })[] = [];
  const measuredAt = new Date().toISOString();
  if (only.length && existsSync("tests/bench/results.json")) {
    const last = JSON.parse(readFileSync("tests/bench/results.json", "utf8")) as { measuredAt: string; figures: (Figure & { measuredAt?: string })[] };
    const fresh = new Set(figures.map((f) => f.name));
    kept = last.figures.filter((f) => !fresh.has(f.name)).map((f) => ({ ...f, measuredAt: f.measuredAt ?? last.measuredAt }));
  }
  const result = {
    measuredAt,
    machine: { cpus: (await import("node:os")).cpus().length, node: process.version },
    server: "local workerd behind wrangler's proxy (wrangler's API, inspector off), local D1",
    figures: [...kept, ...figures.map((f) => (kept.length ? { ...f, measuredAt } : f))],
  };
  writeFileSync("tests/bench/results.json", JSON.stringify(result, null, 2));
  console.log("\nSaved tests/bench/results.json");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
