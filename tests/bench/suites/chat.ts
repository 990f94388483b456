// Chat figures: time to the first streamed reply byte through the worker against the fake AI's own first token
// (200 ms), and the public chat's requests/s once a client is over its rate limit, beside the bare route.
import { adminToken, json, percentile, requestsPerSecond, round, type Suite } from "../lib";

/** The fake AI sends its first streamed token this long after the request (tests/bench/run.ts). */
export const CHAT_FIRST_TOKEN_MS = 200;
const SAMPLES = 40;
/** Issue 26: what the public chat may add to the first token beyond a bare route. */
export const CHAT_BEYOND_BARE_TARGET_MS = 10;

/** ms from sending `init` to the first chunk of the body whose text satisfies `isFirst`. */
async function timeToFirst(url: string, init: RequestInit, isFirst: (text: string) => boolean): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let at = NaN;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
    if (Number.isNaN(at) && isFirst(seen)) at = performance.now() - t0;
  }
  if (Number.isNaN(at)) throw new Error(`no first token from ${url}: ${seen.slice(0, 300)}`);
  return at;
}

async function newReport(baseUrl: string, adminEmail: string): Promise<string> {
  const token = await adminToken(baseUrl, adminEmail);
  const res = await fetch(`${baseUrl}/api/reports`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      name: `Bench Chat Plumbing ${Date.now().toString(36)}`,
      company_name: "Bench Chat LLC",
      area: "Austin, TX",
      keyword: "plumber austin",
      description: "Drain cleaning",
      category: "Plumbing",
      generate: false,
    }),
  });
  const body = await json(res);
  if (res.status !== 201) throw new Error(`report create failed: ${JSON.stringify(body)}`);
  return body.report.id as string;
}

export const chatSuite: Suite = {
  name: "chat",
  async run({ baseUrl, adminEmail, aiUrl }) {
    if (!aiUrl) throw new Error("the chat suite needs the fake AI's URL");
    const reportId = await newReport(baseUrl, adminEmail);
    const question = { role: "user", content: "Do you clear blocked drains?" };

    // Baseline: the fake AI's own stream, straight from Node; interleaved with the worker's so noise hits both.
    const direct: RequestInit = {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer fake-key" },
      body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "system", content: "s" }, question] }),
    };
    const directTimes: number[] = [];
    const workerTimes: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      directTimes.push(await timeToFirst(`${aiUrl}/chat/completions`, direct, (t) => /"content":"[^"]/.test(t)));
      // Through the worker: one batch (report, session, rate counts, audit block, the meter's reservation), then the AI stream.
      workerTimes.push(
        await timeToFirst(
          `${baseUrl}/api/shared/chat/${reportId}/messages`,
          {
            method: "POST",
            headers: { "Content-Type": "application/json", Accept: "text/event-stream", "CF-Connecting-IP": `10.8.${i >> 8}.${i & 255}` },
            body: JSON.stringify({ messages: [question], session_id: crypto.randomUUID() }),
          },
          (t) => t.includes("event: delta"),
        ),
      );
    }
    // What any request through `wrangler dev` costs here (its proxy included), for scale; and a route that makes one D1
    // round trip (GET /api/health: `select 1`), interleaved: the floor of a chat that reads and writes once before its call.
    const bareTimes: number[] = [];
    const oneTripTimes: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      let t0 = performance.now();
      await (await fetch(`${baseUrl}/auth/v1/health`)).text();
      bareTimes.push(performance.now() - t0);
      t0 = performance.now();
      await (await fetch(`${baseUrl}/api/health`)).text();
      oneTripTimes.push(performance.now() - t0);
    }
    bareTimes.sort((a, b) => a - b);
    oneTripTimes.sort((a, b) => a - b);
    const b50 = percentile(bareTimes, 50);
    const t50 = percentile(oneTripTimes, 50);
    directTimes.sort((a, b) => a - b);
    workerTimes.sort((a, b) => a - b);
    const d50 = percentile(directTimes, 50);
    const d95 = percentile(directTimes, 95);
    const w50 = percentile(workerTimes, 50);
    const w95 = percentile(workerTimes, 95);

    // Requests/s once one client address is over the public chat's limit (every answer a 429), beside the bare route.
    const body = JSON.stringify({ messages: [question] });
    const limited = await requestsPerSecond(`${baseUrl}/api/shared/chat/${reportId}/messages`, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.7.7.7" },
    });
    const bare = await requestsPerSecond(`${baseUrl}/auth/v1/health`);

    const where = "wrangler dev";
    return [
      { name: `chat first token, fake AI direct p50`, value: round(d50, 1), unit: "ms", note: `fake sends its first token after ${CHAT_FIRST_TOKEN_MS} ms; ${SAMPLES} sequential` },
      { name: `chat first token, fake AI direct p95`, value: round(d95, 1), unit: "ms" },
      { name: `chat first streamed delta through the worker p50, ${where}`, value: round(w50, 1), unit: "ms", note: "POST /api/shared/chat/:id/messages, SSE" },
      { name: `chat first streamed delta through the worker p95, ${where}`, value: round(w95, 1), unit: "ms" },
      { name: `chat: added by the worker p50`, value: round(w50 - d50, 1), unit: "ms" },
      { name: `chat: added by the worker p95`, value: round(w95 - d95, 1), unit: "ms" },
      { name: `bare route latency p50 (GET /auth/v1/health), ${where}`, value: round(b50, 1), unit: "ms", note: "what any request costs here, proxy included" },
      {
        name: `chat: added by the worker beyond the bare route p50`,
        value: round(w50 - d50 - b50, 1),
        unit: "ms",
        note: `target ≤ ${CHAT_BEYOND_BARE_TARGET_MS} ms: the reads, counts and the meter's reservation in one batch (1 round trip)`,
      },
      { name: `one D1 round trip route latency p50 (GET /api/health), ${where}`, value: round(t50, 1), unit: "ms", note: `select 1; ${round(t50 - b50, 1)} ms beyond the bare route` },
      {
        name: `chat: added by the worker beyond a route with one D1 round trip p50`,
        value: round(w50 - d50 - t50, 1),
        unit: "ms",
        note: "the chat's own work beyond the one round trip it must make before the call (its batch's 12 statements, the prompt, the call)",
      },
      { name: `chat: added beyond the bare route / bare route p50`, value: round((w50 - d50 - b50) / b50), unit: "×", note: "the same run's bare route, for machines of other speeds" },
      { name: `chat through worker / direct p50`, value: round(w50 / d50), unit: "×" },
      { name: `public chat over its rate limit (429s), ${where}`, value: round(limited.rps, 0), unit: "req/s", note: `autocannon, 2 connections, median of 3; ${limited.non2xx} refused` },
      { name: `bare route (GET /auth/v1/health), ${where}`, value: round(bare.rps, 0), unit: "req/s" },
      { name: `public chat 429 / bare route`, value: round(limited.rps / bare.rps), unit: "×" },
    ];
  },
};
