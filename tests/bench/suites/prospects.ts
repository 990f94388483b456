// Prospect figures: a 1,000-row paste imported as the web client sends it (chunks of 100), and list/search
// latency at 10,000 prospects, each beside a one-row read (GET /api/profile) measured in the same run.
import { interleaved, json, percentile, round, signUp, timeSequential, type Figure, type Suite } from "../lib";

const CHUNK = 100;
const TARGET_PROSPECTS = 10_000;
const SAMPLES = 100;

const TRADES = [
  "Roof repair and replacement",
  "Emergency plumbing",
  "HVAC installation and heating repair",
  "Landscape design and lawn care",
  "Residential electrical services",
  "House cleaning service",
  "Interior and exterior painting",
  "Hardwood floor refinishing",
  "Pest and termite control",
  "Custom deck and patio builder",
];
const TOWNS = ["Austin, TX", "Denver, CO", "Portland, OR", "Tampa, FL", "Raleigh, NC", "Boise, ID", "Madison, WI", "Tucson, AZ"];

/** Pasted rows in the spec's format; `from` keeps names unique across calls. */
function pasteRows(count: number, from: number, tag: string): string {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return [
      TRADES[i % TRADES.length],
      `${tag} Prospect ${i}`,
      TOWNS[i % TOWNS.length],
      `(512) 555-${String(i % 10_000).padStart(4, "0")}`,
      `owner${i}@${tag.toLowerCase()}.test`,
      "Pat Lee",
    ].join("\t");
  }).join("\n");
}

async function adminSession(baseUrl: string, email: string) {
  try {
    return await signUp(baseUrl, email);
  } catch {
    const res = await fetch(`${baseUrl}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.9.9.9" },
      body: JSON.stringify({ email, password: "correct-horse-battery" }),
    });
    return (await json(res)) as { access_token: string };
  }
}

export const prospectsSuite: Suite = {
  name: "prospects",
  async run({ baseUrl, adminEmail }) {
    const { access_token } = await adminSession(baseUrl, adminEmail);
    const headers = { Authorization: `Bearer ${access_token}`, "Content-Type": "application/json" };
    const tag = `B${Date.now().toString(36)}`;

    async function importText(text: string, startRow = 1) {
      const res = await fetch(`${baseUrl}/api/prospects/import`, {
        method: "POST",
        headers,
        body: JSON.stringify({ text, startRow, allowDuplicates: true }),
      });
      const body = (await json(res)) as { created?: unknown[]; error?: unknown };
      if (res.status !== 200 || !body.created) throw new Error(`import answered ${res.status}: ${JSON.stringify(body)}`);
      return body.created.length;
    }
    async function get(path: string) {
      const res = await fetch(`${baseUrl}${path}`, { headers });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      await res.arrayBuffer();
    }

    // Baseline: one authenticated one-row read.
    for (let i = 0; i < 10; i++) await get("/api/profile");
    const baseline = await timeSequential(SAMPLES, () => get("/api/profile"));

    // 1,000 pasted rows, as the web client sends them: ten sequential requests of 100 rows.
    const paste = pasteRows(1_000, 0, tag).split("\n");
    const t0 = performance.now();
    let created = 0;
    for (let i = 0; i < paste.length; i += CHUNK) created += await importText(paste.slice(i, i + CHUNK).join("\n"), i + 1);
    const importMs = performance.now() - t0;
    if (created !== 1_000) throw new Error(`imported ${created} of 1,000 rows`);

    // The same 1,000 rows in one request (the server's limit is 2,000).
    const t1 = performance.now();
    await importText(pasteRows(1_000, 1_000, tag));
    const oneRequestMs = performance.now() - t1;

    // The original client: two sequential round trips per row. One-row requests stand in for them.
    const oneRow = await timeSequential(20, (i) => importText(pasteRows(1, 2_000 + i, tag)).then(() => undefined));
    const originalEstimateMs = 2 * 1_000 * percentile(oneRow, 50);

    // Fill up to 10,000 prospects in 1,000-row requests.
    const countRes = (await json(await fetch(`${baseUrl}/api/prospects?limit=1`, { headers }))) as { all: number };
    let have = countRes.all;
    let next = 3_000;
    while (have < TARGET_PROSPECTS) {
      const n = Math.min(1_000, TARGET_PROSPECTS - have);
      have += await importText(pasteRows(n, next, tag));
      next += n;
    }

    const queries: [string, string][] = [
      ["list, first page of 60", "/api/prospects"],
      ["list, page 2 (cursor)", ""],
      ["search FTS5 trigram, common ('roof', ~1,000 hits)", "/api/prospects?q=roof"],
      ["search FTS5 trigram, one hit (a name)", `/api/prospects?q=${encodeURIComponent(`${tag} prospect 4242`)}`],
      ["search FTS5 trigram, no hit", "/api/prospects?q=zzqqxx"],
      ["search 2 chars (LIKE scan fallback)", "/api/prospects?q=zq"],
    ];
    const first = (await json(await fetch(`${baseUrl}/api/prospects`, { headers }))) as { nextCursor: string; all: number };
    queries[1]![1] = `/api/prospects?cursor=${first.nextCursor}`;

    const base50 = percentile(baseline, 50);
    const base95 = percentile(baseline, 95);
    // Import figures are compared with the baseline measured before the import.
    const figures: Figure[] = [
      { name: "one-row read baseline (GET /api/profile) p50", value: round(base50), unit: "ms", note: `${SAMPLES} sequential` },
      { name: "one-row read baseline p95", value: round(base95), unit: "ms" },
      { name: "import 1,000 pasted rows (10 × 100-row requests), total", value: round(importMs, 0), unit: "ms", note: "as the web client sends them" },
      { name: "import, per row", value: round(importMs / 1_000, 3), unit: "ms/row" },
      { name: "import 1,000 rows in one request", value: round(oneRequestMs, 0), unit: "ms" },
      { name: "original client estimate (2 × 1,000 sequential one-row round trips)", value: round(originalEstimateMs, 0), unit: "ms", note: `2,000 × one-row import p50 ${round(percentile(oneRow, 50))} ms` },
      { name: "import speed-up vs original estimate", value: round(originalEstimateMs / importMs, 1), unit: "×" },
    ];
    for (const [name, path] of queries) {
      for (let i = 0; i < 5; i++) await get(path);
      // Interleaved with the baseline, so both see the same (shared, noisy) machine.
      const [times, base] = await interleaved(SAMPLES, () => get(path), () => get("/api/profile"));
      const p50 = percentile(times, 50);
      const p95 = percentile(times, 95);
      figures.push(
        { name: `${name} at ${first.all.toLocaleString("en-US")} prospects p50`, value: round(p50), unit: "ms", note: `${SAMPLES} sequential` },
        { name: `${name} p95`, value: round(p95), unit: "ms" },
        {
          name: `${name} p50 / one-row read p50`,
          value: round(p50 / percentile(base, 50)),
          unit: "×",
          note: `one-row read p50 ${round(percentile(base, 50))} ms in the same loop`,
        },
      );
    }
    const tCsv = performance.now();
    await get("/api/prospects/export.csv");
    figures.push({ name: `CSV export of all ${first.all.toLocaleString("en-US")} prospects`, value: round(performance.now() - tCsv, 0), unit: "ms" });
    return figures;
  },
};
