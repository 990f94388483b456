// The agency's command center at scale (issue 41's speed goals), on a `wrangler dev` of its own with the fake Google
// (the other suites' server has no Google) and its own local D1 (.e2e/bench-command-center-state).
//
// Seeding: 500 business clients, each with 100 reviews, 10 tracked keywords, a grid scan, a citation scan and an AI
// Visibility scan, their clients-view rows and their attention items.
// - through the app (cheap enough, and what a person does): the sign-ups (users + profiles rows), the Google
//   connections (the real OAuth flow against the fake: start, consent as the owner, callback, location chosen), the
//   clients view's rows (the cron's own fill, FILL_PER_RUN clients a run: the cron is run until every client's row is
//   filled, as the nightly backfill would), the open attention items (the same cron's sweep over the seeded rows and
//   the clients view's rows: low reviews unanswered over 24 hours, wrong listings, …), the account managers
//   (PUT /api/agency/clients/:id);
// - straight into the local D1 by SQL (`wrangler d1 execute --local --persist-to <state> --file`, one file of
//   multi-row INSERTs): the profiles' business names, the rows each capability keeps (reviews and their settings,
//   tracked keywords and two checks each, a 5×5 grid and its points, a citation scan and its checks, an AI scan and
//   its stored summary, shaped as tests/worker/command-center/client-figures.test.ts stores them), subscriptions, each
//   client's own location name (as tests/worker/gbp-guard/guard.test.ts sets it), the attention items of the low
//   reviews already answered (closed, as the sweep closes them), and the guard's watched locations marked checked
//   tonight, so the fill's cron runs do not start tonight's guard; they are moved to last night just before it is timed.
//
// Figures:
// 1. GET /api/agency/clients?sort=health (first page of 50) and GET /api/agency/attention (open items, at most 300)
//    with the admin's token: p50 and p95 of SAMPLES sequential requests, each interleaved with the bare route
//    (GET /auth/v1/health, as the auth, chat and reports suites use it); ratio to it, target ≤ 2× at p95. For scale, an
//    authenticated one-row read (GET /api/profile, the prospects suite's baseline) beside the same bare route.
// 2. /admin/clients at 1280 px in Debian's Chromium (playwright-core), signed in as the admin: first contentful paint
//    and the time the first row of the table is in the page (a MutationObserver put in before the app's scripts), from
//    navigation start, PAINT_SAMPLES loads each in a fresh browser context (cold cache, the session kept); target ≤ 1.5 s.
//    Beside it, where the median load's time went: the script and style files before the clients' data was asked, the
//    API calls before it, and when it was asked and answered (BENCH_CC_TRACE=1 prints every request of every load).
// 3. The nightly guard over the 500 connected locations with the fake Google answering every call in 300 ms: from the
//    cron's trigger (GET /__scheduled, dev-server.ts runCron) to the last location's check stored (its
//    `last_checked_at`), against the gbp-guard consumer's ideal (lib.ts queueIdeal: a message's locations are checked
//    one after another, three Google calls each, so a batch takes 2 × 3 × 300 ms; wrangler dev runs one batch at a
//    time); target ≤ 1.5×. Then, read back from D1 and from the fake's request log: no location checked twice in the
//    night (one claim each, one of each Google call each), none left unchecked. The night is the UTC date: a run across
//    midnight UTC would see two nights. If Google is asked nothing for STALL_MS before every location is checked, the
//    wait ends and the figure says so: the local server reloads when a file under worker/ or dist/client changes
//    (wrangler's bundler and assets watchers run whatever local-worker.ts asks), and a reload loses the local queue's
//    messages, leaving the rest `queued` until the cron's stale resend (GUARD_STALE_CLAIM_MS). Measure on a tree
//    nobody is editing.
// Runtime: about 4 minutes of guard (its local ideal is 225 s) and 2–3 minutes of seeding. BENCH_CC_CLIENTS (500) and
// BENCH_CC_SAMPLES (100) make a quicker run for trying the suite out.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { GUARD_LOCATIONS_PER_MESSAGE, GUARD_STALE_CLAIM_MS } from "../../../worker/features/gbp-guard/rules/guard";
import { CITATION_SOURCES } from "../../../worker/features/citations/rules/sources";
import { FAKE_GOOGLE_CLIENT_ID, FAKE_GOOGLE_CLIENT_SECRET, startGoogleFake, type GoogleFake } from "../../fakes/google-fake";
import { runCron, startDevServer } from "../../e2e/dev-server";
import { adminToken, dropStaleSockets, interleaved, json, percentile, queueIdeal, round, signUp, type Figure, type Suite } from "../lib";

const CLIENTS = Number(process.env.BENCH_CC_CLIENTS ?? 500);
const REVIEWS = 100;
const KEYWORDS = ["roofer", "roof repair", "roof replacement", "metal roofing", "roof inspection", "emergency roof repair", "shingle roof", "flat roof repair", "gutter installation", "storm damage roof"];
const GRID = 5;
const GOOGLE_LATENCY_MS = 300;
/** The guard's Google calls for one location, one after another (check.ts read: locations.get, getGoogleUpdated, getVoiceOfMerchantState). */
const CALLS_PER_LOCATION = 3;
/** The clients view's rows the cron fills a run (command-center/clients.ts FILL_PER_RUN): how many cron runs the fill takes. */
const FILL_PER_RUN = 30;
const SAMPLES = Number(process.env.BENCH_CC_SAMPLES ?? 100);
const PAINT_SAMPLES = 5;
/** The guard's queue is taken as stopped when Google has not been asked anything for this long (a batch takes 1.8 s). */
const STALL_MS = 30_000;
const STATE = ".e2e/bench-command-center-state";
const ADMIN = "cc-admin@agency.test";
const PASSWORD = "correct-horse-battery";
const CHROME = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** The location chosen through the OAuth flow (the fake offers three); each client then gets a location of its own. */
const CHOSEN = "accounts/1001/locations/2001";
const locationOf = (n: number) => `accounts/1001/locations/${7_000_000 + n}`;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** A SQL literal. */
function v(x: string | number | boolean | null): string {
  if (x === null) return "null";
  if (typeof x === "number") return String(x);
  if (typeof x === "boolean") return x ? "1" : "0";
  return `'${x.replace(/'/g, "''")}'`;
}

/** Multi-row INSERTs of `rows`, each statement under ~90 KB (D1's limit on a statement is 100 KB). */
function inserts(table: string, columns: string[], rows: (string | number | boolean | null)[][]): string[] {
  const out: string[] = [];
  const head = `insert into ${table} (${columns.join(", ")}) values\n`;
  let part: string[] = [];
  let size = head.length;
  for (const row of rows) {
    const text = `(${row.map(v).join(", ")})`;
    if (part.length && size + text.length > 90_000) {
      out.push(`${head}${part.join(",\n")};`);
      part = [];
      size = head.length;
    }
    part.push(text);
    size += text.length + 2;
  }
  if (part.length) out.push(`${head}${part.join(",\n")};`);
  return out;
}

function wrangler(args: string[]): string {
  const r = spawnSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", STATE, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, env: { ...process.env, CI: "true" } });
  if (r.status !== 0) throw new Error(`wrangler d1 execute failed: ${(r.stderr || r.stdout).slice(0, 2000)}`);
  return r.stdout;
}

/** One statement's rows, read from the server's local D1. */
function d1<T>(sql: string): T[] {
  return (JSON.parse(wrangler(["--json", "--command", sql.replace(/\s+/g, " ")])) as { results: T[] }[])[0]!.results;
}

/** Runs `statements` as one file (multi-row INSERTs in big chunks). */
function d1File(statements: string[]) {
  const file = join(STATE, "command-center-seed.sql");
  writeFileSync(file, statements.join("\n"));
  wrangler(["--file", file]);
}

/** Runs `fn` over `items`, `width` at a time. */
async function inGroups<T>(items: T[], width: number, fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(fn));
}

type Client = { n: number; id: string; token: string; name: string };

/** Connects a client to the fake Google as a person would (consent as the owner), choosing the fake's Austin location. */
async function connectGoogle(baseUrl: string, token: string) {
  const auth = { Authorization: `Bearer ${token}` };
  const start = await fetch(`${baseUrl}/api/integrations/google/start`, { headers: auth });
  const { authorizeUrl } = (await json(start)) as { authorizeUrl: string };
  const cookie = (start.headers.get("Set-Cookie") ?? "").split(";")[0]!;
  const consent = await (await fetch(authorizeUrl)).text();
  const href = /data-user="owner" href="([^"]+)"/.exec(consent)?.[1];
  if (!href) throw new Error("the fake Google's consent page offered no owner");
  const back = new URL(href.replace(/&amp;/g, "&"));
  const callback = await fetch(`${baseUrl}${back.pathname}${back.search}`, { redirect: "manual", headers: { Cookie: cookie } });
  await callback.arrayBuffer();
  if (callback.status !== 302) throw new Error(`the Google callback answered ${callback.status}`);
  const chosen = await fetch(`${baseUrl}/api/integrations/google/locations`, { method: "PUT", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify({ locations: [CHOSEN] }) });
  if (!chosen.ok) throw new Error(`choosing the location answered ${chosen.status}: ${await chosen.text()}`);
  await chosen.arrayBuffer();
}

/** A version-4 UUID made by SQLite (the attention sweep's own expression). */
const UUID_SQL = `lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))`;

const STAR_OF = [1, 2, 3, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5];
const ENGINES = ["chatgpt", "perplexity", "gemini", "google_ai_mode"];

/** What each capability keeps for the clients, as its own code stores it (see the header). */
function seedStatements(clients: Client[], now: number, tonight: string): string[] {
  const s: string[] = [];
  const cols = {
    reviews: ["id", "user_id", "location_name", "google_review_id", "google_name", "reviewer_name", "stars", "comment", "create_time", "update_time", "reply_comment", "reply_update_time", "reply_state"],
    settings: ["user_id", "next_sync_at", "last_sync_at", "google_average", "google_total"],
    keywords: ["id", "kind", "user_id", "owner_key", "business", "keyword", "frequency", "last_check_at", "created_at"],
    checks: ["id", "keyword_id", "status", "map_status", "map_rank", "organic_status", "organic_rank", "attempts", "created_at", "checked_at"],
    grids: ["id", "kind", "user_id", "business", "keyword", "size", "radius_miles", "zoom", "status", "estimate_searches", "estimate_micro", "share_token", "created_at", "finished_at"],
    points: ["scan_id", "idx", "row", "col", "lat", "lng", "status", "rank", "attempts", "finished_at"],
    citationScans: ["id", "kind", "user_id", "owner_key", "business", "status", "trigger", "estimate_searches", "estimate_micro", "created_at", "finished_at"],
    citationChecks: ["scan_id", "source", "status", "result", "attempts", "finished_at"],
    aiScans: ["id", "owner_key", "kind", "user_id", "business", "status", "trigger", "samples", "engines", "questions", "total", "done", "cost_micro", "summary", "created_at", "finished_at"],
    subscriptions: ["id", "user_id", "customer_email", "status", "plan", "interval", "current_period_end", "state_event_created"],
    guard: ["id", "user_id", "location_name", "location_title", "night", "status", "attempts", "claimed_at", "last_checked_at"],
  };
  const rows: Record<keyof typeof cols, (string | number | boolean | null)[][]> = { reviews: [], settings: [], keywords: [], checks: [], grids: [], points: [], citationScans: [], citationChecks: [], aiScans: [], subscriptions: [], guard: [] };
  const looked = CITATION_SOURCES.filter((src) => src.lookup !== "manual");
  for (const c of clients) {
    const { n, id, name } = c;
    const loc = locationOf(n);
    const owner = `own:${id}`;
    s.push(`update profiles set company_name = ${v(name)}, company_location = 'Austin, TX', company_category = 'Roofing', company_phone = ${v(`(512) 555-${String(n).padStart(4, "0")}`)} where id = ${v(id)};`);
    s.push(`update gbp_connections set chosen_locations = ${v(JSON.stringify([{ name: loc, title: `${name} — Austin`, address: "Austin, TX", canOperateLocalPost: true }]))} where user_id = ${v(id)};`);
    // Tonight's check already done, for now (moved to last night before the guard is timed).
    rows.guard.push([crypto.randomUUID(), id, loc, `${name} — Austin`, tonight, "checked", 1, iso(now - 3_600_000), iso(now - 3_600_000)]);

    // 100 reviews over two years, the newest half a day old; the newest n % 6 unanswered, the rest answered.
    let stars = 0;
    for (let i = 0; i < REVIEWS; i++) {
      const at = now - (i === 0 ? 0.5 : i * 7 + (n % 5)) * DAY;
      const star = STAR_OF[(i * 7 + n) % STAR_OF.length]!;
      stars += star;
      const answered = i >= n % 6;
      const comment = i % 3 === 0 ? null : star <= 3 ? `Review ${i + 1}: they came two days late and left a mess.` : `Review ${i + 1}: the roof repair went well, on time and tidy.`;
      const gid = `g${n}x${i}`;
      rows.reviews.push([crypto.randomUUID(), id, loc, gid, `${loc}/reviews/${gid}`, `Customer ${i + 1}`, star, comment, iso(at), iso(at), answered ? `Thank you, Customer ${i + 1}. ${star <= 3 ? "We are sorry; please call us." : "We are glad it went well."}` : null, answered ? iso(Math.min(now, at + DAY)) : null, answered ? "published" : "none"]);
    }
    rows.settings.push([id, iso(now + 3 * DAY), iso(now - 3_600_000), Math.round((stars / REVIEWS) * 10) / 10, REVIEWS]);

    // 10 tracked keywords, each checked twice (the last an hour ago: not due).
    const business = JSON.stringify({ kind: "own", prospectId: null, name, area: "Austin, TX", placeId: `place-${n}`, latitude: 30.27, longitude: -97.74 });
    for (const [k, keyword] of KEYWORDS.entries()) {
      const kid = crypto.randomUUID();
      rows.keywords.push([kid, "own", id, owner, business, keyword, "daily", iso(now - 3_600_000), iso(now - 60 * DAY)]);
      const rank = ((n + k) % 12) + 1;
      for (const [j, r] of [rank + ((n + k) % 3) - 1, rank].entries()) {
        const at = iso(now - (2 - j) * DAY + 3_600_000 * (j - 1));
        const found = r > 0 && r <= 10;
        rows.checks.push([crypto.randomUUID(), kid, "done", found ? "found" : "not_found", found ? r : null, "found", r + 2, 1, at, at]);
      }
    }

    // A 5×5 grid for the first keyword, three days ago.
    const grid = crypto.randomUUID();
    const gridAt = now - 3 * DAY;
    rows.grids.push([grid, "own", id, business, KEYWORDS[0]!, GRID, 2, 13, "done", GRID * GRID, GRID * GRID * 10_000, crypto.randomUUID().replace(/-/g, ""), iso(gridAt - 600_000), iso(gridAt)]);
    for (let idx = 0; idx < GRID * GRID; idx++) {
      const row = Math.floor(idx / GRID);
      const col = idx % GRID;
      const r = 1 + (Math.abs(row - 2) + Math.abs(col - 2)) * 3 + (n % 4);
      rows.points.push([grid, idx, row, col, 30.27 + (row - 2) * 0.01, -97.74 + (col - 2) * 0.01, "done", r <= 20 ? r : null, 1, iso(gridAt)]);
    }

    // A citation scan five days ago: every looked-up source answered; a third of the clients have a wrong listing.
    const scan = crypto.randomUUID();
    const scanAt = now - 5 * DAY;
    rows.citationScans.push([scan, "own", id, owner, JSON.stringify({ name, phone: `(512) 555-${String(n).padStart(4, "0")}`, address: "Austin, TX", website: null }), "done", "manual", looked.length * 2, looked.length * 20_000, iso(scanAt), iso(scanAt + 120_000)]);
    for (const [idx, src] of looked.entries()) {
      const verdict = n % 3 === 0 && idx === 1 ? "inconsistent" : (n + idx) % 5 === 0 ? "not_found" : "consistent";
      const result = {
        source: src.id,
        name: src.name,
        kind: src.kind,
        lookup: src.lookup,
        state: "done",
        verdict,
        url: verdict === "not_found" ? null : `https://www.${src.domain}/biz/bench-roofing-${n}`,
        fields: null,
        evidence: verdict === "not_found" ? `No listing of ${name} found on ${src.name}.` : `Found ${name} on ${src.name}.`,
        listings: [],
        searches: 2,
        checkedAt: iso(scanAt + 60_000),
        fix_url: src.claimUrl,
        competitors: [],
        gap: false,
      };
      rows.citationChecks.push([scan, src.id, "done", JSON.stringify(result), 1, iso(scanAt + 60_000)]);
    }

    // An AI Visibility scan four days ago: 5 questions × 4 engines × 3 samples, its stored summary.
    const rate = ((n * 37) % 100) / 100;
    const overall = { k: Math.round(rate * 60), n: 60, mention_rate: rate, low: Math.max(0, rate - 0.12), high: Math.min(1, rate + 0.12), share_of_voice: null, share_low: null, share_high: null };
    const aiAt = now - 4 * DAY;
    rows.aiScans.push([crypto.randomUUID(), owner, "own", id, JSON.stringify({ name, website: null, phone: null, gbpUrl: null, category: "Roofing", area: "Austin, TX", location: { city: "Austin", region: "TX", country: "US" } }), "done", "manual", 3, JSON.stringify(ENGINES), "[]", 60, 60, 120_000, JSON.stringify({ overall, perEngine: [], figures: [], citedDomains: [], engineErrors: [] }), iso(aiAt - 300_000), iso(aiAt)]);

    if (n % 5 !== 0) rows.subscriptions.push([crypto.randomUUID(), id, `cc-${n}@bench.test`, "active", n % 2 ? "Porchlight Pro" : "Porchlight Starter", "month", iso(now + 20 * DAY), 1]);
  }
  s.push(
    ...inserts("gbp_guard_locations", cols.guard, rows.guard),
    ...inserts("reviews", cols.reviews, rows.reviews),
    ...inserts("review_settings", cols.settings, rows.settings),
    ...inserts("tracked_keywords", cols.keywords, rows.keywords),
    ...inserts("keyword_checks", cols.checks, rows.checks),
    ...inserts("grid_scans", cols.grids, rows.grids),
    ...inserts("grid_points", cols.points, rows.points),
    ...inserts("citation_scans", cols.citationScans, rows.citationScans),
    ...inserts("citation_checks", cols.citationChecks, rows.citationChecks),
    ...inserts("ai_scans", cols.aiScans, rows.aiScans),
    ...inserts("subscriptions", cols.subscriptions, rows.subscriptions),
    // Each low review already answered once had its attention item, closed when the reply went out.
    `insert into attention_items (id, user_id, kind, subject, data, happened_at, status, closed_at, created_at, updated_at)
      select ${UUID_SQL}, r.user_id, 'low_review', r.id,
        json_object('stars', r.stars, 'reviewer', r.reviewer_name, 'comment', substr(coalesce(r.comment, ''), 1, 400), 'reviewId', r.id),
        r.create_time, 'closed', r.reply_update_time, r.create_time, r.reply_update_time
      from reviews r where r.stars <= 3 and r.reply_comment is not null;`,
  );
  return s;
}

/** GET `url` with `headers`, its body read; throws on anything but 200. Answers the body's size. */
async function getOk(url: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(url, { headers });
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${new TextDecoder().decode(body).slice(0, 300)}`);
  return body.byteLength;
}

type Timed = { p50: number; p95: number; bare50: number; bare95: number; bytes: number };

/** `url` with the admin's token, interleaved with the bare route: both see the same machine. */
async function beside(baseUrl: string, url: string, headers: Record<string, string>): Promise<Timed> {
  const bare = `${baseUrl}/auth/v1/health`;
  let bytes = 0;
  for (let i = 0; i < 10; i++) {
    bytes = await getOk(url, headers);
    await getOk(bare);
  }
  const [times, bareTimes] = await interleaved(SAMPLES, async () => void (await getOk(url, headers)), async () => void (await getOk(bare)));
  return { p50: percentile(times, 50), p95: percentile(times, 95), bare50: percentile(bareTimes, 50), bare95: percentile(bareTimes, 95), bytes };
}

function apiFigures(name: string, path: string, t: Timed, what: string): Figure[] {
  return [
    { name: `${name} p50`, value: round(t.p50), unit: "ms", note: `${path}, ${SAMPLES} sequential, interleaved with the bare route; ${what}; ${round(t.bytes / 1024, 1)} KB` },
    { name: `${name} p95`, value: round(t.p95), unit: "ms" },
    { name: `bare route (GET /auth/v1/health) beside ${name}, p50 / p95`, value: round(t.bare50), unit: "ms", note: `p95 ${round(t.bare95)} ms` },
    { name: `${name} / bare route, p50`, value: round(t.p50 / t.bare50), unit: "×" },
    { name: `${name} / bare route, p95`, value: round(t.p95 / t.bare95), unit: "×", note: "target ≤ 2×" },
  ];
}

type Paint = {
  fcp: number | null;
  rowsInPage: number;
  rowsFrame: number;
  rows: number;
  /** The load's requests: scripts and styles before the clients' data was asked, when it was asked and answered, the API calls before it. */
  load?: { files: number; filesDone: number; apiStart: number; apiEnd: number; before: string[] };
};

/**
 * /admin/clients at 1280 px, signed in as the admin through the login page once; then PAINT_SAMPLES loads, each in a
 * fresh context (cold cache) with the session carried over (a load may renew the tokens: the next one takes them).
 */
async function paintClientsView(baseUrl: string): Promise<Paint[]> {
  const browser = await chromium.launch({ executablePath: CHROME, args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  const viewport = { width: 1280, height: 900 };
  try {
    const first = await browser.newContext({ baseURL: baseUrl, viewport });
    const login = await first.newPage();
    await login.goto("/login");
    await login.getByLabel("Email").fill(ADMIN);
    await login.getByLabel("Password").fill(PASSWORD);
    await login.getByRole("button", { name: /sign in/i }).click();
    await login.waitForURL("**/dashboard", { timeout: 30_000 });
    let storageState = await first.storageState();
    await first.close();
    const out: Paint[] = [];
    for (let i = 0; i < PAINT_SAMPLES; i++) {
      const context = await browser.newContext({ baseURL: baseUrl, viewport, storageState });
      // Before any of the app's scripts: the time the table's first row is in the page, and the frame after it.
      await context.addInitScript(() => {
        const w = window as unknown as { __rowsAt?: number; __rowsFrame?: number };
        const seen = new MutationObserver(() => {
          if (w.__rowsAt !== undefined || !document.querySelector("table.cl-table tbody tr")) return;
          w.__rowsAt = performance.now();
          seen.disconnect();
          requestAnimationFrame(() => (w.__rowsFrame = performance.now()));
        });
        seen.observe(document, { childList: true, subtree: true });
      });
      const page = await context.newPage();
      // Where the load's time goes: each request's start and end (this process's clock, from just before the navigation).
      const t = performance.now();
      const requests = new Map<unknown, { url: string; start: number; end: number | null }>();
      page.on("request", (r) => requests.set(r, { url: r.url().replace(baseUrl, ""), start: performance.now() - t, end: null }));
      page.on("requestfinished", (r) => {
        const entry = requests.get(r);
        if (entry) entry.end = performance.now() - t;
      });
      await page.goto("/admin/clients", { waitUntil: "commit" });
      await page.waitForFunction(() => (window as unknown as { __rowsFrame?: number }).__rowsFrame !== undefined, null, { timeout: 30_000 });
      out.push(
        await page.evaluate(() => {
          const w = window as unknown as { __rowsAt: number; __rowsFrame: number };
          const fcp = performance.getEntriesByName("first-contentful-paint")[0];
          return { fcp: fcp ? fcp.startTime : null, rowsInPage: w.__rowsAt, rowsFrame: w.__rowsFrame, rows: document.querySelectorAll("table.cl-table tbody tr").length };
        }),
      );
      const all = [...requests.values()];
      const api = all.find((r) => r.url.startsWith("/api/agency/clients"));
      const files = all.filter((r) => r.url.startsWith("/assets/") && r.end !== null && (!api || r.start < api.start));
      out[out.length - 1]!.load = {
        files: files.length,
        filesDone: Math.max(0, ...files.map((r) => r.end!)),
        apiStart: api?.start ?? NaN,
        apiEnd: api?.end ?? NaN,
        before: [...new Set(all.filter((r) => r.url.startsWith("/api/") && api && r.start < api.start).map((r) => r.url.split("?")[0]!))],
      };
      // BENCH_CC_TRACE: every request of each load, in order.
      if (process.env.BENCH_CC_TRACE) for (const r of all) console.log(`    load ${i}: ${r.url} ${round(r.start, 0)} → ${r.end === null ? "?" : round(r.end, 0)} ms`);
      storageState = await context.storageState();
      await context.close();
    }
    return out;
  } finally {
    await browser.close();
  }
}

type GuardRow = { n: number; checked: number; tonight: number; once: number; again: number; fresh: number; failed: number; firstClaim: string; lastChecked: string };

/** The night's guard over every watched location with Google answering in GOOGLE_LATENCY_MS; its figures. */
async function timeGuard(baseUrl: string, google: GoogleFake, now: number): Promise<Figure[]> {
  const tonight = iso(Date.now()).slice(0, 10);
  const yesterday = iso(Date.parse(`${tonight}T00:00:00Z`) - DAY).slice(0, 10);
  // Last night's check, done: tonight's is due.
  d1(`update gbp_guard_locations set night = '${yesterday}', claimed_at = '${iso(now - DAY)}', last_checked_at = '${iso(now - DAY)}', updated_at = '${iso(now - DAY)}'`);
  const messages = Math.ceil(CLIENTS / GUARD_LOCATIONS_PER_MESSAGE);
  const batchMs = GUARD_LOCATIONS_PER_MESSAGE * CALLS_PER_LOCATION * GOOGLE_LATENCY_MS;
  const { batch, concurrency, ideal, localBatches, localIdeal } = queueIdeal("gbp-guard", messages, batchMs);
  const set = await fetch(`${google.url}/__config`, { method: "POST", body: JSON.stringify({ latencyMs: GOOGLE_LATENCY_MS }) });
  if (!set.ok) throw new Error(`the Google fake refused its latency: ${set.status}`);
  const from = google.requests.length;
  let cronMs: number;
  let t0: number;
  /** When Google was last asked anything: a queue that stops (see STALL_MS) is reported, not waited for. */
  let lastCall: number;
  try {
    await dropStaleSockets(baseUrl);
    t0 = Date.now();
    await runCron(baseUrl);
    cronMs = Date.now() - t0;
    // Every location's last call answered (watched in this process: nothing asked of the worker meanwhile).
    const deadline = t0 + Math.max(3 * localIdeal * 1000, 120_000);
    let seen = google.requests.length;
    lastCall = Date.now();
    while (google.requests.slice(from).filter((r) => r.path.endsWith("/VoiceOfMerchantState")).length < CLIENTS && Date.now() < deadline && Date.now() - lastCall < STALL_MS) {
      await new Promise((r) => setTimeout(r, 250));
      if (google.requests.length > seen) [seen, lastCall] = [google.requests.length, Date.now()];
    }
  } finally {
    await fetch(`${google.url}/__config`, { method: "POST", body: JSON.stringify({ latencyMs: 0 }) });
  }
  const sinceT0 = iso(t0);
  const read = () =>
    d1<GuardRow>(`select count(*) as n, sum(status = 'checked') as checked, sum(night = '${tonight}') as tonight, sum(attempts = 1) as once, sum(attempts > 1) as again,
      sum(last_checked_at >= '${sinceT0}') as fresh, sum(status = 'failed') as failed, min(claimed_at) as firstClaim, max(last_checked_at) as lastChecked from gbp_guard_locations`)[0]!;
  let row = read();
  // A location still queued or being checked (a retry, a lost message) is waited for a little, then reported as is.
  for (let i = 0; i < 6 && row.checked + row.failed < row.n; i++) {
    await new Promise((r) => setTimeout(r, 5000));
    row = read();
  }
  const calls = new Map<string, { get: number; updated: number; voice: number }>();
  for (const r of google.requests.slice(from)) {
    const m = /^\/v1\/(locations\/[^/:]+)(:getGoogleUpdated|\/VoiceOfMerchantState)?$/.exec(r.path);
    if (!m) continue;
    const c = calls.get(m[1]!) ?? { get: 0, updated: 0, voice: 0 };
    if (m[2] === ":getGoogleUpdated") c.updated += 1;
    else if (m[2] === "/VoiceOfMerchantState") c.voice += 1;
    else c.get += 1;
    calls.set(m[1]!, c);
  }
  const askedOnce = [...calls.values()].filter((c) => c.get === 1 && c.updated === 1 && c.voice === 1).length;
  const askedAgain = [...calls.values()].filter((c) => c.get > 1 || c.updated > 1 || c.voice > 1).length;
  const errors = google.requests.slice(from).filter((r) => r.status >= 400).length;
  const tokens = google.requests.slice(from).filter((r) => r.path === "/token").length;
  const complete = row.checked === row.n;
  const wall = (Date.parse(row.lastChecked) - t0) / 1000;
  const fromClaim = (Date.parse(row.lastChecked) - Date.parse(row.firstClaim)) / 1000;
  const stalled = complete
    ? ""
    : `; NOT COMPLETE: ${row.n - row.checked - row.failed} locations still queued or being checked, Google last asked ${round((Date.now() - lastCall) / 1000, 0)} s before the read (a reload of the local server, on a change under worker/ or dist/client, loses the local queue's messages; the cron sends checks again once their claim is ${GUARD_STALE_CLAIM_MS / 60_000} minutes old)`;
  return [
    {
      name: `guard: ${CLIENTS} locations, cron → last check stored`,
      value: complete ? round(wall, 1) : NaN,
      unit: "s",
      note: `Google answering every call in ${GOOGLE_LATENCY_MS} ms; ${round(fromClaim, 1)} s from the night's claim to the last check stored; the cron run itself ${round(cronMs / 1000, 2)} s${stalled}`,
    },
    { name: "guard: ideal with batches one at a time (wrangler dev's queue)", value: round(localIdeal, 1), unit: "s", note: `${messages} messages of ${GUARD_LOCATIONS_PER_MESSAGE} locations: ${localBatches} batches (max_batch_size ${batch}, its messages side by side) × ${GUARD_LOCATIONS_PER_MESSAGE} locations × ${CALLS_PER_LOCATION} calls × ${GOOGLE_LATENCY_MS} ms` },
    { name: "guard / local ideal", value: complete ? round(wall / localIdeal) : NaN, unit: "×", note: complete ? "target ≤ 1.5×" : "not measured: the guard did not finish" },
    { name: "guard: production ideal (max_concurrency)", value: round(ideal, 1), unit: "s", note: `⌈${messages} / (${batch} × ${concurrency})⌉ batches × ${round(batchMs / 1000, 1)} s` },
    { name: "guard: locations checked tonight", value: row.checked, unit: `of ${row.n}`, note: `${row.tonight} claimed for ${tonight}, ${row.fresh} stored since the cron, ${row.failed} failed; left unchecked: ${row.n - row.checked}` },
    { name: "guard: locations checked once", value: row.once, unit: `of ${row.n}`, note: `one claim each (attempts = 1); ${row.again} claimed again; at Google: ${askedOnce} locations asked each call once, ${askedAgain} asked again, ${calls.size} asked at all` },
    { name: "guard: Google calls per location", value: round(google.requests.slice(from).filter((r) => r.path.startsWith("/v1/locations/")).length / Math.max(1, calls.size), 2), unit: "calls", note: `${tokens} token refreshes, ${errors} answers ≥ 400` },
  ];
}

export const commandCenterSuite: Suite = {
  name: "command-center",
  async run() {
    const google = await startGoogleFake(0);
    const server = await startDevServer({
      port: Number(process.env.BENCH_COMMAND_CENTER_PORT ?? Number(process.env.BENCH_PORT ?? 8798) + 4),
      state: STATE,
      vars: {
        ENVIRONMENT: "development",
        JWT_SECRET: "command-center-secret-command-center-0123",
        ENCRYPTION_KEY: "command-center-encryption-key-command-0123",
        ADMIN_EMAILS: ADMIN,
        GOOGLE_OAUTH_CLIENT_ID: FAKE_GOOGLE_CLIENT_ID,
        GOOGLE_OAUTH_CLIENT_SECRET: FAKE_GOOGLE_CLIENT_SECRET,
        GOOGLE_OAUTH_BASE_URL: google.url,
        GBP_API_BASE_URL: google.url,
      },
    });
    const { baseUrl } = server;
    const figures: Figure[] = [];
    try {
      const admin = { Authorization: `Bearer ${await adminToken(baseUrl, ADMIN, PASSWORD)}` };

      // ——— seeding ———
      const t0 = performance.now();
      const clients: Client[] = [];
      const run = Date.now().toString(36);
      await inGroups(
        Array.from({ length: CLIENTS }, (_, n) => n),
        8,
        async (n) => {
          const made = await signUp(baseUrl, `cc-${run}-${n}@bench.test`, PASSWORD);
          clients.push({ n, id: made.user.id, token: made.access_token, name: `Bench Roofing ${n}` });
        },
      );
      const signedUp = performance.now();
      await inGroups(clients, 8, (c) => connectGoogle(baseUrl, c.token));
      const connected = performance.now();
      const now = Date.now();
      const statements = seedStatements(clients, now, iso(now).slice(0, 10));
      d1File(statements);
      const seeded = performance.now();
      await dropStaleSockets(baseUrl);
      // The cron fills FILL_PER_RUN clients' rows a run (and its attention sweep makes the items); once more at the
      // end for the items the last rows call for.
      const cronTimes: number[] = [];
      const cron = async () => {
        const c0 = performance.now();
        await runCron(baseUrl);
        cronTimes.push(performance.now() - c0);
      };
      for (let i = 0; i < Math.ceil(CLIENTS / FILL_PER_RUN); i++) await cron();
      let unfilled = d1<{ n: number }>("select count(*) as n from profiles p left join client_summaries c on c.user_id = p.id where p.is_admin = 0 and c.refreshed_at is null")[0]!.n;
      for (let i = 0; i < 5 && unfilled > 0; i++) {
        await cron();
        unfilled = d1<{ n: number }>("select count(*) as n from profiles p left join client_summaries c on c.user_id = p.id where p.is_admin = 0 and c.refreshed_at is null")[0]!.n;
      }
      await dropStaleSockets(baseUrl);
      await cron();
      const filled = performance.now();
      // Every fourth client has the admin as its account manager.
      const page = (await json(await fetch(`${baseUrl}/api/agency/clients`, { headers: admin }))) as { admins: { id: string; email: string }[] };
      const adminId = page.admins.find((a) => a.email === ADMIN)?.id;
      if (!adminId) throw new Error("the bench admin is not among the admins");
      await inGroups(
        clients.filter((c) => c.n % 4 === 0),
        8,
        async (c) => {
          const res = await fetch(`${baseUrl}/api/agency/clients/${c.id}`, { method: "PUT", headers: { ...admin, "Content-Type": "application/json" }, body: JSON.stringify({ managerId: adminId }) });
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`setting the manager answered ${res.status}`);
        },
      );
      const counts = d1<{ reviews: number; keywords: number; grids: number; citations: number; ai: number; summaries: number; open: number; closed: number; kinds: string }>(
        `select (select count(*) from reviews) as reviews, (select count(*) from tracked_keywords) as keywords, (select count(*) from grid_scans) as grids,
          (select count(*) from citation_scans) as citations, (select count(*) from ai_scans) as ai, (select count(*) from client_summaries where refreshed_at is not null) as summaries,
          (select count(*) from attention_items where status = 'open') as open, (select count(*) from attention_items where status <> 'open') as closed,
          (select group_concat(kind || ' ' || n, ', ') from (select kind, count(*) as n from attention_items where status = 'open' group by kind)) as kinds`,
      )[0]!;
      cronTimes.sort((a, b) => a - b);
      figures.push(
        { name: `command center seed: ${CLIENTS} clients`, value: round((performance.now() - t0) / 1000, 1), unit: "s", note: `sign-ups ${round((signedUp - t0) / 1000, 1)} s and Google connections ${round((connected - signedUp) / 1000, 1)} s through the app; SQL (${statements.length} statements) ${round((seeded - connected) / 1000, 1)} s; the cron's fill ${round((filled - seeded) / 1000, 1)} s` },
        { name: "command center seeded rows", value: counts.summaries, unit: "client rows", note: `${counts.reviews} reviews, ${counts.keywords} keywords, ${counts.grids} grids, ${counts.citations} citation scans, ${counts.ai} AI scans; attention items: ${counts.open} open (${counts.kinds}), ${counts.closed} closed` },
        { name: "cron run while filling the clients view, p50", value: round(percentile(cronTimes, 50), 0), unit: "ms", note: `${cronTimes.length} runs, up to ${FILL_PER_RUN} clients' rows each (and the attention sweep); max ${round(cronTimes[cronTimes.length - 1]!, 0)} ms` },
      );

      // ——— the routes, beside the bare route ———
      await dropStaleSockets(baseUrl);
      const list = (await json(await fetch(`${baseUrl}/api/agency/clients?sort=health`, { headers: admin }))) as { clients: unknown[]; total: number };
      const queue = (await json(await fetch(`${baseUrl}/api/agency/attention`, { headers: admin }))) as { items: unknown[]; counts: { open: number } };
      // For scale: an authenticated one-row read (the prospects suite's baseline) beside the same bare route.
      const profile = await beside(baseUrl, `${baseUrl}/api/profile`, admin);
      figures.push(
        { name: "authenticated one-row read (GET /api/profile) / bare route, p95", value: round(profile.p95 / profile.bare95), unit: "×", note: `p50 ${round(profile.p50)} ms (${round(profile.p50 / profile.bare50)}× the bare route's ${round(profile.bare50)} ms), p95 ${round(profile.p95)} ms: what any signed-in API route costs here before its own work` },
        ...apiFigures("GET /api/agency/clients (first page)", "?sort=health", await beside(baseUrl, `${baseUrl}/api/agency/clients?sort=health`, admin), `${list.clients.length} of ${list.total} clients`),
        ...apiFigures("GET /api/agency/attention", "open items", await beside(baseUrl, `${baseUrl}/api/agency/attention`, admin), `${queue.items.length} items listed of ${queue.counts.open} open`),
      );

      // ——— the clients view's first paint ———
      const paints = await paintClientsView(baseUrl);
      const fcps = paints.map((p) => p.fcp ?? NaN).sort((a, b) => a - b);
      const rows = paints.map((p) => p.rowsFrame).sort((a, b) => a - b);
      const median = paints.find((p) => p.rowsFrame === percentile(rows, 50))!.load!;
      figures.push(
        { name: "clients view (/admin/clients, 1280 px): first contentful paint p50", value: round(percentile(fcps, 50), 0), unit: "ms", note: `${PAINT_SAMPLES} loads, each a fresh context (cold cache), Chromium headless; max ${round(fcps[fcps.length - 1]!, 0)} ms; target ≤ 1500` },
        { name: "clients view: first rows shown p50", value: round(percentile(rows, 50), 0), unit: "ms", note: `navigation start → the frame after the table's first row is in the page (${paints[0]!.rows} rows); in the page at p50 ${round(percentile(paints.map((p) => p.rowsInPage).sort((a, b) => a - b), 50), 0)} ms; max ${round(rows[rows.length - 1]!, 0)} ms; target ≤ 1500` },
        {
          name: "clients view: its data asked at (median load)",
          value: round(median.apiStart, 0),
          unit: "ms",
          note: `after ${median.files} script and style files (the last done at ${round(median.filesDone, 0)} ms) and ${median.before.join(", ") || "no other API call"}; answered at ${round(median.apiEnd, 0)} ms (this process's clock from the navigation)`,
        },
      );

      // ——— the nightly guard ———
      await dropStaleSockets(baseUrl);
      figures.push(...(await timeGuard(baseUrl, google, now)));
      return figures;
    } catch (error) {
      console.error(server.output().split("\n").slice(-40).join("\n"));
      throw error;
    } finally {
      await server.stop();
      await google.close();
    }
  },
};
