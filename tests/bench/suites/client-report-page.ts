// The monthly client report's delivery (issue 30): the PDF's size and the time to make it (in the worker on first
// request, and the writer alone in Node), a stored PDF's time, and the page's Lighthouse mobile score and LCP
// (targets 100 and ≤ 1.2 s, as the shared report). Reports are stored rows with the tests' payload (the builder is
// another suite's), written into the dev server's local D1.
import { performance } from "node:perf_hooks";
import { run } from "../../e2e/dev-server";
import { clientReportPdf } from "../../../worker/features/client-reports/pdf";
import { DEFAULT_BRAND, publicBrand } from "../../../worker/platform/brand/rules/brand";
import { clientReportPayload } from "../../worker/client-reports/client-report-payload";
import { dropStaleSockets, percentile, round, signUp, type Figure, type Suite } from "../lib";
import { lighthouse } from "./web";

const STATE = process.env.BENCH_STATE ?? ".e2e/bench-state";
const REPORTS = 10;

const sql = (v: string) => `'${v.replace(/'/g, "''")}'`;

/** `n` ready reports of one new business user, straight into the server's database; their share tokens. */
export async function seedClientReports(baseUrl: string, n: number, state = STATE): Promise<string[]> {
  const user = await signUp(baseUrl, `client-report-${Date.now().toString(36)}@example.test`);
  const payload = JSON.stringify(clientReportPayload());
  const tokens: string[] = [];
  const statements: string[] = [];
  for (let i = 0; i < n; i++) {
    const token = crypto.randomUUID().replace(/-/g, "") + crypto.randomUUID().replace(/-/g, "").slice(0, 8);
    const month = `${2000 + i}-10`;
    tokens.push(token);
    statements.push(
      `insert into client_reports (id, user_id, month, status, version, share_token, payload, built_at) values (${sql(crypto.randomUUID())}, ${sql(user.user.id)}, ${sql(month)}, 'ready', 1, ${sql(token)}, ${sql(payload)}, '2026-11-01T06:12:00.000Z');`,
    );
  }
  run("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", state, "--command", statements.join(" ")]);
  await dropStaleSockets(baseUrl);
  return tokens;
}

async function timedFetch(url: string): Promise<{ ms: number; bytes: number; made: string | null }> {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = new Uint8Array(await res.arrayBuffer());
  if (!res.ok) throw new Error(`${url} → ${res.status}`);
  return { ms: performance.now() - t0, bytes: body.byteLength, made: res.headers.get("X-Pdf") };
}

export const clientReportPageSuite: Suite = {
  name: "client-report-page",
  async run({ baseUrl }) {
    const figures: Figure[] = [];
    // The writer alone, in Node: the same payload and the product's own brand.
    const payload = clientReportPayload();
    const brand = { ...publicBrand(DEFAULT_BRAND), logo: null };
    const local: number[] = [];
    let size = 0;
    for (let i = 0; i < REPORTS; i++) {
      const t0 = performance.now();
      size = (await clientReportPdf(payload, brand)).byteLength;
      local.push(performance.now() - t0);
    }
    local.sort((a, b) => a - b);

    const tokens = await seedClientReports(baseUrl, REPORTS);
    const made: number[] = [];
    const stored: number[] = [];
    for (const token of tokens) {
      const first = await timedFetch(`${baseUrl}/shared/client-reports/${token}.pdf`);
      if (first.made !== "MADE") throw new Error(`first PDF request was ${first.made}`);
      made.push(first.ms);
      stored.push((await timedFetch(`${baseUrl}/shared/client-reports/${token}.pdf`)).ms);
    }
    made.sort((a, b) => a - b);
    stored.sort((a, b) => a - b);
    figures.push(
      { name: "client report PDF size", value: round(size / 1024, 1), unit: "KB", note: "every section, 5×5 grids, no logo" },
      { name: "client report PDF written (Node, p50)", value: round(percentile(local, 50), 1), unit: "ms", note: "clientReportPdf alone" },
      { name: "client report PDF first request (p50)", value: round(percentile(made, 50), 0), unit: "ms", note: `made, stored in R2 and recorded; p95 ${round(percentile(made, 95), 0)} ms` },
      { name: "client report PDF stored (p50)", value: round(percentile(stored, 50), 0), unit: "ms", note: "streamed from R2" },
    );

    const r = lighthouse(`${baseUrl}/shared/client-reports/${tokens[0]}`);
    if ("error" in r) figures.push({ name: "Lighthouse client report", value: NaN, unit: "score", note: `not measured: ${r.error}` });
    else
      figures.push(
        { name: "Lighthouse performance, client report", value: r.score, unit: "score", note: "mobile, simulated throttling; target 100" },
        { name: "Lighthouse accessibility, client report", value: r.accessibility, unit: "score" },
        { name: "LCP, client report", value: round(r.lcpMs, 0), unit: "ms", note: "target ≤ 1200" },
        { name: "JS transferred, client report", value: round(r.jsBytes / 1024, 1), unit: "KB" },
      );
    return figures;
  },
};
