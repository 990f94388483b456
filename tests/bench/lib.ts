// Measuring helpers: latency percentiles from sequential timed calls, req/s from autocannon.
import autocannon from "autocannon";
import { pbkdf2Sync } from "node:crypto";
import { readFileSync } from "node:fs";
import { confirmThroughOutbox } from "../e2e/dev-server";

export interface Figure {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

export interface BenchContext {
  baseUrl: string;
  adminEmail: string;
  /** The fake AI's base URL (…/v1), for baselines measured against it directly. */
  aiUrl?: string;
}

export interface Suite {
  name: string;
  run(ctx: BenchContext): Promise<Figure[]>;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** Alternates two calls `n` times (both see the same noisy machine); returns each one's sorted durations in ms. */
export async function interleaved(n: number, a: () => Promise<void>, b: () => Promise<void>): Promise<[number[], number[]]> {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await a();
    ta.push(performance.now() - t);
    t = performance.now();
    await b();
    tb.push(performance.now() - t);
  }
  return [ta.sort((x, y) => x - y), tb.sort((x, y) => x - y)];
}

/** Runs `fn` `n` times one after another and returns sorted durations in ms. */
export async function timeSequential(n: number, fn: (i: number) => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out.sort((a, b) => a - b);
}

/** Requests per second (median of `runs` runs) with autocannon, 2 connections as in BENCH.md. */
export async function requestsPerSecond(
  url: string,
  opts: { headers?: Record<string, string>; method?: "GET" | "POST"; body?: string; seconds?: number; runs?: number } = {},
): Promise<{ rps: number; non2xx: number }> {
  const results: number[] = [];
  let non2xx = 0;
  for (let r = 0; r < (opts.runs ?? 3); r++) {
    const res = await autocannon({
      url,
      connections: 2,
      duration: opts.seconds ?? 4,
      headers: opts.headers,
      method: opts.method ?? "GET",
      body: opts.body,
    });
    results.push(res.requests.average);
    non2xx += res.non2xx;
  }
  results.sort((a, b) => a - b);
  return { rps: results[Math.floor(results.length / 2)]!, non2xx };
}

/** One PBKDF2-SHA256 hash at 100,000 iterations in Node, the yardstick for sign-in cost. */
export function pbkdf2Ms(samples = 9): number {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    pbkdf2Sync("correct-horse-battery", "0123456789abcdef", 100_000, 32, "sha256");
    times.push(performance.now() - t0);
  }
  return percentile(times.sort((a, b) => a - b), 50);
}

export async function json(res: Response) {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`expected JSON from ${res.url} (${res.status}): ${text.slice(0, 200)}`);
  }
}

/**
 * After seconds without requests (a seed, another suite's browser runs), wrangler's proxy has closed the kept-alive
 * sockets of Node's fetch pool, and the next request on one fails with "other side closed". Rounds of parallel
 * throwaway requests use each idle socket once, dropping the dead ones, until a whole round gets through.
 */
export async function dropStaleSockets(baseUrl: string) {
  for (let round = 0; round < 10; round++) {
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => fetch(`${baseUrl}/api/health`).then((r) => r.arrayBuffer())));
    if (results.every((r) => r.status === "fulfilled")) return;
  }
  throw new Error(`${baseUrl} keeps refusing requests`);
}

/** A prospect the fake directory web knows (Joe's Plumbing, tests/fakes/citation-web.ts); no website, so no audit. Its id. */
export async function prospect(baseUrl: string, headers: Record<string, string>): Promise<string> {
  const res = await fetch(`${baseUrl}/api/reports`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: "Joe's Plumbing", area: "Austin, TX", keyword: "plumber", phone: "(512) 555-0142", description: "Plumbing", generate: false }),
  });
  const body = await json(res);
  if (res.status !== 201) throw new Error(`prospect answered ${res.status}: ${JSON.stringify(body)}`);
  return body.prospect.id as string;
}

export async function signUp(baseUrl: string, email: string, password = "correct-horse-battery") {
  const res = await fetch(`${baseUrl}/auth/v1/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
    body: JSON.stringify({ email, password }),
  });
  const body = await json(res);
  if (!res.ok) throw new Error(`sign-up failed: ${JSON.stringify(body)}`);
  return body as { access_token: string; refresh_token: string; user: { id: string } };
}

/** A new account with its address confirmed through the local outbox: paid features need that since issue 39. */
export async function confirmedSignUp(baseUrl: string, email: string) {
  const made = await signUp(baseUrl, email);
  await confirmThroughOutbox(baseUrl, email);
  return made;
}

/** The bench admin's access token: signs up (and confirms through the local outbox) the first time, signs in after that. */
export async function adminToken(baseUrl: string, email: string, password = "correct-horse-battery"): Promise<string> {
  const made = await signUp(baseUrl, email, password).catch(() => null);
  if (made) {
    // ADMIN_EMAILS takes effect only once the emailed link is opened; admin status is read per request.
    await confirmThroughOutbox(baseUrl, email);
    return made.access_token;
  }
  const res = await fetch(`${baseUrl}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.9.9.8" },
    body: JSON.stringify({ email, password }),
  });
  const body = await json(res);
  if (!res.ok) throw new Error(`admin sign-in failed: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** A queue consumer's settings from wrangler.toml (its `[[queues.consumers]]` block): how many messages run at once. */
export function queueConsumer(queue: string): { batch: number; concurrency: number } {
  const toml = readFileSync("wrangler.toml", "utf8");
  const block = new RegExp(`\\[\\[queues\\.consumers\\]\\]\\nqueue = "${queue}"\\n([\\s\\S]*?)(?:\\n\\[|\\n#)`).exec(toml)?.[1] ?? "";
  return { batch: Number(/max_batch_size = (\d+)/.exec(block)?.[1] ?? 1), concurrency: Number(/max_concurrency = (\d+)/.exec(block)?.[1] ?? 1) };
}

/**
 * The shortest a run of `messages` can take when each batch waits `latencyMs` on its calls: by the consumer's
 * concurrency (`ideal`), and with the batches one after another as wrangler dev's local queue runs them (`localIdeal`).
 */
export function queueIdeal(queue: string, messages: number, latencyMs: number) {
  const { batch, concurrency } = queueConsumer(queue);
  const localBatches = Math.ceil(messages / batch);
  return { batch, concurrency, ideal: Math.ceil(messages / (batch * concurrency)) * (latencyMs / 1000), localBatches, localIdeal: localBatches * (latencyMs / 1000) };
}
