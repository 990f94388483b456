// Shared by the malformed-input files (malformed-bodies, malformed-queries, malformed-ids). Malformed input on every route of the app that takes a body or a query (driven by app.routes, like the access
// matrix): no body, invalid JSON, null, arrays, wrong types, deep nesting, 2 MB strings, control characters, hostile
// ids and FTS query syntax. Each answer is below 500, an error is the stable body (GoTrue's shape on /auth/v1) with no
// stack trace, and the server keeps serving.
import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import app from "../../../worker/app";
import { api, signUp, signUpAdmin, testIp } from "../helpers";
export { api, testIp };
import { readyReport } from "../reports/reports-fixtures";

export const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Routes that read no body: anything sent is ignored, so a 2xx is a correct answer there. */
export const IGNORES_BODY = new Set([
  "POST /auth/v1/logout",
  "POST /api/reports/regenerate-template",
  "POST /api/reports/generate-all",
  "POST /api/reports/:id/regenerate",
  "POST /api/reports/:id/generate",
  "DELETE /api/profile/logo",
  "DELETE /api/prospects/:id",
  "POST /api/prospects/:id/convert",
  "DELETE /api/posts/:id",
  "DELETE /api/content/:id",
  "POST /api/content/:id/calendar",
  "DELETE /api/webhooks/:id",
  "DELETE /api/integrations/google",
  "DELETE /api/rank/keywords/:id",
  "DELETE /api/schedule/:id",
  "DELETE /api/widgets/:id",
  "DELETE /auth/v1/factors/:id",
  "POST /api/webhooks/:id/deliveries/:deliveryId/replay",
  // The review inbox (issue 28): Check now, a redraft and deleting a reply take no body.
  "POST /api/reviews/sync",
  "POST /api/reviews/:id/draft",
  "DELETE /api/reviews/:id/reply",
  // Rotating the review-request hook's token takes no body.
  "POST /api/review-requests/settings/hook",
  // Resetting the brand and removing its logo take no body.
  "DELETE /api/brand",
  "DELETE /api/brand/logo",
  // Deleting an AI Visibility question takes no body.
  "DELETE /api/ai-visibility/questions/:id",
  // Sending a monthly client report now takes no body.
  "POST /api/client-reports/:id/send",
  // The profile guard's Check now takes no body (issue 41).
  "POST /api/gbp/guard/check",
]);
/** Routes whose query is a search typed by a person: FTS syntax must be a clean 200 or a 400, never a 500. */
export const SEARCH_ROUTES = ["/api/prospects", "/api/prospects/export.csv", "/api/admin/users", "/api/tools/google-results", "/api/tools/local-services"];

export const TWO_MB = "a".repeat(2 * 1024 * 1024);
export const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
export const deepObject = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
export const CONTROL = "\u0000\u0001\u0007\u001b[31m\u007f\r\n\u2028";
export const FIELDS = ["email", "password", "name", "company_name", "content", "text", "messages", "rows", "tag", "is_admin", "userId", "monthly_usd", "description", "data", "type", "token_hash"];
export const everyField = (value: unknown) => JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, value])));

/** The bodies every body-taking route gets, sent as application/json. */
export const BODIES: Array<[string, string | undefined]> = [
  ["no body", undefined],
  ["empty", ""],
  ["invalid JSON", "{not json"],
  ["truncated JSON", '{"a": '],
  ["null", "null"],
  ["array", "[]"],
  ["array of objects", '[{"a":1},{"b":2}]'],
  ["string", '"hello"'],
  ["number", "42"],
  ["every field null", everyField(null)],
  ["every field an array", everyField([1, 2])],
  ["every field an object", everyField({ $gt: "" })],
  ["every field a number", everyField(1e308)],
  ["every field true", everyField(true)],
  ["control characters", everyField(CONTROL)],
  ["proto pollution", '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}'],
  ["deep array", deep(3000)],
  ["deep object", deepObject(3000)],
];
/** Only the routes whose limit is 2 MB get a 2 MB string; the rest get one just over their 100 KB limit. */
export const BIG_BODY_ROUTES = new Set(["POST /api/prospects/import", "POST /api/profile/logo"]);
export const bigBodies = (key: string): Array<[string, string]> => {
  const big = BIG_BODY_ROUTES.has(key) ? TWO_MB : TWO_MB.slice(0, 110 * 1024);
  return [
    ["big string in every field", everyField(big).slice(0, big.length + 200)],
    ["big string field", JSON.stringify({ text: big, content: big })],
  ];
};

/** Queries every GET route gets. */
export const QUERIES = [
  "q=%00",
  "q=%22",
  "q=*",
  "q=NEAR(",
  "q=a%20OR%20",
  "q=-a",
  "q=%22unterminated",
  "q=a%20NEAR(b%20c",
  "q=(((((",
  "q=col%3Avalue",
  "q=%F0%9F%8F%A0%E2%80%AE",
  `q=${"x".repeat(16_000)}`,
  "q=a&q=b",
  "q[]=a",
  "limit=-1",
  "limit=abc",
  "limit=1e309",
  "cursor=..%2F..%2Fetc%2Fpasswd",
  "cursor=%00",
  "ids=..%2F,%00,a",
  "days=NaN",
  "scope=all&days=-5",
  "sort=%3Cscript%3E",
  "filter=__proto__",
  "email=%00",
  "type=%00&token=%00",
  "keyword=%00&location=%00",
];

/** GET routes that read a query get every hostile query; the others (which read none) a few. */
export const QUERY_ROUTES = new Set([
  "GET /api/prospects", "GET /api/prospects/export.csv", "GET /api/admin/users", "GET /api/admin/outbox", "GET /api/reports",
  "GET /api/reports/status", "GET /api/reports/jobs", "GET /api/usage", "GET /api/usage/export.csv", "GET /api/tools/google-results",
  "GET /api/tools/local-services", "GET /auth/v1/verify", "GET /api/chat/:reportId/conversations",
  "GET /api/notifications", "GET /api/webhooks/:id/deliveries",
]);
export const FEW_QUERIES = ["q=%00", `q=${"x".repeat(16_000)}`, "q=a&q=b", "v=%00"];

/** Hostile values for `:id` and `:reportId` path parameters, and for the files wildcard. */
export const HOSTILE_IDS = ["%E0%A4%A", "..%2F..%2Fetc%2Fpasswd", "../admin", "%00", "a%00b", "x".repeat(4000), "%F0%9F%8F%A0", "%E2%80%AE", "'%20OR%201=1--", "%3Cimg%20src=x%3E", "-1", "null"];

export let adminToken: string;
export let userToken: string;
export let reportId: string;
export let userId: string;

export function routes() {
  const keys = new Map<string, { method: string; path: string }>();
  for (const r of app.routes) if (r.method !== "ALL") keys.set(`${r.method} ${r.path}`, { method: r.method, path: r.path });
  return [...keys.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/**
 * A concrete path: a real report id for `:reportId`/`:id`, unless a hostile one is given. A parameter with its own
 * pattern (`/widget/:file{[^/]+\.js}`, the client report's `.pdf`) gets the pattern's suffix too, so the request reaches that route.
 */
export const fill = (path: string, id = reportId) =>
  path.replace(/:[a-zA-Z]+(\{[^}]*\})?/g, (_, pattern?: string) => (pattern?.endsWith("\\.js}") ? `${id}.js` : pattern?.endsWith("\\.pdf}") ? `${id}.pdf` : id)).replace("*", id === reportId ? "logos/x.png" : id);

/** Anything that would reveal the server's insides. */
export const STACK = /(\bat .+\.(ts|js):\d+|Error: |node_modules|\.ts:\d+:\d+|SQLITE_|D1_ERROR|fts5)/i;

export function checkAnswer(label: string, res: { status: number; body: any; headers: Headers }, mustBe4xx: boolean) {
  // 501 not_configured: a provider this deployment has no key for (voice), the spec's own answer, not a fault.
  const notConfigured = res.status === 501 && res.body?.error?.code === "not_configured";
  if (!notConfigured) expect.soft(res.status, `${label} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`).toBeLessThan(500);
  if (mustBe4xx) expect.soft(res.status, label).toBeGreaterThanOrEqual(400);
  const text = typeof res.body === "string" ? res.body : JSON.stringify(res.body ?? "");
  expect.soft(STACK.test(text), `${label} shows internals: ${text.slice(0, 300)}`).toBe(false);
  // Page routes (/shared/reports/…, /shared/client-reports/…, the widget's script and frame) answer pages, images and scripts, plain text or a
  // script comment when not found; the API answers JSON.
  // The review link (/r/…) answers a browser with a page as well.
  if (res.status < 400 || label.includes(": GET /shared/") || label.includes(": GET /widget/") || label.includes(": GET /r/")) return;
  if (label.includes("/auth/v1/")) {
    expect.soft(res.body, label).toMatchObject({ msg: expect.any(String) });
  } else {
    expect.soft(res.body?.error, label).toMatchObject({ code: expect.any(String), message: expect.any(String), requestId: expect.any(String) });
  }
}

/**
 * Each of these tests sends hundreds of requests; on a shared 2-core machine, while the queue consumers work off
 * what the body test enqueued, one took over 120 s where it takes 25 s alone. A limit, not a timing assertion.
 */
export const LONG_TEST_MS = 360_000;

export const slow = new Map<string, number>();
export async function timed<T>(key: string, run: () => Promise<T>) {
  const started = Date.now();
  try {
    return await run();
  } finally {
    slow.set(key, (slow.get(key) ?? 0) + Date.now() - started);
  }
}
/**
 * The sweep's users and ready report, made before each file's tests. A function each file calls, not hooks at this
 * module's top level: test files share this module (vitest.config.ts, `isolate: false`), so top-level hooks would
 * belong to the first file only.
 */
export function sweepUsers() {
  beforeAll(async () => {
    slow.clear();
    const [admin, user] = await Promise.all([signUpAdmin(), signUp()]);
    adminToken = admin.session.access_token;
    userToken = user.session.access_token;
    userId = user.user.id;
    reportId = (await readyReport()).id;
  });
  afterAll(() => console.log([...slow.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8)));
}

export const token = (key: string) => (key.includes("/auth/v1/") ? userToken : adminToken);

export async function healthy() {
  const res = await api("/api/health");
  expect(res.status).toBe(200);
}


/**
 * A sweep comes in parts, each a test of its own within its file's 15 s. (They were once files of their own: every
 * request through SELF cost a little more than the one before, 1,300 requests in one file over 400 s, until
 * tests/worker/pool-patch.ts stopped the pool wrapping its entrypoint once more per request.) Part `index` of `of` takes
 * every `of`-th route.
 */
export function shard<T>(items: T[], index: number, of: number): T[] {
  return items.filter((_, i) => i % of === index);
}

/** Routes whose body is not JSON: a multipart logo (profile, widget), Stripe's raw event, text/plain beacons. */
export const OTHER_BODIES = new Set([
  "POST /api/profile/logo", "POST /api/widgets/:id/logo", "POST /api/brand/logo", "POST /api/billing/webhook", "POST /api/shared/reports/:id/events",
  // The monthly client report's view beacon (issue 30): text/plain, as the shared report's.
  "POST /api/shared/client-reports/:token/events",
  // Twilio's signed form posts (checked before the body is read) and the unsubscribe form from a message's link.
  "POST /api/review-requests/sms/incoming", "POST /api/review-requests/sms/status", "POST /api/review-requests/unsubscribe",
  // The monthly report recipients' consent pages (issue 39): a browser's empty form post, or RFC 8058's one-click body.
  "POST /shared/client-reports/recipients/confirm/:token", "POST /shared/client-reports/recipients/unsubscribe/:token",
]);
/**
 * GoTrue's PUT /user with an object that names none of its fields changes nothing and answers the user (200), as
 * GoTrue does; the sweep then checks that nothing of it stuck (the user is no admin).
 */
const NO_FIELD_OBJECTS = new Set(["PUT /auth/v1/user: proto pollution", "PUT /auth/v1/user: deep object"]);
/** Routes that find nothing before reading a body: an unknown widget's form is not there for any body. */
export const BODY_AFTER_LOOKUP = new Map<string, number>([["POST /api/widget/:id/leads", 404], ["POST /api/review-requests/hook/:token", 401]]);

/** Every body-taking route's bad bodies (shard `index` of `of`) get a 4xx and the stable error body. */
export function sweepBodies(index: number, of: number) {
  describe(`malformed input: bodies (${index + 1} of ${of})`, () => {
    sweepUsers();
    it("answers every body-taking route's bad bodies with a 4xx and the stable error body", async () => {
      let tried = 0;
      const all = routes().filter(([, r]) => BODY_METHODS.has(r.method));
      expect(all.length).toBeGreaterThan(25);
      const bodyRoutes = shard(all, index, of);
      for (const [key, r] of bodyRoutes) {
        // All of one route's bodies at once, then a health check: the server keeps serving.
        // A route that reads no body (generate-all queues every report) gets a few, not every one.
        const bodies = IGNORES_BODY.has(key) ? BODIES.slice(0, 2) : [...BODIES, ...bigBodies(key)];
        await Promise.all(bodies.map(async ([name, body]) => {
          // A random id for resources: the body is judged before (or without) a lookup.
          const path = fill(r.path, r.path.includes("/shared/") || r.path.includes("/chat/") ? reportId : crypto.randomUUID());
          const res = await timed(key, () => api(path, {
            method: r.method,
            token: token(key),
            body,
            headers: { "Content-Type": "application/json", "CF-Connecting-IP": testIp() },
          }));
          tried += 1;
          checkAnswer(`${name}: ${key}`, res, !IGNORES_BODY.has(key) && !key.includes("/events") && !NO_FIELD_OBJECTS.has(`${key}: ${name}`));
        }));
        await healthy();
      }
      const row = await env.DB.prepare("select is_admin from profiles where id = ?").bind(userId).first<{ is_admin: number }>();
      expect(row?.is_admin, "a body made the user an admin").toBe(0);
      console.log(`malformed bodies: ${bodyRoutes.length} routes, ${tried} requests`);
    }, LONG_TEST_MS);
  });
}

/** Every GET route's hostile queries (shard `index` of `of`) answer without a 5xx; the last shard runs the searches. */
export function sweepQueries(index: number, of: number) {
  describe(`malformed input: queries (${index + 1} of ${of})`, () => {
    sweepUsers();
    it("answers every GET route's hostile queries without a 5xx, and search syntax cleanly", async () => {
      let tried = 0;
      const getRoutes = shard(routes().filter(([, r]) => r.method === "GET"), index, of);
      for (const [key, r] of getRoutes) {
        await Promise.all((QUERY_ROUTES.has(key) ? QUERIES : FEW_QUERIES).map(async (query) => {
          const res = await timed(key, () => api(`${fill(r.path, crypto.randomUUID())}?${query}`, { token: token(key), redirect: "manual", headers: { "CF-Connecting-IP": testIp() } }));
          tried += 1;
          checkAnswer(`?${query.slice(0, 40)}: ${key}`, res, false);
        }));
        await healthy();
      }
      // The searches themselves: FTS syntax and control characters are refused or searched literally, never a 5xx.
      for (const route of index === of - 1 ? SEARCH_ROUTES : []) {
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
}

/** Hostile ids in every parameterised route (shard `index` of `of`) answer a 4xx, never a 5xx. */
export function sweepIds(index: number, of: number) {
  describe(`malformed input: ids (${index + 1} of ${of})`, () => {
    sweepUsers();
    it("answers hostile ids in every parameterised route with a 4xx, never a 5xx", async () => {
      let tried = 0;
      const all = routes().filter(([, r]) => /[:*]/.test(r.path));
      expect(all.length).toBeGreaterThan(15);
      const withParams = shard(all, index, of);
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
}

