// AI Visibility figures (issue 29), through `wrangler dev` with the engine fakes (OpenAI, Perplexity, Gemini; Google AI
// Mode through the search fake): a prospect's scan of 5 questions × 4 engines × 3 samples (60 answers) with every
// engine answering after 2 s.
// 1. wall time from the scan's creation to its finish (its own record; a viewer polls every AIV_POLL_MS, as the page
//    does, so the worker serves what a person watching it asks, not 10 polls a second) against the ideal the ai-visibility queue allows: a message carries
//    AI_ANSWERS_PER_MESSAGE answers asked side by side (one call's latency a message), max_concurrency batches of
//    max_batch_size messages run at once: ⌈messages / (max_batch_size × max_concurrency)⌉ × 2 s. Target ≤ 1.5×.
//    wrangler dev hands the consumer one batch at a time, so the local ideal (batches × 2 s) is reported beside it.
// 2. the overhead per answer beyond the provider: each answer's claim → stored (`asked_at − claimed_at`, read from
//    the local D1; the claim's time is taken before the batch that claims and reserves, `asked_at` after the R2 put)
//    minus the engine's own time asked straight from Node as many at once (its 2 s and what the fake adds), p50
//    (target ≤ 50 ms); and the same with engines answering at once.
import { spawnSync } from "node:child_process";
import { AI_ANSWERS_PER_MESSAGE } from "../../../worker/features/ai-visibility/config";
import { AIV_POLL_MS } from "../../../worker/features/ai-visibility/rules/contract";
import { AI_FAKE_KEYS } from "../../fakes";
import { adminToken, dropStaleSockets, json, percentile, prospect, round, queueIdeal, type Suite } from "../lib";

const LATENCY_MS = 2000;
const RUNS = Number(process.env.BENCH_AI_VISIBILITY_RUNS ?? 2);
/** A viewer of the running scan asks as often as the page does; the scan's time is its own record (created → finished). */
const POLL_MS = AIV_POLL_MS;
const ENGINES = ["chatgpt", "perplexity", "gemini", "google_ai_mode"];
const QUESTIONS = ["best plumber in Austin", "emergency plumber near me", "who installs water heaters in Austin TX", "plumber with good reviews in 78701", "affordable drain cleaning Austin"];
const SAMPLES = 3;

/** Every engine fake's latency (the engines fake and the search fake's AI Mode). */
async function configure(latencyMs: number) {
  await fetch(`${process.env.BENCH_AI_ENGINES_URL}/__config`, { method: "POST", body: JSON.stringify({ latencyMs }) });
  await fetch(`${process.env.BENCH_SEARCH_URL}/__config`, { method: "POST", body: JSON.stringify({ latencyMs: 0, aiLatencyMs: latencyMs, every429: 0 }) });
}

/** One engine's request straight from Node, as the worker's client makes it (the fakes' documented answers). */
function directRequest(engine: string, question: string): [string, RequestInit] {
  const engines = process.env.BENCH_AI_ENGINES_URL!;
  const post = (headers: Record<string, string>, body: unknown): RequestInit => ({ method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
  if (engine === "chatgpt") return [`${engines}/openai/v1/responses`, post({ Authorization: `Bearer ${AI_FAKE_KEYS.openai}` }, { model: "gpt-4.1-mini", input: question, tools: [{ type: "web_search" }] })];
  if (engine === "perplexity") return [`${engines}/perplexity/chat/completions`, post({ Authorization: `Bearer ${AI_FAKE_KEYS.perplexity}` }, { model: "sonar", messages: [{ role: "user", content: question }] })];
  if (engine === "gemini") return [`${engines}/gemini/v1beta/models/gemini-2.5-flash:generateContent`, post({ "x-goog-api-key": AI_FAKE_KEYS.gemini }, { contents: [{ role: "user", parts: [{ text: question }] }] })];
  return [`${process.env.BENCH_SEARCH_URL}/search.json?${new URLSearchParams({ engine: "google_ai_mode", q: question, api_key: "fake-key", hl: "en", gl: "us" })}`, {}];
}

type Ask = readonly [engine: string, question: string];

/** The whole scan's asks: every engine, question and sample. */
const ALL_ASKS: Ask[] = ENGINES.flatMap((engine) => QUESTIONS.flatMap((q) => Array.from({ length: SAMPLES }, () => [engine, q] as const)));

/**
 * The provider's own time beyond its 2 s wait, asked straight from Node `inFlight` at once as the worker asks them (the
 * whole scan: 2 messages of 3 answers, wrangler dev handing the consumer one batch at a time), `asks` in turn, the
 * first round a warm-up; ms each.
 */
async function directOverheads(asks: readonly Ask[], inFlight: number): Promise<number[]> {
  const out: number[] = [];
  for (let round = 0; round * inFlight < asks.length; round++) {
    const times = await Promise.all(
      asks.slice(round * inFlight, (round + 1) * inFlight).map(async ([engine, q]) => {
        const [url, init] = directRequest(engine, q);
        const t0 = performance.now();
        const res = await fetch(url, init);
        await res.text();
        if (!res.ok) throw new Error(`${engine} fake answered ${res.status}`);
        return performance.now() - t0 - LATENCY_MS;
      }),
    );
    if (round > 0) out.push(...times);
  }
  return out.sort((a, b) => a - b);
}

type Scan = { id: string; status: string; createdAt: string; finishedAt: string | null; progress: { done: number; total: number; failed: number } };

/** What a scan asks: the whole bench scan by default. */
type ScanSpec = { questions: string[]; engines: string[]; pollMs: number };
const WHOLE_SCAN: ScanSpec = { questions: QUESTIONS, engines: ENGINES, pollMs: POLL_MS };

async function scanOnce(baseUrl: string, headers: Record<string, string>, business: string, spec = WHOLE_SCAN): Promise<{ wallMs: number; serverMs: number; scan: Scan }> {
  // The previous scan's polls leave idle sockets wrangler's proxy may have closed: the POST must not land on one.
  await dropStaleSockets(baseUrl);
  const t0 = performance.now();
  const started = await fetch(`${baseUrl}/api/ai-visibility/scans`, { method: "POST", headers, body: JSON.stringify({ business, questions: spec.questions, engines: spec.engines, samples: SAMPLES }) });
  const made = (await json(started)) as Scan;
  if (started.status !== 201) throw new Error(`scan answered ${started.status}: ${JSON.stringify(made)}`);
  for (;;) {
    // wrangler's proxy sometimes drops a kept-alive socket under load: a failed poll is polled again.
    const scan = (await fetch(`${baseUrl}/api/ai-visibility/scans/${made.id}`, { headers }).then(json, () => ({ status: "polling" }))) as Scan;
    if (scan.status === "done" || scan.status === "failed") return { wallMs: performance.now() - t0, serverMs: Date.parse(scan.finishedAt!) - Date.parse(scan.createdAt), scan };
    if (performance.now() - t0 > 300_000) throw new Error("the scan did not finish in 300 s");
    await new Promise((r) => setTimeout(r, spec.pollMs));
  }
}

/** Each answer's claim → stored time (ms) in the scans, read from the local D1 wrangler dev keeps in `state`. */
function answerTimes(state: string, ...scanIds: string[]): number[] {
  const list = scanIds.map((id) => `'${id.replace(/[^a-f0-9-]/g, "")}'`).join(", ");
  const r = spawnSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", state, "--json", "--command", `select claimed_at, asked_at from ai_answers where scan_id in (${list}) and status = 'ok'`], { encoding: "utf8", env: { ...process.env, CI: "true" } });
  if (r.status !== 0) throw new Error(`wrangler d1 execute failed: ${r.stderr}`);
  const rows = (JSON.parse(r.stdout) as { results: { claimed_at: string; asked_at: string }[] }[])[0]!.results;
  return rows.map((row) => Date.parse(row.asked_at) - Date.parse(row.claimed_at)).sort((a, b) => a - b);
}

/** One-message scans asked one after another. */
const ALONE = 6;

/**
 * Scans of one question, one engine and the fewest samples (3: one message, its answers side by side), each started
 * when the one before finished: an answer's overhead when it shares wrangler dev's one thread (worker, D1, R2 and the
 * queue) with its message's answers only, not with the batch's other message.
 */
async function overheadsAlone(baseUrl: string, headers: Record<string, string>, business: string, state: string): Promise<number[]> {
  const ask: Ask = ["chatgpt", QUESTIONS[0]!];
  const providerMs = percentile(await directOverheads(Array.from({ length: (ALONE + 1) * SAMPLES }, () => ask), SAMPLES), 50);
  const ids: string[] = [];
  // A one-message scan is light to watch: polled often, so the next one starts soon after.
  for (let i = 0; i < ALONE; i++) ids.push((await scanOnce(baseUrl, headers, business, { questions: [ask[1]], engines: [ask[0]], pollMs: 250 })).scan.id);
  return answerTimes(state, ...ids).map((ms) => ms - LATENCY_MS - providerMs);
}

export const aiVisibilitySuite: Suite = {
  name: "ai-visibility",
  async run({ baseUrl, adminEmail }) {
    const state = process.env.BENCH_STATE ?? ".e2e/bench-state";
    const token = await adminToken(baseUrl, adminEmail);
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const id = await prospect(baseUrl, headers);

    // Warm, then engines answering at once: the worker's own time per answer.
    await configure(0);
    await scanOnce(baseUrl, headers, id);
    const instant = await scanOnce(baseUrl, headers, id);
    const instantTimes = answerTimes(state, instant.scan.id);

    await configure(LATENCY_MS);
    const direct = await directOverheads(ALL_ASKS, 2 * AI_ANSWERS_PER_MESSAGE);
    const providerMs = percentile(direct, 50);
    const walls: number[] = [];
    const servers: number[] = [];
    const overheads: number[] = [];
    let answered = 0;
    let alone: number[];
    try {
      for (let i = 0; i < RUNS; i++) {
        const run = await scanOnce(baseUrl, headers, id);
        walls.push(run.wallMs);
        servers.push(run.serverMs);
        answered = run.scan.progress.done - run.scan.progress.failed;
        overheads.push(...answerTimes(state, run.scan.id).map((ms) => ms - LATENCY_MS - providerMs));
      }
      alone = (await overheadsAlone(baseUrl, headers, id, state)).sort((a, b) => a - b);
    } finally {
      await configure(0);
    }
    walls.sort((a, b) => a - b);
    servers.sort((a, b) => a - b);
    overheads.sort((a, b) => a - b);

    const answers = QUESTIONS.length * ENGINES.length * SAMPLES;
    const messages = Math.ceil(answers / AI_ANSWERS_PER_MESSAGE);
    const { batch, concurrency, ideal, localBatches, localIdeal } = queueIdeal("ai-visibility", messages, LATENCY_MS);
    // The scan's own record (created → finished): the client sees it done at its next poll, up to POLL_MS later.
    const wall = percentile(servers, 50) / 1000;

    return [
      { name: `AI Visibility scan wall time (created → finished), ${QUESTIONS.length} questions × ${ENGINES.length} engines × ${SAMPLES} samples`, value: round(wall, 2), unit: "s", note: `median of ${RUNS}; each call 2 s; ${answered} of ${answers} answered; seen done by a viewer polling every ${POLL_MS / 1000} s after ${round(percentile(walls, 50) / 1000, 2)} s` },
      { name: "ideal by the ai-visibility consumer's concurrency", value: round(ideal, 2), unit: "s", note: `⌈${messages} messages (${AI_ANSWERS_PER_MESSAGE} answers side by side) / (max_batch_size ${batch} × max_concurrency ${concurrency})⌉ × 2 s` },
      { name: "AI Visibility scan / ideal", value: round(wall / ideal), unit: "×", note: "target ≤ 1.5×; wrangler dev runs the batches one after another (next rows)" },
      { name: "ideal with batches one at a time (wrangler dev's queue)", value: round(localIdeal, 2), unit: "s", note: `${localBatches} batches × 2 s` },
      { name: "AI Visibility scan / local ideal", value: round(wall / localIdeal), unit: "×", note: "the overhead beyond the engines on this machine" },
      { name: "engine fakes asked directly, p50 beyond their 2 s", value: round(providerMs, 1), unit: "ms", note: `${direct.length} calls from Node, ${2 * AI_ANSWERS_PER_MESSAGE} at once (as the worker asks them): the provider's own time, as the chat suite measures the fake AI's` },
      { name: "overhead per answer beyond the provider, p50", value: round(percentile(overheads, 50), 0), unit: "ms", note: `claim → stored minus the call as asked directly (2 s + ${round(providerMs, 1)} ms), ${overheads.length} answers; p90 ${round(percentile(overheads, 90), 0)} ms; target ≤ 50 ms` },
      { name: "overhead per answer beyond the provider, one message at a time, p50", value: round(percentile(alone, 50), 0), unit: "ms", note: `${ALONE} scans of 1 question × 1 engine × ${SAMPLES} samples (one message), each started when the one before finished (ChatGPT's fake asked directly ${SAMPLES} at once taken off), ${alone.length} answers: not sharing wrangler dev's one thread with the batch's other message; target ≤ 50 ms` },
      { name: "claim → stored with engines answering at once, p50", value: round(percentile(instantTimes, 50), 0), unit: "ms", note: `p90 ${round(percentile(instantTimes, 90), 0)} ms; the scan ${round(instant.serverMs, 0)} ms created → finished` },
    ];
  },
};
