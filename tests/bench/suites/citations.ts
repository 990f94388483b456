// Citation Tracker figures (issue 27), through `wrangler dev` with the search fake and the fake directory web:
// 1. a prospect's scan, wall time from POST to `done`, with every `site:` search answering after 1 s, against the
//    ideal the citations queue allows: a message carries CITATION_SOURCES_PER_MESSAGE sources whose searches all run
//    side by side (one search latency a message), and max_concurrency messages run at once (max_batch_size each):
//    ⌈messages / (max_batch_size × max_concurrency)⌉ × 1 s. Target ≤ 1.5×. wrangler dev hands the consumer one batch
//    at a time, so the local ideal (batches × 1 s) is reported beside it.
// 2. the per-scan overhead: the scan with searches answering at once (the worker's and the local queue's own time),
//    the wall time beyond the local ideal's searches, and the database round trips and statements one scan costs,
//    counted on a second `wrangler dev` whose store is a libSQL server on loopback (tests/fakes/libsql-server.ts): the
//    same queries the worker sends D1, each pipeline one round trip.
import { startDevServer } from "../../e2e/dev-server";
import { startLibsqlServer } from "../../fakes/libsql-server";
import { SEARCHED_SOURCES } from "../../../worker/features/citations/rules/sources";
import { CITATION_SOURCES_PER_MESSAGE } from "../../../worker/features/citations/config";
import { adminToken, dropStaleSockets, json, percentile, prospect, round, queueIdeal, type Suite } from "../lib";

const LATENCY_MS = 1000;
const RUNS = Number(process.env.BENCH_CITATIONS_RUNS ?? 3);
const POLL_MS = 100;

async function configure(latencyMs: number) {
  await fetch(`${process.env.BENCH_SEARCH_URL}/__config`, { method: "POST", body: JSON.stringify({ latencyMs, every429: 0 }) });
}

async function searches(): Promise<{ q: string; status?: number }[]> {
  return (await json(await fetch(`${process.env.BENCH_SEARCH_URL}/__requests`))).requests;
}

type Scan = { id: string; status: string; createdAt: string; finishedAt: string | null; sources: { lookup: string; state: string; searches: number }[] };

/** One scan, POST → `done` (polled every `pollMs`); its wall time, the server's created → finished, and the view. */
async function scanOnce(baseUrl: string, headers: Record<string, string>, business: string, pollMs = POLL_MS): Promise<{ wallMs: number; serverMs: number; polls: number; scan: Scan }> {
  const t0 = performance.now();
  const started = await fetch(`${baseUrl}/api/citations/scans`, { method: "POST", headers, body: JSON.stringify({ business }) });
  const made = (await json(started)) as Scan;
  if (started.status !== 201) throw new Error(`scan answered ${started.status}: ${JSON.stringify(made)}`);
  let polls = 0;
  for (;;) {
    const scan = (await json(await fetch(`${baseUrl}/api/citations/scans/${made.id}`, { headers }))) as Scan;
    polls++;
    if (scan.status === "done") return { wallMs: performance.now() - t0, serverMs: Date.parse(scan.finishedAt!) - Date.parse(scan.createdAt), polls, scan };
    if (performance.now() - t0 > 180_000) throw new Error("the scan did not finish in 180 s");
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** A scan's database round trips and statements, on wrangler dev over a libSQL server (the polls' own share taken out). */
async function databaseCost(business: { vars: Record<string, string>; port: number; adminEmail: string }) {
  const libsql = await startLibsqlServer();
  const server = await startDevServer({ port: business.port, state: ".e2e/bench-citations-libsql", vars: { ...business.vars, LIBSQL_URL: libsql.url }, logs: "all" });
  try {
    await dropStaleSockets(server.baseUrl);
    const token = await adminToken(server.baseUrl, business.adminEmail);
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const id = await prospect(server.baseUrl, headers);
    await configure(0);
    await scanOnce(server.baseUrl, headers, id); // warm
    // One poll's cost, to take the polls out of the scan's count.
    const last = (await json(await fetch(`${server.baseUrl}/api/citations/scans?business=${id}`, { headers }))).scans[0].id as string;
    const before = libsql.counts();
    for (let i = 0; i < 5; i++) await fetch(`${server.baseUrl}/api/citations/scans/${last}`, { headers }).then((r) => r.arrayBuffer());
    const polled = libsql.counts();
    const perPoll = { roundTrips: (polled.roundTrips - before.roundTrips) / 5, statements: (polled.statements - before.statements) / 5 };
    const start = libsql.counts();
    // Polled slowly: each poll's share is subtracted, so fewer polls keep the estimate tight.
    const run = await scanOnce(server.baseUrl, headers, id, 1000);
    // The consumer may still be writing after `done` is read (the scan's last touch): let it settle.
    await new Promise((r) => setTimeout(r, 1000));
    const end = libsql.counts();
    return {
      roundTrips: end.roundTrips - start.roundTrips - run.polls * perPoll.roundTrips,
      statements: end.statements - start.statements - run.polls * perPoll.statements,
      perPoll,
      polls: run.polls,
    };
  } finally {
    await server.stop();
    await libsql.close();
  }
}

export const citationsSuite: Suite = {
  name: "citations",
  async run({ baseUrl, adminEmail }) {
    const token = await adminToken(baseUrl, adminEmail);
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const id = await prospect(baseUrl, headers);

    // Warm: one scan with instant searches before anything is timed.
    await configure(0);
    await scanOnce(baseUrl, headers, id);
    const instant: number[] = [];
    for (let i = 0; i < RUNS; i++) instant.push((await scanOnce(baseUrl, headers, id)).wallMs);
    instant.sort((a, b) => a - b);

    // Every search 1 s.
    await configure(LATENCY_MS);
    const walls: number[] = [];
    const servers: number[] = [];
    let searched = 0;
    let twice = 0;
    try {
      for (let i = 0; i < RUNS; i++) {
        const before = (await searches()).length;
        const run = await scanOnce(baseUrl, headers, id);
        walls.push(run.wallMs);
        servers.push(run.serverMs);
        const made = (await searches()).slice(before).filter((r) => r.q.startsWith("site:"));
        searched = made.length;
        const byQuery = new Map<string, number>();
        for (const r of made) byQuery.set(r.q, (byQuery.get(r.q) ?? 0) + 1);
        twice += [...byQuery.values()].filter((n) => n > 1).length;
      }
    } finally {
      await configure(0);
    }
    walls.sort((a, b) => a - b);
    servers.sort((a, b) => a - b);

    const sources = SEARCHED_SOURCES.length;
    const messages = Math.ceil(sources / CITATION_SOURCES_PER_MESSAGE);
    const { batch, concurrency, ideal, localBatches, localIdeal } = queueIdeal("citations", messages, LATENCY_MS);
    const wall = percentile(walls, 50) / 1000;

    const port = Number(process.env.BENCH_CITATIONS_LIBSQL_PORT ?? Number(process.env.BENCH_PORT ?? 8798) + 100);
    const db = await databaseCost({ vars: JSON.parse(process.env.BENCH_SERVER_VARS ?? "{}") as Record<string, string>, port, adminEmail });

    return [
      { name: `citation scan wall time (POST → done), ${sources} searched sources`, value: round(wall, 2), unit: "s", note: `median of ${RUNS}; each search 1 s; ${searched} searches a scan, ${twice} made twice; server created → finished ${round(percentile(servers, 50) / 1000, 2)} s` },
      { name: "ideal by the citations consumer's concurrency", value: round(ideal, 2), unit: "s", note: `⌈${messages} messages (${CITATION_SOURCES_PER_MESSAGE} sources, their searches side by side) / (max_batch_size ${batch} × max_concurrency ${concurrency})⌉ × 1 s` },
      { name: "citation scan / ideal", value: round(wall / ideal), unit: "×", note: "target ≤ 1.5×; wrangler dev runs the batches one after another (next rows)" },
      { name: "ideal with batches one at a time (wrangler dev's queue)", value: round(localIdeal, 2), unit: "s", note: `${localBatches} batches × 1 s` },
      { name: "citation scan / local ideal", value: round(wall / localIdeal), unit: "×", note: "the overhead beyond the searches on this engine" },
      { name: "scan time beyond the searches (wall − local ideal)", value: round((percentile(walls, 50) - localIdeal * 1000) / localBatches, 0), unit: "ms a batch", note: `${round(percentile(walls, 50) - localIdeal * 1000, 0)} ms a scan over ${localBatches} batches` },
      { name: "citation scan with instant searches (worker + local queue)", value: round(percentile(instant, 50), 0), unit: "ms", note: `median of ${RUNS}; page reads from the fake directory web included` },
      { name: "database round trips a scan", value: round(db.roundTrips, 0), unit: "round trips", note: `POST and the consumer, on libSQL (each pipeline one); ${round(db.roundTrips / sources, 1)} a source; the ${db.polls} polls' ${round(db.perPoll.roundTrips, 1)} each taken out` },
      { name: "database statements a scan", value: round(db.statements, 0), unit: "statements", note: `${round(db.statements / sources, 1)} a source (BEGIN/COMMIT not counted)` },
    ];
  },
};
