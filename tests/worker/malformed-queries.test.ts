// Malformed input (hostile queries on every GET route, and search syntax): every route answers a clear 4xx with the stable error body, never a 5xx.
// One of three files sharing tests/worker/malformed-input-shared.ts: each sweep sends hundreds of requests, and in one
// file the later sweeps ran progressively slower (a per-request cost that grew over the file), so each sweep runs in
// a file of its own.
import { describe, expect, it } from "vitest";
import { SEARCH_ROUTES, QUERIES, QUERY_ROUTES, FEW_QUERIES, adminToken, routes, fill, checkAnswer, LONG_TEST_MS, timed, token, healthy, api, testIp } from "./malformed-input-shared";

describe("malformed input: queries", () => {
  it("answers every GET route's hostile queries without a 5xx, and search syntax cleanly", async () => {
    let tried = 0;
    const getRoutes = routes().filter(([, r]) => r.method === "GET");
    for (const [key, r] of getRoutes) {
      await Promise.all((QUERY_ROUTES.has(key) ? QUERIES : FEW_QUERIES).map(async (query) => {
        const res = await timed(key, () => api(`${fill(r.path, crypto.randomUUID())}?${query}`, { token: token(key), redirect: "manual", headers: { "CF-Connecting-IP": testIp() } }));
        tried += 1;
        checkAnswer(`?${query.slice(0, 40)}: ${key}`, res, false);
      }));
      await healthy();
    }
    // The searches themselves: FTS syntax and control characters are refused or searched literally, never a 5xx.
    for (const route of SEARCH_ROUTES) {
      await Promise.all(['"', "*", "NEAR(", "a OR", "OR", "-", "-a", 'a"b', "AND NOT", "\u0000", "a\u0007b", "^a", "a:b", "{a b}"].map(async (q) => {
        const res = await timed(route, () => api(`${route}?q=${encodeURIComponent(q)}`, { token: adminToken }));
        tried += 1;
        checkAnswer(`search ${JSON.stringify(q)}: ${route}`, res, false);
        // eslint-disable-next-line no-control-regex
        if (/[\u0000-\u001f]/.test(q)) expect.soft(res.status, `${route} ${JSON.stringify(q)}`).toBe(400);
      }));
    }
    console.log(`malformed queries: ${getRoutes.length} routes, ${tried} requests`);
  }, LONG_TEST_MS);

});
