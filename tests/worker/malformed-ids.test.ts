// Malformed input (hostile ids in every parameterised route): every route answers a clear 4xx with the stable error body, never a 5xx.
// One of three files sharing tests/worker/malformed-input-shared.ts: each sweep sends hundreds of requests, and in one
// file the later sweeps ran progressively slower (a per-request cost that grew over the file), so each sweep runs in
// a file of its own.
import { describe, expect, it } from "vitest";
import { BODY_METHODS, HOSTILE_IDS, routes, fill, checkAnswer, LONG_TEST_MS, timed, token, healthy, api, testIp } from "./malformed-input-shared";

describe("malformed input: ids", () => {
  it("answers hostile ids in every parameterised route with a 4xx, never a 5xx", async () => {
    let tried = 0;
    const withParams = routes().filter(([, r]) => /[:*]/.test(r.path));
    expect(withParams.length).toBeGreaterThan(15);
    for (const [key, r] of withParams) {
      await Promise.all(HOSTILE_IDS.map(async (id) => {
        const res = await timed(key, () => api(fill(r.path, id), {
          method: r.method,
          token: token(key),
          redirect: "manual",
          body: BODY_METHODS.has(r.method) ? "{}" : undefined,
          headers: { "CF-Connecting-IP": testIp() },
        }));
        tried += 1;
        // A literal "../" is resolved by URL parsing before routing: such a request is for another path
        // (an SPA page once the web app is built), so it only must not fail. A beacon always answers a
        // quiet 204, whatever it is sent.
        const staticPrefix = r.path.slice(0, r.path.search(/[:*]/));
        const leavesRoute = !new URL(fill(r.path, id), "http://x").pathname.startsWith(staticPrefix);
        checkAnswer(`id ${id.slice(0, 30)}: ${key}`, res, !key.endsWith("/events") && !leavesRoute);
      }));
      await healthy();
    }
    console.log(`hostile ids: ${withParams.length} routes, ${tried} requests`);
  }, LONG_TEST_MS);
});
