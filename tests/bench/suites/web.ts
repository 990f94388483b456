// Page figures: Lighthouse performance and accessibility (mobile, offline, Debian's Chromium) and JavaScript bytes
// for the landing page, the app shell and the shared report.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { adminToken, json, round, type Figure, type Suite } from "../lib";

const LIGHTHOUSE = "lighthouse@12.2.3"; // the last major that runs on Node 20
const CHROME = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export type LighthouseResult = { score: number; accessibility: number; lcpMs: number; jsBytes: number };

/** Lighthouse mobile (simulated throttling) on one URL; the client report's suite uses it too. */
export function lighthouse(url: string): LighthouseResult | { error: string } {
  const r = spawnSync(
    "npx",
    [
      "--yes",
      LIGHTHOUSE,
      url,
      "--quiet",
      "--output=json",
      "--output-path=stdout",
      "--only-categories=performance,accessibility",
      "--chrome-flags=--headless --no-sandbox --disable-gpu --disable-background-networking",
    ],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env: { ...process.env, CHROME_PATH: CHROME } },
  );
  if (r.status !== 0) return { error: (r.stderr || r.stdout).split("\n").filter((l) => !l.startsWith("npm warn")).join(" ").slice(0, 400) };
  const lhr = JSON.parse(r.stdout);
  const items: Array<{ resourceType: string; transferSize: number }> =
    lhr.audits["network-requests"]?.details?.items ?? [];
  return {
    score: Math.round(lhr.categories.performance.score * 100),
    accessibility: Math.round(lhr.categories.accessibility.score * 100),
    lcpMs: lhr.audits["largest-contentful-paint"].numericValue,
    jsBytes: items.filter((i) => i.resourceType === "Script").reduce((n, i) => n + i.transferSize, 0),
  };
}

/** Gzipped size of an HTML entry's scripts and everything they import up front (from the Vite build). */
function entryJsGzip(page = "index.html"): number {
  const html = readFileSync(join("dist/client", page), "utf8");
  const files = new Set<string>();
  for (const m of html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)) files.add(m[1]!);
  let total = 0;
  for (const f of files) total += gzipSync(readFileSync(join("dist/client/assets", f))).length;
  return total;
}

/** Gzipped size of every script the server-rendered shared page loads (the tags of dist/client/shared-report.html). */
function sharedPageJsGzip(): number {
  const html = readFileSync("dist/client/shared-report.html", "utf8");
  let total = 0;
  for (const m of html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)) total += gzipSync(readFileSync(join("dist/client/assets", m[1]!))).length;
  return total;
}

async function sharedReportUrl(baseUrl: string, adminEmail: string): Promise<string> {
  const token = await adminToken(baseUrl, adminEmail);
  const created = await json(
    await fetch(`${baseUrl}/api/reports`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: "Lighthouse Roofing",
        area: "Austin, TX",
        keyword: "roofer in austin",
        description: "Roof repair and replacement",
        category: "Roofing",
        generate: true,
      }),
    }),
  );
  const id = created.report.id as string;
  for (let i = 0; i < 100; i++) {
    const s = await json(await fetch(`${baseUrl}/api/shared/reports/${id}`));
    if (s.report?.status === "ready") break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return `${baseUrl}/shared/reports/${id}`;
}

export const webSuite: Suite = {
  name: "web",
  async run({ baseUrl, adminEmail }) {
    const figures: Figure[] = [
      { name: "app shell initial JS (gzip)", value: round(entryJsGzip() / 1024, 1), unit: "KB", note: "index.html's scripts; target ≤ 150" },
      { name: "landing page JS (gzip)", value: round(entryJsGzip("landing.html") / 1024, 1), unit: "KB", note: "landing.html's scripts; target ≤ 50" },
      { name: "shared report page JS (gzip)", value: round(sharedPageJsGzip() / 1024, 1), unit: "KB", note: "its own script and imports; target ≤ 15 KB" },
    ];
    const pages = [
      ["landing", `${baseUrl}/`],
      ["shared report", await sharedReportUrl(baseUrl, adminEmail)],
    ] as const;
    for (const [name, url] of pages) {
      const r = lighthouse(url);
      if ("error" in r) {
        figures.push({ name: `Lighthouse ${name}`, value: NaN, unit: "score", note: `not measured: ${r.error}` });
        continue;
      }
      figures.push(
        { name: `Lighthouse performance, ${name}`, value: r.score, unit: "score", note: "mobile, simulated throttling" },
        { name: `Lighthouse accessibility, ${name}`, value: r.accessibility, unit: "score" },
        { name: `LCP, ${name}`, value: round(r.lcpMs, 0), unit: "ms", note: name === "landing" ? "target < 1500" : undefined },
        { name: `JS transferred, ${name}`, value: round(r.jsBytes / 1024, 1), unit: "KB" },
      );
    }
    return figures;
  },
};
