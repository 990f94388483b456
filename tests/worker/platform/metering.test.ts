// The meter: every cap (user, report, address, global) refuses before the provider is called (the fakes count their
// calls), 50-way parallel bursts overshoot no cap by more than one reservation, a failed or broken call releases
// what it reserved, settled cost equals the fake's usage, TTS speaks only what the server wrote, and every place
// that calls a paid provider is in a table (a new one without the meter fails here).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../worker/platform/db/client";
import { readCounter } from "../../../worker/platform/metering/store";
import { type ChatStreamEvent, type VoiceLine } from "../../../worker/features/chat/rules/chat";
import { buildPostPrompt, POST_MAX_TOKENS, PostRequest } from "../../../worker/features/content/rules/facebook-post";
import {
  actualMicro,
  ANONYMOUS_ADDRESS_HOURLY_USD,
  estimateMicro,
  globalCapKey,
  REPORT_DAILY_USD,
  reportCapKey,
  toMicro,
  userCapKey,
  type PaidCall,
  type Payer,
} from "../../../worker/domain/metering";
import { costFor } from "../../../worker/domain/usage-cost";
import type { AiVisibilityMessage, Env, ReviewsMessage, UsageEventMessage } from "../../../worker/platform/env";
import type { ResolvedAiBusiness } from "../../../worker/features/ai-visibility/business";
import { reserveCall } from "../../../worker/platform/metering/meter";
import { api, callWorker, signUp, signUpAdmin, sseEvents, testIp, type WorkerCall } from "../helpers";
import { recorder, seedReport } from "../reports/reports-fixtures";

type Overrides = Partial<Env>;
const AI_ON: Overrides = { AI_API_KEY: "test-key", ELEVENLABS_API_KEY: "test-voice-key" };

/** A request with AI, voice and search configured against the fakes, recording the usage events it sends. */
async function call(path: string, init: WorkerCall = {}, overrides: Overrides = {}) {
  const usage = recorder<UsageEventMessage>();
  const res = await callWorker(path, init, { USAGE_EVENTS: usage.queue, ...AI_ON, ...overrides });
  return { ...res, usage: usage.sent };
}

const events = (text: string) => sseEvents<ChatStreamEvent>(text);

/** Requests a fake received whose body mentions `mark` (fakes are shared by every test file: count only ours). */
async function providerCalls(service: "ai" | "search" | "tts", mark: string): Promise<number> {
  const origin = { ai: env.AI_BASE_URL!.replace(/\/v1$/, ""), search: env.SERPAPI_BASE_URL!, tts: env.ELEVENLABS_BASE_URL! }[service];
  const res = await fetch(`${origin}/__requests`);
  const { requests } = (await res.json()) as { requests: unknown[] };
  return requests.filter((r) => JSON.stringify(r).includes(mark)).length;
}

const PROFILE = (mark: string) => ({
  company_name: `Ridge Roofing ${mark}`,
  company_location: "Austin, TX",
  company_category: "Roofing",
  company_description: "Family-owned roofers since 1998.",
});
/** A user's own business as an AI Visibility scan asks about it (issue 29). */
function aiBusiness(userId: string, mark: string): ResolvedAiBusiness {
  return {
    owner: { kind: "own", userId },
    ownerKey: `own:${userId}`,
    business: { name: `Ridge ${mark}`, website: null, phone: null, gbpUrl: null, category: "roofer", area: "Austin, TX", location: { city: "Austin", region: "TX", country: "US" } },
    auditCompetitors: [],
  };
}

const POST = { description: "Spring roof check-up offer", tone: "casual", length: "short" };

async function userWithProfile(admin = false) {
  const made = admin ? await signUpAdmin() : await signUp();
  const mark = `m${crypto.randomUUID().slice(0, 8)}`;
  await api("/api/profile", { method: "PUT", token: made.session.access_token, body: JSON.stringify(PROFILE(mark)) });
  return { ...made, mark };
}

function postEstimate(mark: string): number {
  const prompt = buildPostPrompt({ ...PROFILE(mark), company_logo_url: null }, PostRequest.parse(POST));
  return estimateMicro({ kind: "ai", model: env.AI_MODEL_POST!, prompt, maxTokens: POST_MAX_TOKENS });
}

async function setOverride(userId: string, usd: number) {
  await env.DB.prepare("insert into ai_budgets (user_id, monthly_usd) values (?, ?) on conflict(user_id) do update set monthly_usd = excluded.monthly_usd")
    .bind(userId, usd)
    .run();
}

/** Fills a counter to `micro` (as settled spend), the way earlier calls would have. */
async function fillCounter(key: string, micro: number) {
  await env.DB.prepare(
    "insert into meter_counters (key, settled_micro, expires_at) values (?, ?, '2999-01-01') on conflict(key) do update set settled_micro = excluded.settled_micro, reserved_micro = 0",
  )
    .bind(key, micro)
    .run();
}

const total = (c: { reservedMicro: number; settledMicro: number }) => c.reservedMicro + c.settledMicro;
const usd = (micro: number) => `$${(micro / 1e6).toFixed(6)}`;
const ask = (content: string, extra: Record<string, unknown> = {}) => ({ messages: [{ role: "user", content }], ...extra });

describe("each cap refuses before the provider is called", () => {
  it("user: past the allowance a post is written from the template, with the ai_budget_exceeded message, and the AI is never asked", async () => {
    const { session, user, mark } = await userWithProfile();
    await setOverride(user.id, 0.000001);
    const res = await call("/api/posts/facebook", { method: "POST", json: POST, token: session.access_token });
    expect(res.status).toBe(201);
    expect(res.body.post.source).toBe("template");
    expect(res.body.notice).toMatch(/^You have used your monthly AI budget of < \$0\.01\. AI features are paused until .* This post was written from a template\.$/);
    expect(await providerCalls("ai", mark)).toBe(0);
    expect(res.usage).toHaveLength(0);
  });

  it("report: a shared chat whose report used its daily cap answers from the local responder, the AI never asked", async () => {
    const seeded = await seedReport();
    await fillCounter(reportCapKey(seeded.id, new Date()), toMicro(REPORT_DAILY_USD));
    const res = await call(`/api/shared/chat/${seeded.id}/messages`, { method: "POST", json: ask("hello"), stream: true });
    const done = events(res.text).find((e) => e.type === "done")!;
    expect(done).toMatchObject({ mode: "fallback", reason: "daily_cap" });
    expect(await providerCalls("ai", seeded.prospect.name)).toBe(0);
    const boot = await call(`/api/shared/chat/${seeded.id}`);
    expect(boot.body.daily_cap_reached).toBe(true);
  });

  it("address: an anonymous address past its hourly share gets the local responder, the AI never asked", async () => {
    const seeded = await seedReport();
    const ip = testIp();
    const now = new Date();
    await fillCounter(`address:${ip}:${now.toISOString().slice(0, 13)}`, toMicro(ANONYMOUS_ADDRESS_HOURLY_USD));
    const res = await call(`/api/shared/chat/${seeded.id}/messages`, { method: "POST", json: ask("hello"), ip });
    expect(res.body).toMatchObject({ mode: "fallback", reason: "address_cap" });
    expect(await providerCalls("ai", seeded.prospect.name)).toBe(0);
  });

  it("global: past SPEND_CEILING_DAILY_USD posts, chat, search and voice all answer their fallback and say why", async () => {
    const ceiling: Overrides = { SPEND_CEILING_DAILY_USD: "0" };
    const { session, mark } = await userWithProfile();
    const post = await call("/api/posts/facebook", { method: "POST", json: POST, token: session.access_token }, ceiling);
    expect(post.body.post.source).toBe("template");
    expect(post.body.notice).toContain("AI spending limit for today");
    expect(await providerCalls("ai", mark)).toBe(0);

    const seeded = await seedReport();
    const chat = await call(`/api/shared/chat/${seeded.id}/messages`, { method: "POST", json: ask("hi"), stream: true }, ceiling);
    const done = events(chat.text).find((e) => e.type === "done")!;
    expect(done).toMatchObject({ mode: "fallback", reason: "spend_ceiling" });
    expect(await providerCalls("ai", seeded.prospect.name)).toBe(0);

    const keyword = `plumber ${mark}`;
    const search = await call(`/api/tools/google-results?keyword=${encodeURIComponent(keyword)}&location=Austin`, { token: session.access_token }, ceiling);
    expect(search.body).toMatchObject({ sample: true, error: expect.stringContaining("AI spending limit") });
    expect(await providerCalls("search", mark)).toBe(0);

    const line = done.voice[0]!;
    const voice = await call("/api/tts", { method: "POST", json: { ...line, report_id: seeded.id } }, ceiling);
    expect(voice.status).toBe(402);
    expect(voice.body.error.code).toBe("spend_ceiling_reached");
    expect(await providerCalls("tts", line.text.slice(0, 20))).toBe(0);
  });
});

describe("the benchmark's unmetered baseline", () => {
  it("exists only in development: elsewhere X-Bench-Unmetered is ignored and the meter still refuses", async () => {
    const { session, user, mark } = await userWithProfile();
    await setOverride(user.id, 0);
    const headers = { "X-Bench-Unmetered": "1" };
    const prod = await call("/api/posts/facebook", { method: "POST", json: POST, token: session.access_token, headers }, { ENVIRONMENT: "production", APP_ORIGIN: "https://app.example" });
    expect(prod.body.post.source).toBe("template");
    expect(await providerCalls("ai", mark)).toBe(0);
  });
});

describe("parallel bursts (50 at once) overshoot no cap by more than one reservation", () => {
  const figures: string[] = [];

  it("user allowance: 50 parallel posts by one user", async () => {
    const { session, user, mark } = await userWithProfile();
    const estimate = postEstimate(mark);
    const capMicro = Math.floor(estimate * 5.5);
    await setOverride(user.id, capMicro / 1e6);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => call("/api/posts/facebook", { method: "POST", json: POST, token: session.access_token })),
    );
    const reached = await providerCalls("ai", mark);
    const ai = results.filter((r) => r.body.post?.source === "ai").length;
    const counter = await readCounter(getDb(env), userCapKey(user.id, new Date()));
    expect(counter.reservedMicro).toBe(0);
    expect(reached).toBe(ai);
    expect(reached).toBeLessThanOrEqual(5);
    expect(reached).toBeGreaterThan(0);
    expect(total(counter)).toBeLessThanOrEqual(capMicro + estimate);
    figures.push(`user: 50 attempted, ${reached} reached the provider, cap ${usd(capMicro)}, settled ${usd(counter.settledMicro)}, over by ${usd(Math.max(0, total(counter) - capMicro))}`);
  });

  it("report daily cap: 50 parallel public chat messages from 50 addresses", async () => {
    const seeded = await seedReport();
    const key = reportCapKey(seeded.id, new Date());
    // Room for about five replies: the counter starts that close to the cap.
    const probe = estimateMicro({ kind: "ai", model: env.AI_MODEL_CHAT!, prompt: "x".repeat(2_000), maxTokens: 1_000 });
    const capMicro = toMicro(REPORT_DAILY_USD);
    await fillCounter(key, capMicro - probe * 5);
    const before = await readCounter(getDb(env), key);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => call(`/api/shared/chat/${seeded.id}/messages`, { method: "POST", json: ask("What does a roof cost?") })),
    );
    const reached = await providerCalls("ai", seeded.prospect.name);
    const ai = results.filter((r) => r.body.mode === "ai").length;
    expect(results.filter((r) => r.body.reason === "daily_cap").length).toBe(50 - ai);
    const after = await readCounter(getDb(env), key);
    expect(after.reservedMicro).toBe(0);
    expect(reached).toBe(ai);
    expect(reached).toBeGreaterThan(0);
    expect(total(after)).toBeLessThanOrEqual(capMicro + probe);
    figures.push(
      `report: 50 attempted, ${reached} reached the provider, cap ${usd(capMicro)} (${usd(capMicro - total(before))} left before), over by ${usd(Math.max(0, total(after) - capMicro))}`,
    );
  });

  it("address and global caps: 50 parallel reservations straight through the meter", async () => {
    const call: PaidCall = { kind: "tts", characters: 100 };
    const each = estimateMicro(call);
    const ip = `203.0.113.${Math.floor(Math.random() * 250)}`;
    const report = await seedReport();
    const visitor: Payer = { kind: "visitor", reportId: report.id, address: ip };
    const addressKey = `address:${ip}:${new Date().toISOString().slice(0, 13)}`;
    const addressCap = toMicro(ANONYMOUS_ADDRESS_HOURLY_USD);
    const got = await Promise.all(Array.from({ length: 50 }, () => reserveCall(env as Env, visitor, call)));
    const taken = got.filter((g) => g.ok).length;
    const address = await readCounter(getDb(env), addressKey);
    expect(taken).toBe(Math.min(50, Math.floor(addressCap / each)));
    expect(total(address)).toBeLessThanOrEqual(addressCap);
    figures.push(`address: 50 attempted, ${taken} reserved, cap ${usd(addressCap)}, over by ${usd(Math.max(0, total(address) - addressCap))}`);
    await Promise.all(got.map((g) => (g.ok ? g.ticket.release() : undefined)));

    // The global ceiling, set a few reservations above today's total.
    const globalKey = globalCapKey(new Date());
    const start = total(await readCounter(getDb(env), globalKey));
    const ceilingMicro = start + each * 7 + 1;
    const admin = await signUpAdmin();
    const payer: Payer = { kind: "user", userId: admin.user.id, allowanceUsd: null, pool: "agency", emailConfirmed: true };
    const e = { ...env, SPEND_CEILING_DAILY_USD: String(ceilingMicro / 1e6) } as Env;
    const burst = await Promise.all(Array.from({ length: 50 }, () => reserveCall(e, payer, call)));
    const globalTaken = burst.filter((g) => g.ok).length;
    const globalAfter = total(await readCounter(getDb(env), globalKey));
    expect(globalTaken).toBeLessThanOrEqual(7);
    expect(globalAfter).toBeLessThanOrEqual(ceilingMicro);
    figures.push(`global: 50 attempted, ${globalTaken} reserved, ${usd(ceilingMicro - start)} left under the ceiling, over by ${usd(Math.max(0, globalAfter - ceilingMicro))}`);
    await Promise.all(burst.map((g) => (g.ok ? g.ticket.release() : undefined)));
    // The closing note's figures.
    console.log(`burst figures:\n  ${figures.join("\n  ")}`);
  });
});

describe("settle and release", () => {
  it("settled cost equals the fake's usage (its token counts at the model's price) and nothing stays reserved", async () => {
    const { session, user } = await userWithProfile();
    const res = await call("/api/posts/facebook", { method: "POST", json: POST, token: session.access_token });
    expect(res.body.post.source).toBe("ai");
    const event = res.usage[0]!;
    const counter = await readCounter(getDb(env), userCapKey(user.id, new Date()));
    expect(counter).toEqual({
      reservedMicro: 0,
      settledMicro: actualMicro({ kind: "ai", model: event.model, inputTokens: event.input_tokens, outputTokens: event.output_tokens }),
    });
    expect(counter.settledMicro).toBe(toMicro(costFor(event.model, event.input_tokens, event.output_tokens)));
    const panel = (await api("/api/usage", { token: session.access_token })).body.stats.budget;
    expect(panel).toMatchObject({ plan: "Free", monthly_usd: 1, reserved_usd: 0, spent_usd: counter.settledMicro / 1e6, over: false });
  });

  it("a failed call releases its reservation; a stream that broke mid-way settles what came", async () => {
    const { session, user } = await userWithProfile();
    const failed = await call("/api/posts/facebook", { method: "POST", json: { ...POST, description: "Offer [fake:500]" }, token: session.access_token });
    expect(failed.status).toBe(502);
    // The provider's own text is logged, never returned.
    expect(failed.body.error.message).not.toContain("The server had an error");
    expect(await readCounter(getDb(env), userCapKey(user.id, new Date()))).toEqual({ reservedMicro: 0, settledMicro: 0 });

    const admin = await signUpAdmin();
    const seeded = await seedReport();
    const cut = await call(`/api/chat/${seeded.id}/messages`, { method: "POST", json: ask("hello [fake:stream-cut]"), token: admin.session.access_token, stream: true });
    expect(events(cut.text).some((e) => e.type === "replace")).toBe(true);
    const counter = await readCounter(getDb(env), userCapKey(admin.user.id, new Date()));
    expect(counter.reservedMicro).toBe(0);
    expect(counter.settledMicro).toBeGreaterThan(0);
  });

  it("the cron settles a reservation whose settle never ran at its estimate (the provider likely billed), once", async () => {
    const { user } = await signUp();
    const payer: Payer = { kind: "user", userId: user.id, allowanceUsd: 1, pool: "free", emailConfirmed: true };
    const got = await reserveCall(env as Env, payer, { kind: "search" });
    expect(got.ok).toBe(true);
    const key = userCapKey(user.id, new Date());
    const estimate = estimateMicro({ kind: "search" });
    expect((await readCounter(getDb(env), key)).reservedMicro).toBe(estimate);
    const { sweepReservations } = await import("../../../worker/platform/metering/meter");
    await sweepReservations(env as Env, Date.now() + 16 * 60_000);
    expect(await readCounter(getDb(env), key)).toEqual({ reservedMicro: 0, settledMicro: estimate });
    // A late settle of the swept reservation changes nothing; a second sweep neither.
    if (got.ok) await got.ticket.settle({ kind: "search", calls: 1 });
    await sweepReservations(env as Env, Date.now() + 32 * 60_000);
    expect(await readCounter(getDb(env), key)).toEqual({ reservedMicro: 0, settledMicro: estimate });
  });
});

describe("a visitor who leaves mid-call (issue 26)", () => {
  it("TTS: the call and its settle run under waitUntil, so the reservation settles though the response is never read", async () => {
    const { signVoiceLines } = await import("../../../worker/features/chat/voice-lines");
    const { createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const { default: worker } = await import("../../../worker/index");
    const seeded = await seedReport();
    // The fake voice answers a line with "[fake:slow]" late (tests/fakes/tts-fake.ts).
    const mark = `Our crews replace roofs ${crypto.randomUUID().slice(0, 8)} [fake:slow].`;
    const [line] = await signVoiceLines(env as Env, { kind: "report", reportId: seeded.id }, mark);
    const ctx = createExecutionContext();
    const req = new Request("http://localhost/api/tts", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": testIp() },
      body: JSON.stringify({ ...line, report_id: seeded.id }),
    });
    // The response is never awaited: the visitor closed the page while the provider was still speaking.
    const left = worker.fetch(req, { ...env, ...AI_ON, USAGE_EVENTS: recorder().queue } as never, ctx);
    while ((await providerCalls("tts", "Our crews replace roofs")) === 0) await new Promise((r) => setTimeout(r, 50));
    await waitOnExecutionContext(ctx);
    const counter = await readCounter(getDb(env), reportCapKey(seeded.id, new Date()));
    expect(counter).toEqual({ reservedMicro: 0, settledMicro: actualMicro({ kind: "tts", characters: line!.text.length }) });
    await left;
  });
});

describe("POST /api/tts speaks only what the server wrote", () => {
  async function sharedReply(seeded: { id: string }) {
    const res = await call(`/api/shared/chat/${seeded.id}/messages`, { method: "POST", json: ask("Tell me about your roofs."), stream: true });
    return events(res.text).find((e) => e.type === "done")!.voice;
  }

  it("takes a signed sentence of the reply, metered per report, and refuses free text, edits and other chats' lines", async () => {
    const seeded = await seedReport();
    const voice: VoiceLine[] = await sharedReply(seeded);
    expect(voice.length).toBeGreaterThan(0);
    const line = voice[0]!;
    const ok = await call("/api/tts", { method: "POST", json: { ...line, report_id: seeded.id } });
    expect(ok.status).toBe(200);
    expect(await providerCalls("tts", JSON.stringify(line.text).slice(1, -1))).toBe(1);
    const counter = await readCounter(getDb(env), reportCapKey(seeded.id, new Date()));
    expect(counter.reservedMicro).toBe(0);
    expect(counter.settledMicro).toBeGreaterThanOrEqual(actualMicro({ kind: "tts", characters: line.text.length }));

    const free = await call("/api/tts", { method: "POST", json: { text: "Buy cheap watches now.", token: line.token, report_id: seeded.id } });
    expect(free.status).toBe(403);
    expect(free.body.error.code).toBe("voice_line_refused");
    const noToken = await call("/api/tts", { method: "POST", json: { text: "Free speech.", report_id: seeded.id } });
    expect(noToken.status).toBe(400);
    const forged = await call("/api/tts", { method: "POST", json: { text: line.text, token: `${Math.floor(Date.now() / 1000) + 60}.${"0".repeat(64)}`, report_id: seeded.id } });
    expect(forged.status).toBe(403);
    const other = await seedReport();
    const elsewhere = await call("/api/tts", { method: "POST", json: { ...line, report_id: other.id } });
    expect(elsewhere.status).toBe(403);
    const { session } = await signUp();
    const asUser = await call("/api/tts", { method: "POST", json: line, token: session.access_token });
    expect(asUser.status).toBe(403);
    expect(await providerCalls("tts", "Buy cheap watches")).toBe(0);
  });
});

// Every client function in worker/platform/providers/ that reaches the network is listed here: paid (metered at every call site)
// or deliberately unmetered, with why and what limits it. A new provider function that is in neither list fails.
// askEngine (AI Visibility, issue 29) is paid per call (AI_ENGINE_USD_PER_CALL); its call site, the scan's queue job,
// reserves a PaidCall of kind "ai_engine" first and is listed in PAID_CALL_SITES with its refusal case where it lives.
const PAID_PROVIDER_CALLS = ["chatCompletion", "chatCompletionStream", "searchGoogle", "searchMaps", "searchOrganic", "runPageSpeed", "searchWeb", "synthesizeSpeech", "sendSms", "askEngine"];
const UNMETERED_PROVIDER_CALLS: Record<string, string> = {
  sendMail:
    "mail (Resend/Postmark): billed by the operator's plan, not per call; recovery links 5 an hour per address and 20 per client address, sign-ups 30 an hour per client address, alerts one digest an hour per user, one mail a lead, each message sent once (outbox claim)",
  exchangeCode: "Google OAuth: free; once per sign-in at Google, behind a one-time state that lives 10 minutes",
  refreshAccessToken: "Google OAuth: free; only when the access token is within 2 minutes of expiring",
  revokeToken: "Google OAuth: free; once per disconnect or account deletion",
  listLocations: "Google Business Profile: free (Google's per-project quota); once per connection",
  createLocalPost: "Google Business Profile: free (quota); once per scheduled post, claimed by compare-and-set on the gbp-posts queue",
  getLocalPost: "Google Business Profile: free (quota); the review follow-up of a published post, GBP_RECONCILE_SECONDS apart",
  listReviews: "Google Business Profile: free (quota); a connected business's reviews every 6 hours by the cron, or on Check now, 50 a page",
  updateReviewReply: "Google Business Profile: free (quota); once per approved or auto-published reply, claimed by compare-and-set on the reviews queue",
  deleteReviewReply: "Google Business Profile: free (quota); once per deleted reply, claimed by compare-and-set on the reviews queue",
  fetchDailyMetrics: "Google Business Profile Performance API: free (quota); one call per client report (the month and the month before together), at most monthly per client",
  listSearchKeywords: "Google Business Profile Performance API: free (quota); one to five pages per client report, at most monthly per client",
  getLocationFields: "Google Business Profile: free (quota); the guard's nightly check, once per watched location and night (claimed by compare-and-set on its night), or on Check now",
  getGoogleUpdated: "Google Business Profile: free (quota); the guard's nightly check, once per watched location and night, retried at most 4 times when Google does not answer",
  getVoiceOfMerchantState: "Google Business Profile Verifications API: free (quota); the guard's nightly check, once per watched location and night",
  patchLocation: "Google Business Profile: free (quota); once per accepted or rejected change, a person's click, claimed by compare-and-set (open → accepting/rejecting)",
  verifyTurnstile: "Cloudflare Turnstile siteverify: free; once per widget submission, which the widget's per-address and per-widget limits cap",
  postWebhook: "the agency's own endpoint, not a paid provider: one delivery per event and retry (13 tries over a day), paused after a day of failures",
  guardedFetch:
    "the fetch guard (issue 26) itself: not a provider; every outgoing fetch of a business's site or an agency's webhook goes through it, each within its caller's limits",
  resolveHost:
    "DNS over HTTPS (Cloudflare's resolver by default): free; one A+AAAA lookup per host name per fetch and redirect hop, only for the fetches above",
  readListingPage:
    "a directory's public listing page (the Citation Tracker), not a paid provider: at most 4 pages a source in a scan, a scan at most weekly per business (monthly on Free)",
  getProviderJson:
    "the JSON GET that searchMaps, searchOrganic and runPageSpeed share (worker/platform/providers/json-get.ts): never called on its own, and those are paid",
  fetchWebsite: "the audited business's own site, not a paid provider: one fetch per audit step, an audit at most every 7 days per business",
};

// Every module that calls a paid provider function, and the routes (or queues) that reach it. A new caller of a
// provider that is not listed here fails the first test; a call site without a reservation before it fails the second.
const PAID_CALL_SITES: Record<string, string[]> = {
  "worker/features/content/engine.ts": ["POST /api/posts/facebook", "POST /api/content/:tool"],
  "worker/features/chat/reply.ts": ["POST /api/chat/:reportId/messages", "POST /api/shared/chat/:reportId/messages"],
  "worker/features/reports/generate.ts": ["queue report-jobs"],
  "worker/features/chat/speak.ts": ["POST /api/tts"],
  "worker/features/tools/search.ts": ["GET /api/tools/google-results"],
  "worker/features/audits/steps.ts": ["queue audits"],
  "worker/features/rank/business.ts": ["POST /api/rank/grids", "POST /api/rank/keywords"],
  "worker/features/rank/grid.ts": ["queue rank-checks (grid points)"],
  "worker/features/rank/tracker.ts": ["queue rank-checks (keyword checks)"],
  "worker/features/citations/scan.ts": ["queue citations"],
  "worker/features/review-requests/request-jobs.ts": ["queue reviews (send)"],
  "worker/features/ai-visibility/scan.ts": ["queue ai-visibility"],
  "worker/features/ai-visibility/finish.ts": ["queue ai-visibility (what to do)"],
  "worker/features/client-reports/build.ts": ["queue client-reports (the summary)"],
};
const PAID_CALL = new RegExp(`(?<![\\w.])(${PAID_PROVIDER_CALLS.join("|")})\\(`, "g");
/** Where a top-level block starts: a function, a const (a route chain), or one handler of a chain. */
const BLOCK_START = /^(?:export )?(?:async )?function\*?\s|^(?:export )?const\s|^\s*\.(?:get|post|put|patch|delete)\(/gm;

/** The top-level functions of a module (declaration to the closing brace at column 0), by name. */
function topLevelFunctions(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^(?:export )?(?:async )?function\*?\s+(\w+)[^]*?\n\}/gm)) out.set(m[1]!, m[0]);
  return out;
}

/**
 * The functions of a provider module that reach the network: they fetch (or make the openai SDK's client), go through the
 * fetch guard or the website reader (providers/fetch-guard.ts, providers/website.ts), or call one of the module's own that does.
 */
function networkFunctions(text: string): Set<string> {
  const fns = topLevelFunctions(text);
  const network = new Set([...fns].filter(([, body]) => /(?<![\w.])(fetch|fetcher|new OpenAI|guardedFetch|fetchWebsite|getProviderJson)\(/.test(body.replace(/^[^{]*\{/, ""))).map(([name]) => name));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, body] of fns) {
      if (network.has(name)) continue;
      if ([...network].some((n) => new RegExp(`(?<![\\w.])${n}(?:<[^()]*?>)?\\(`).test(body.replace(/^[^{]*\{/, "")))) {
        network.add(name);
        grew = true;
      }
    }
  }
  return network;
}

/** True when the paid call at `at` is metered: a reservation earlier in its block, or inside the arguments of a metering wrapper. */
function meteredAt(text: string, at: number, wrappers: string[]): boolean {
  const starts = [...text.slice(0, at).matchAll(BLOCK_START)];
  const block = text.slice(starts.at(-1)?.index ?? 0, at);
  if (/(?<![\w.])(reserveCall|reserveLoggedCall|reserveCallsInBatch|reserveLoggedCallsInBatch|metered|meteredProviderCall)\(/.test(block)) return true;
  return wrappers.some((w) => {
    const open = block.lastIndexOf(`${w}(`);
    if (open < 0) return false;
    const args = block.slice(open);
    return args.split("(").length > args.split(")").length;
  });
}

describe("every paid call site is metered", () => {
  const sources = import.meta.glob(["../../../worker/**/*.ts", "!../../../worker/platform/providers/**"], {
    query: "?raw",
    import: "default",
    eager: true,
  }) as Record<string, string>;
  const files = Object.fromEntries(Object.entries(sources).map(([path, text]) => [path.replace(/^(\.\.\/)+/, ""), text]));
  const providerSources = import.meta.glob(["../../../worker/platform/providers/*.ts"], { query: "?raw", import: "default", eager: true }) as Record<string, string>;

  it("every provider function that reaches the network is listed as paid or as deliberately unmetered (with its limits)", () => {
    const exported = new Set<string>();
    for (const text of Object.values(providerSources)) {
      for (const name of networkFunctions(text)) if (new RegExp(`^export (?:async )?function\\*?\\s+${name}\\(`, "m").test(text)) exported.add(name);
    }
    expect([...exported].sort()).toEqual([...PAID_PROVIDER_CALLS, ...Object.keys(UNMETERED_PROVIDER_CALLS)].sort());
    for (const [name, why] of Object.entries(UNMETERED_PROVIDER_CALLS)) expect(why.length, name).toBeGreaterThan(40);
  });

  it("the table lists exactly the modules that call a paid provider", () => {
    expect(Object.keys(files).length).toBeGreaterThan(50);
    const callers = Object.keys(files).filter((f) => [...files[f]!.matchAll(PAID_CALL)].length > 0).sort();
    expect(callers).toEqual(Object.keys(PAID_CALL_SITES).sort());
  });

  it("every call of a paid provider (not only a file's first) has a reservation before it, and nobody reaches a provider with fetch", () => {
    for (const file of Object.keys(PAID_CALL_SITES)) {
      const text = files[file]!;
      // reserveLoggedCall (platform/metering/usage-log.ts) is reserveCall that also logs the settled call by tool (issue 26); the
      // *InBatch forms take the same reservations as statements in the caller's batch (a claim and its reservations);
      // meteredProviderCall there reserves, calls and settles one search or page-speed call.
      expect(text, file).toMatch(/from "(\.\.\/)+platform\/metering\/(meter|usage-log)"/);
      // A module's own metering wrapper: a top-level function that reserves.
      const wrappers = [...topLevelFunctions(text)].filter(([, body]) => /(?<![\w.])(reserveCall|reserveLoggedCall|reserveCallsInBatch|reserveLoggedCallsInBatch|metered|meteredProviderCall)\(/.test(body)).map(([name]) => name);
      const calls = [...text.matchAll(PAID_CALL)];
      expect(calls.length, file).toBeGreaterThan(0);
      for (const call of calls) {
        const line = text.slice(0, call.index).split("\n").length;
        expect(meteredAt(text, call.index!, wrappers), `${file}:${line} ${call[1]}() without a reservation before it`).toBe(true);
      }
    }
    // The free-audit widget's script is text the worker serves to the visitor's browser: its fetch runs there, to the
    // app's own widget API, never from the worker to a provider.
    const BROWSER_SCRIPTS = new Set(["worker/features/widgets/embed.ts"]);
    for (const [file, text] of Object.entries(files)) {
      if (!BROWSER_SCRIPTS.has(file)) expect(/(^|[^.\w])fetch\(/m.test(text), file).toBe(false);
    }
  });

  it("a second, unreserved call in a file that meters its first is caught", () => {
    const text = `async function good(env) {\n  const r = await reserveCall(env, p, c);\n  return searchMaps(env, q, 1);\n}\n\nexport async function bad(env) {\n  return searchMaps(env, q, 1);\n}\n`;
    const calls = [...text.matchAll(PAID_CALL)];
    expect(calls.map((c) => meteredAt(text, c.index!, []))).toEqual([true, false]);
  });

  it("each route in the table is refused by the meter without a provider call", async () => {
    const refusing: Overrides = { SPEND_CEILING_DAILY_USD: "0" };
    const { session, mark } = await userWithProfile(true);
    const seeded = await seedReport(mark);
    const routes: Record<string, () => Promise<boolean>> = {
      "POST /api/posts/facebook": async () =>
        (await call("/api/posts/facebook", { method: "POST", json: POST, token: session.access_token }, refusing)).body.post.source === "template",
      "POST /api/content/:tool": async () =>
        (await call("/api/content/social-plan", { method: "POST", json: { focus: mark }, token: session.access_token }, refusing)).body.item.source === "template",
      "POST /api/chat/:reportId/messages": async () =>
        (await call(`/api/chat/${seeded.id}/messages`, { method: "POST", json: ask("hi"), token: session.access_token }, refusing)).body.reason === "spend_ceiling",
      "POST /api/shared/chat/:reportId/messages": async () =>
        (await call(`/api/shared/chat/${seeded.id}/messages`, { method: "POST", json: ask("hi") }, refusing)).body.reason === "spend_ceiling",
      "POST /api/tts": async () => {
        const reply = await call(`/api/shared/chat/${seeded.id}/messages`, { method: "POST", json: ask("hi") }, refusing);
        return (await call("/api/tts", { method: "POST", json: { ...reply.body.voice[0], report_id: seeded.id } }, refusing)).status === 402;
      },
      "GET /api/tools/google-results": async () =>
        (await call(`/api/tools/google-results?keyword=${mark}&location=Austin`, { token: session.access_token }, refusing)).body.sample === true,
      "queue audits": async () => {
        const { startAudit, processAuditStep } = await import("../../../worker/features/audits/run");
        const sent: unknown[] = [];
        const quiet = { ...env, AUDITS: { send: async (m: unknown) => sent.push(m), sendBatch: async (ms: unknown[]) => sent.push(...ms) } } as unknown as Env;
        const audit = await startAudit(quiet, { kind: "own", prospectId: null, userId: session.user.id, subject: { name: `Ridge ${mark}`, website: null, keyword: `roofer ${mark}`, area: "Austin, TX", phone: null, address: null } });
        const outcome = await processAuditStep({ ...quiet, ...refusing } as Env, audit.id, "find", 1);
        const row = await env.DB.prepare("select status, reason from audit_steps where audit_id = ? and step = 'find'").bind(audit.id).first<{ status: string; reason: string }>();
        return outcome.kind === "ack" && row?.status === "failed" && row.reason.includes("spending limit");
      },
      "POST /api/rank/grids": async () => {
        const res = await call("/api/rank/grids", { method: "POST", json: { own: true, keyword: `plumber ${mark}`, size: 3, radiusMiles: 1 }, token: session.access_token }, refusing);
        return res.status === 402 && res.body.error.code === "allowance_exceeded";
      },
      "POST /api/rank/keywords": async () => {
        const res = await call("/api/rank/keywords", { method: "POST", json: { own: true, keyword: `plumber ${mark}` }, token: session.access_token }, refusing);
        return res.status === 402 && res.body.error.code === "spend_ceiling_reached";
      },
      "queue citations": async () => {
        const { startCitationScan, processCitationSources } = await import("../../../worker/features/citations/scan");
        const quiet = { ...env, CITATIONS: recorder().queue } as unknown as Env;
        const expected = { name: `Ridge ${mark}`, street: "1 Main St", city: "Austin", region: "TX", zip: "78701", phone: "5125550142", website: null, knownPhones: [], knownHosts: [] };
        const scan = await startCitationScan(quiet, { business: { owner: { kind: "own", userId: session.user.id }, ownerKey: `own:${session.user.id}`, name: expected.name, expected, competitors: [], google: null }, userId: session.user.id, trigger: "manual" });
        const outcome = await processCitationSources({ ...quiet, ...refusing } as Env, scan.id, ["yelp", "bbb"], 1);
        const rows = await env.DB.prepare("select status, reason from citation_checks where scan_id = ? and source in ('yelp', 'bbb')").bind(scan.id).all<{ status: string; reason: string }>();
        return outcome.kind === "ack" && rows.results.length === 2 && rows.results.every((r) => r.status === "failed" && r.reason.includes("spending limit"));
      },
      "queue rank-checks (grid points)": async () => {
        const { startGrid, processGridPoints } = await import("../../../worker/features/rank/grid");
        const quiet = { ...env, RANK_CHECKS: recorder().queue } as unknown as Env;
        const business = { kind: "own" as const, prospectId: null, name: `Ridge ${mark}`, area: "Austin, TX", placeId: "ChIJx", latitude: 30.27, longitude: -97.74 };
        const scan = await startGrid(quiet, { resolved: { owner: { kind: "own", userId: session.user.id }, business, website: null }, keyword: `roofer ${mark}`, size: 3, radiusMiles: 1, userId: session.user.id });
        const outcome = await processGridPoints({ ...quiet, ...refusing } as Env, scan.id, [0, 1], 1);
        const rows = await env.DB.prepare("select status, reason from grid_points where scan_id = ? and idx in (0, 1)").bind(scan.id).all<{ status: string; reason: string }>();
        return outcome.kind === "ack" && rows.results.length === 2 && rows.results.every((r) => r.status === "failed" && r.reason.includes("spending limit"));
      },
      "queue rank-checks (keyword checks)": async () => {
        const { processKeywordChecks } = await import("../../../worker/features/rank/tracker");
        const { insertTrackedKeyword } = await import("../../../worker/features/rank/queries");
        const checkId = crypto.randomUUID();
        const business = { kind: "own", prospectId: null, name: `Ridge ${mark}`, area: "Austin, TX", placeId: "ChIJx", latitude: 30.27, longitude: -97.74 };
        const now = new Date().toISOString();
        await insertTrackedKeyword(
          getDb(env),
          { id: crypto.randomUUID(), kind: "own", userId: session.user.id, prospectId: null, ownerKey: `own:${session.user.id}`, business: JSON.stringify(business), website: null, keyword: `roofer ${mark}`, lastCheckAt: now },
          checkId,
        );
        const outcome = await processKeywordChecks({ ...env, ...refusing } as Env, [checkId], 1);
        const row = await env.DB.prepare("select status, map_status, reason from keyword_checks where id = ?").bind(checkId).first<{ status: string; map_status: string; reason: string }>();
        return outcome.kind === "ack" && row?.status === "failed" && row.map_status === "failed" && row.reason.includes("spending limit");
      },
      "queue reviews (send)": async () => {
        // A text review request (issue 28) made while the meter allows nothing: the send job marks it failed with the
        // reason and Twilio (the fake) gets no message.
        const { processReviewRequestSend } = await import("../../../worker/features/review-requests/request-jobs");
        const { FAKE_TWILIO_ACCOUNT_SID, FAKE_TWILIO_AUTH_TOKEN, FAKE_TWILIO_MESSAGING_SERVICE_SID } = await import("../../fakes/twilio-data");
        const reviews = recorder<ReviewsMessage>();
        const sms = { REVIEWS: reviews.queue, TWILIO_ACCOUNT_SID: FAKE_TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN: FAKE_TWILIO_AUTH_TOKEN, TWILIO_MESSAGING_SERVICE_SID: FAKE_TWILIO_MESSAGING_SERVICE_SID, TWILIO_BASE_URL: env.TEST_TWILIO_BASE_URL };
        const settings = { delayMinutes: 0, emailSubject: "", emailTemplate: "", smsTemplate: "", quietStart: "00:00", quietEnd: "00:00", smsEnabled: true, placeId: "ChIJN1t_tDeuEmsRUsoyG83frY4" };
        expect((await call("/api/review-requests/settings", { method: "PUT", json: settings, token: session.access_token }, sms)).status).toBe(200);
        const phone = `+1512555${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;
        const made = await call("/api/review-requests", { method: "POST", json: { name: `Fay ${mark}`, phone }, token: session.access_token }, sms);
        expect(made.status).toBeLessThan(300);
        const ids = reviews.sent.flatMap((m) => (m.kind === "send" ? m.requestIds : []));
        expect(ids.length).toBe(1);
        await processReviewRequestSend({ ...env, ...sms, ...refusing } as unknown as Env, ids, 1);
        const row = await env.DB.prepare("select status, last_error from review_requests where id = ?").bind(ids[0]).first<{ status: string; last_error: string }>();
        const texts = (await (await fetch(`${env.TEST_TWILIO_BASE_URL}/__messages?to=${encodeURIComponent(phone)}`)).json()) as { messages: unknown[] };
        return row?.status === "failed" && row.last_error.includes("spending limit") && texts.messages.length === 0;
      },
      "queue ai-visibility": async () => {
        // An AI Visibility answer (issue 29) asked while the meter allows nothing: failed with the reason, no engine call.
        const { startAiScan, processAiAnswers } = await import("../../../worker/features/ai-visibility/scan");
        const quiet = { ...env, AI_VISIBILITY: recorder<AiVisibilityMessage>().queue } as unknown as Env;
        const scan = (await startAiScan(quiet, { resolved: aiBusiness(session.user.id, mark), userId: session.user.id, questions: [{ id: crypto.randomUUID(), text: `best roofer ${mark}` }], engines: ["google_ai_mode"], samples: 3, trigger: "manual" }))!;
        const ids = (await env.DB.prepare("select id from ai_answers where scan_id = ?").bind(scan.id).all<{ id: string }>()).results.map((r) => r.id);
        const outcome = await processAiAnswers({ ...quiet, ...refusing } as Env, scan.id, ids, 1);
        const rows = await env.DB.prepare("select status, error from ai_answers where scan_id = ?").bind(scan.id).all<{ status: string; error: string }>();
        return outcome.kind === "ack" && rows.results.length === 3 && rows.results.every((r) => r.status === "failed" && r.error.includes("spending limit"));
      },
      "queue ai-visibility (what to do)": async () => {
        // The scan's "What to do" written while the meter allows nothing: the templates write it, and the AI is not called.
        const { startAiScan } = await import("../../../worker/features/ai-visibility/scan");
        const { finishAiScanIfComplete } = await import("../../../worker/features/ai-visibility/finish");
        const quiet = { ...env, AI_VISIBILITY: recorder<AiVisibilityMessage>().queue } as unknown as Env;
        const scan = (await startAiScan(quiet, { resolved: aiBusiness(session.user.id, mark), userId: session.user.id, questions: [{ id: crypto.randomUUID(), text: `best roofer ${mark}` }], engines: ["google_ai_mode"], samples: 3, trigger: "manual" }))!;
        await env.DB.prepare("update ai_answers set status = 'ok', named = '[]', domains = '[\"angi.com\"]' where scan_id = ?").bind(scan.id).run();
        await env.DB.prepare("update ai_scans set done = total where id = ?").bind(scan.id).run();
        await finishAiScanIfComplete({ ...quiet, ...AI_ON, ...refusing } as Env, scan.id);
        const row = await env.DB.prepare("select status, actions_source from ai_scans where id = ?").bind(scan.id).first<{ status: string; actions_source: string }>();
        return row?.status === "done" && row.actions_source === "template";
      },
      "queue client-reports (the summary)": async () => {
        // A monthly client report's summary while the meter allows nothing: the template writes it, and says why (admins).
        const { gatherReport, writeSummary } = await import("../../../worker/features/client-reports/build");
        const refused = { ...env, ...AI_ON, ...refusing } as Env;
        const gathered = await gatherReport(refused, getDb(refused), session.user.id, "2026-10");
        const summary = await writeSummary(refused, getDb(refused), session.user.id, gathered);
        return summary.source === "template" && (summary.note ?? "").includes("refused");
      },
      "queue report-jobs": async () => {
        const { processReportJob } = await import("../../../worker/features/reports/generate");
        const outcome = await processReportJob({ ...env, ...AI_ON, ...refusing } as Env, seeded.id, 1);
        return outcome.kind === "ready" && outcome.source === "template";
      },
    };
    const listed = Object.values(PAID_CALL_SITES).flat().sort();
    expect(Object.keys(routes).sort()).toEqual(listed);
    for (const [route, refused] of Object.entries(routes)) expect(await refused(), route).toBe(true);
    expect(await providerCalls("ai", mark)).toBe(0);
    expect(await providerCalls("search", mark)).toBe(0);
  });
});
