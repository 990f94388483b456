// Malformed input, the body types: 415 for bodies that are not JSON, 400 for broken JSON and null on every JSON route,
// and the view beacon's quiet answers; then the bad-bodies sweep in six parts. All the malformed-input files share
// tests/worker/sweeps/malformed-input-shared.ts (its `shard` says why a sweep comes in parts).
import { SELF } from "cloudflare:test";
import { signUp } from "../helpers";
import { describe, expect, it } from "vitest";
import { BODY_METHODS, IGNORES_BODY, BODIES, BODY_AFTER_LOOKUP, OTHER_BODIES, bigBodies, routes, fill, reportId, LONG_TEST_MS, token, api, testIp, sweepUsers, sweepBodies } from "./malformed-input-shared";

sweepUsers();

describe("malformed input: bodies", () => {
  it("answers 415 to a body that is not JSON on every JSON route, before reading it", async () => {
    const jsonRoutes = routes().filter(([key, r]) => r.method !== "DELETE" && BODY_METHODS.has(r.method) && !OTHER_BODIES.has(key));
    expect(jsonRoutes.length).toBeGreaterThan(20);
    const bodies: [string, string | undefined][] = [
      ["form-encoded", "application/x-www-form-urlencoded"],
      ["text", "text/plain;charset=UTF-8"],
      ["multipart claim", "multipart/form-data; boundary=x"],
      ["no content type", undefined],
    ];
    let tried = 0;
    for (const [key, r] of jsonRoutes) {
      await Promise.all(bodies.map(async ([name, type]) => {
        const init: RequestInit = { method: r.method, body: "company_name=&company_phone=", headers: { "CF-Connecting-IP": testIp(), Authorization: `Bearer ${token(key)}` } };
        const req = new Request(`http://localhost${fill(r.path)}`, init);
        if (type) req.headers.set("Content-Type", type);
        else req.headers.delete("Content-Type");
        const res = await SELF.fetch(req);
        tried += 1;
        expect.soft(res.status, `${name}: ${key}`).toBe(415);
        const body = (await res.json()) as any;
        if (key.includes("/auth/v1/")) expect.soft(body.error_code, key).toBe("unsupported_media_type");
        else expect.soft(body.error?.code, key).toBe("unsupported_media_type");
      }));
    }
    console.log(`not-JSON bodies: ${jsonRoutes.length} routes, ${tried} requests`);
  }, LONG_TEST_MS);

  it("answers 400 to broken JSON and to null on every route that takes a JSON body, the auth routes included", async () => {
    // Issue 26: the content generators ran a metered generation with defaults for these, a factor's challenge was made.
    const takesBody = routes().filter(([key, r]) => BODY_METHODS.has(r.method) && !IGNORES_BODY.has(key) && !OTHER_BODIES.has(key));
    expect(takesBody.map(([key]) => key)).toEqual(expect.arrayContaining(["POST /api/content/:tool", "POST /auth/v1/factors/:id/challenge", "POST /auth/v1/signup"]));
    const bodies = BODIES.filter(([name]) => ["invalid JSON", "truncated JSON", "null"].includes(name));
    // A session of its own for /auth/v1: the sweeps before this one sign the shared user out (logout takes no body).
    const authToken = (await signUp()).session.access_token;
    let tried = 0;
    for (const [key, r] of takesBody) {
      // A real tool for the content generators (an unknown one is a 400 of its own); a random id elsewhere, judged after the body.
      const path = key === "POST /api/content/:tool" ? "/api/content/gmb-post" : fill(r.path, r.path.includes("/shared/") || r.path.includes("/chat/") ? reportId : crypto.randomUUID());
      await Promise.all(bodies.map(async ([name, body]) => {
        const res = await api(path, { method: r.method, token: key.includes("/auth/v1/") ? authToken : token(key), body, headers: { "Content-Type": "application/json", "CF-Connecting-IP": testIp() } });
        tried += 1;
        expect.soft(res.status, `${name}: ${key} → ${JSON.stringify(res.body)?.slice(0, 200)}`).toBe(BODY_AFTER_LOOKUP.get(key) ?? 400);
        // GoTrue's shape on /auth/v1 (the token grant names its own code first), ours elsewhere.
        if (key.includes("/auth/v1/")) expect.soft(res.body?.msg, key).toEqual(expect.any(String));
        else if (res.status === 400) expect.soft(res.body?.error?.code, key).toBe("validation_failed");
      }));
    }
    console.log(`broken JSON: ${takesBody.length} routes, ${tried} requests`);
  }, LONG_TEST_MS);

  it("answers the view beacon's bodies, a large one included, with 202 or 204 only", async () => {
    // docs/reports.md's promise: a beacon never fails the page. A body past the app's 100 KB limit was a 413.
    const path = fill("/api/shared/reports/:id/events");
    for (const [name, body] of [...BODIES, ...bigBodies("POST /api/shared/reports/:id/events")]) {
      const res = await api(path, { method: "POST", body, headers: { "Content-Type": "text/plain;charset=UTF-8", "CF-Connecting-IP": testIp() } });
      expect.soft([202, 204], `${name} → ${res.status}`).toContain(res.status);
    }
  }, LONG_TEST_MS);

});

for (let part = 0; part < 6; part++) sweepBodies(part, 6);
