// Usage figures: GET /api/usage at 100,000 log rows for one user (and admins' all-users view) beside a one-row read
// measured in the same loop; and what POST /api/posts/facebook adds beyond the fake AI's own answer time.
import { run } from "../../e2e/dev-server";
import { adminToken, confirmedSignUp, dropStaleSockets, interleaved, json, percentile, round, timeSequential, type Figure, type Suite } from "../lib";

const ROWS = 100_000;
const SAMPLES = 100;
const POST_SAMPLES = 30;

/**
 * 100,000 rows in one INSERT … SELECT over a recursive counter, written with `wrangler d1 execute` into the
 * running server's local database: spread over 60 days, 6 tools, 3 models, ~500 characters of request data each.
 */
function seedLogs(userId: string, state: string) {
  const sql = `
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
    INSERT INTO ai_usage_logs (id, event_id, user_id, tool_name, model, input_tokens, output_tokens, total_tokens,
                               estimated_cost, request_data, response_data, created_at, tokens_estimated)
    SELECT lower(hex(randomblob(16))), 'bench-' || '${userId}' || '-' || i, '${userId}',
           CASE i % 6 WHEN 0 THEN 'Facebook Post Generator' WHEN 1 THEN 'SEO Report Generator' WHEN 2 THEN 'AI Chat'
                      WHEN 3 THEN 'Facebook Post Generator (Failed)' WHEN 4 THEN 'Shared Chat' ELSE 'SEO Report Generator (Failed)' END,
           CASE i % 3 WHEN 0 THEN 'google/gemini-2.5-flash' WHEN 1 THEN 'google/gemini-2.5-flash-lite' ELSE 'gpt-4' END,
           400 + i % 300, 150 + i % 200, 550 + i % 300 + i % 200, 0.0001 * (1 + i % 7),
           hex(randomblob(250)), 'ok',
           strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (i % 60) || ' days', '-' || (i % 1440) || ' minutes'),
           i % 10 = 0
    FROM n;`;
  run("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", state, "--command", sql.replace(/\s+/g, " ")]);
}

export const usageSuite: Suite = {
  name: "usage",
  async run({ baseUrl, adminEmail }) {
    // Confirmed: post generation (below) is a paid feature.
    const owner = await confirmedSignUp(baseUrl, `bench-usage-${Date.now().toString(36)}@example.test`);
    const headers = { Authorization: `Bearer ${owner.access_token}`, "Content-Type": "application/json" };
    async function get(path: string, h: Record<string, string> = headers) {
      const res = await fetch(`${baseUrl}${path}`, { headers: h });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }

    const tSeed = performance.now();
    seedLogs(owner.user.id, process.env.BENCH_STATE ?? ".e2e/bench-state");
    const seedMs = performance.now() - tSeed;
    // The seed takes seconds: kept-alive sockets from before it have been closed by the server.
    await dropStaleSockets(baseUrl);
    const check = (await json(await fetch(`${baseUrl}/api/usage`, { headers }))) as { stats: { totalUsage: number } };
    if (check.stats.totalUsage !== ROWS) throw new Error(`expected ${ROWS} usage rows, the API counts ${check.stats.totalUsage}`);

    const figures: Figure[] = [{ name: `seed ${ROWS.toLocaleString("en-US")} ai_usage_logs rows`, value: round(seedMs, 0), unit: "ms", note: "one INSERT … SELECT via wrangler d1 execute" }];

    const measure = async (name: string, path: string, h: Record<string, string> = headers) => {
      for (let i = 0; i < 5; i++) await get(path, h);
      const [times, base] = await interleaved(SAMPLES, () => get(path, h), () => get("/api/profile", h));
      const p50 = percentile(times, 50);
      figures.push(
        { name: `${name} p50`, value: round(p50), unit: "ms", note: `${SAMPLES} sequential` },
        { name: `${name} p95`, value: round(percentile(times, 95)), unit: "ms", note: "target < 50 ms" },
        { name: `one-row read (GET /api/profile) p50, same loop`, value: round(percentile(base, 50)), unit: "ms" },
        { name: `${name} p50 / one-row read p50`, value: round(p50 / percentile(base, 50)), unit: "×" },
      );
    };
    await measure(`GET /api/usage, one user with ${ROWS.toLocaleString("en-US")} rows`, "/api/usage");

    // The bench admin, confirmed through the outbox when this suite is the first to need it: unconfirmed, the
    // all-users view would answer with the caller's own usage and time the wrong query.
    const admin = { access_token: await adminToken(baseUrl, adminEmail) };
    const adminView = (await json(await fetch(`${baseUrl}/api/usage?scope=all`, { headers: { Authorization: `Bearer ${admin.access_token}` } }))) as {
      all: unknown;
    };
    if (!adminView.all) throw new Error("GET /api/usage?scope=all answered without every user's usage: the bench admin is not admin");
    await measure(
      "GET /api/usage?scope=all (admin, all users, 30 days)",
      "/api/usage?scope=all",
      { Authorization: `Bearer ${admin.access_token}` },
    );

    // Post generation: the whole request against the fake AI (300 ms answers), minus the fake's own time.
    await fetch(`${baseUrl}/api/profile`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ company_name: "Bench Roofing", company_location: "Austin, TX", company_category: "Roofing" }),
    });
    const aiUrl = process.env.BENCH_AI_URL!;
    const direct = await timeSequential(POST_SAMPLES, async () => {
      const res = await fetch(`${aiUrl}/chat/completions`, {
        method: "POST",
        headers: { Authorization: "Bearer fake-key", "Content-Type": "application/json" },
        body: JSON.stringify({
          model: "google/gemini-2.5-flash-lite",
          messages: [{ role: "user", content: "Write one Facebook post. Business name: Bench Roofing. Answer with title, content, tags and keywords." }],
          max_tokens: 800,
          temperature: 0.7,
          response_format: { type: "json_object" },
        }),
      });
      await res.arrayBuffer();
    });
    const whole = await timeSequential(POST_SAMPLES, async () => {
      const res = await fetch(`${baseUrl}/api/posts/facebook`, { method: "POST", headers, body: JSON.stringify({ description: "spring roof check" }) });
      if (res.status !== 201) throw new Error(`post generation answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    });
    const overhead = percentile(whole, 50) - percentile(direct, 50);

    // The meter's cost per call: the same post with and without its reservation (allowance read, reserve, settle),
    // interleaved so the machine's noise hits both; the unmetered one is a development-only switch for this figure.
    const post = (extra: Record<string, string>) => async () => {
      const res = await fetch(`${baseUrl}/api/posts/facebook`, { method: "POST", headers: { ...headers, ...extra }, body: JSON.stringify({ description: "spring roof check" }) });
      if (res.status !== 201) throw new Error(`post generation answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    const [metered, unmetered] = await interleaved(POST_SAMPLES, post({}), post({ "X-Bench-Unmetered": "1" }));
    figures.push(
      { name: "metered post p50", value: round(percentile(metered, 50)), unit: "ms", note: `${POST_SAMPLES} interleaved with the unmetered one` },
      { name: "unmetered post p50, same loop", value: round(percentile(unmetered, 50)), unit: "ms" },
      { name: "metered / unmetered post p50", value: round(percentile(metered, 50) / percentile(unmetered, 50), 3), unit: "×", note: "the meter's cost per call; target ≤ 1.1×" },
      { name: "meter's cost per call (p50 − p50)", value: round(percentile(metered, 50) - percentile(unmetered, 50)), unit: "ms" },
    );
    figures.push(
      { name: "fake AI answer, called directly p50", value: round(percentile(direct, 50)), unit: "ms", note: `${POST_SAMPLES} sequential; fake latency 300 ms` },
      { name: "POST /api/posts/facebook p50", value: round(percentile(whole, 50)), unit: "ms", note: `${POST_SAMPLES} sequential` },
      { name: "POST /api/posts/facebook p95", value: round(percentile(whole, 95)), unit: "ms" },
      { name: "post generation overhead beyond the fake AI (p50 − p50)", value: round(overhead), unit: "ms", note: "auth, profile, meter, SDK, parse, insert, usage event" },
    );
    return figures;
  },
};
