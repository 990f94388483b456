// Issue 39, item 1: unconfirmed sign-ups and Free accounts cannot use up the day's ceiling. The attack itself through
// the meter with the production defaults ($25 a day, $1 a Free month, a 0.2 Free share): 30 unconfirmed sign-ups and
// 10 confirmed Free accounts each spending AI Visibility scans ($0.92), then a paying customer's and the agency's calls; and every paid route refusing an
// unconfirmed account with 403 `email_unconfirmed` before any provider is asked, until its link is opened.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../worker/platform/db/client";
import { readCounter } from "../../../worker/platform/metering/store";
import { freePoolCapKey, globalCapKey, toMicro, type PaidCall } from "../../../worker/domain/metering";
import type { Env } from "../../../worker/platform/env";
import { reserveCall, userPayer } from "../../../worker/platform/metering/meter";
import { api, callWorker, mailedLink, signUp, signUpAdmin, signUpUnconfirmed } from "../helpers";
import { SELF } from "cloudflare:test";

/** The production defaults (wrangler.toml), whatever the test configuration says. */
const DEFAULTS = { ...env, SPEND_CEILING_DAILY_USD: "25", PLAN_ALLOWANCE_FREE_USD: "1", SPEND_CEILING_FREE_SHARE: "0.2" } as Env;
/** One AI Visibility scan's worth ($0.92, the figure), as one call: voice at $0.30 per 1,000 characters. */
const SCAN: PaidCall = { kind: "tts", characters: 3067 };

/** A day no other test touches, so its counters start at zero. */
function freshDay(): Date {
  return new Date(Date.UTC(2100 + Math.floor(Math.random() * 800), Math.floor(Math.random() * 12), 10, 12));
}

async function makePaying(userId: string) {
  await env.DB.prepare("insert into subscriptions (id, user_id, stripe_subscription_id, status, state_event_created) values (?, ?, ?, 'active', 1)")
    .bind(crypto.randomUUID(), userId, `sub_${crypto.randomUUID()}`)
    .run();
}

/** A call that goes through (reserved, then released so the next check starts from the same figures). */
async function goesThrough(userId: string, day: Date): Promise<boolean> {
  const got = await reserveCall(DEFAULTS, await userPayer(DEFAULTS, getDb(env), userId, day), SCAN, day);
  if (got.ok) await got.ticket.release();
  return got.ok;
}

describe("the attack: many accounts spending to stop everyone's paid features (issue 39)", () => {
  it("N unconfirmed accounts, then N confirmed Free accounts each spending their allowance, never stop a paying customer's call", async () => {
    const day = freshDay();
    const db = getDb(env);
    const customer = await signUp();
    await makePaying(customer.user.id);
    const agency = await signUpAdmin();
    const N = 30;
    /** Confirmed Free accounts: a handful more than the Free pool's $5 holds at $0.92 each. */
    const N_FREE = 10;
    /** How many accounts had spent when the paying customer's call was first refused (null: never). */
    let stoppedAfter: number | null = null;
    let accounts = 0;
    const spendings: { code: string | null }[] = [];

    // Sign-ups through the real route (each hashes a password): made ten at a time.
    const unconfirmed = (await Promise.all(Array.from({ length: N / 10 }, () => Promise.all(Array.from({ length: 10 }, () => signUpUnconfirmed()))))).flat();
    for (const attacker of unconfirmed) {
      const got = await reserveCall(DEFAULTS, await userPayer(DEFAULTS, db, attacker.user.id, day), SCAN, day);
      // Before issue 39 the reservation went through: it stays spent (the script let each scan run).
      if (got.ok) await got.ticket.settle({ kind: "tts", characters: 3067 });
      spendings.push({ code: got.ok ? null : got.refusal.code });
      accounts++;
      if (stoppedAfter === null && !(await goesThrough(customer.user.id, day))) stoppedAfter = accounts;
    }
    console.info(`issue 39: unconfirmed accounts it took to stop a paying customer's call: ${stoppedAfter ?? "never"} (of ${N})`);
    // Not one unconfirmed account spent anything: each was refused before any cap, and the day's counters are untouched.
    expect(spendings.every((s) => s.code === "email_unconfirmed")).toBe(true);
    expect(await readCounter(db, globalCapKey(day))).toEqual({ reservedMicro: 0, settledMicro: 0 });

    const confirmed = await Promise.all(Array.from({ length: N_FREE }, () => signUp()));
    for (const attacker of confirmed) {
      // Each spends its month's $1 allowance on scans, as the script did.
      for (;;) {
        const got = await reserveCall(DEFAULTS, await userPayer(DEFAULTS, db, attacker.user.id, day), SCAN, day);
        if (!got.ok) {
          spendings.push({ code: got.refusal.code });
          break;
        }
        await got.ticket.settle({ kind: "tts", characters: 3067 });
      }
      accounts++;
      if (stoppedAfter === null && !(await goesThrough(customer.user.id, day))) stoppedAfter = accounts;
    }
    // Free accounts spent at most their pool's share ($5 of $25): the rest were refused by the Free pool.
    const free = await readCounter(db, freePoolCapKey(day));
    expect(free.settledMicro).toBeLessThanOrEqual(toMicro(5));
    // The first five spent a scan each ($4.60) and were stopped by their own month; the next five by the pool.
    expect(spendings.slice(N).map((s) => s.code)).toEqual([...Array(5).fill("ai_budget_exceeded"), ...Array(N_FREE - 5).fill("free_pool_reached")]);
    console.info(`issue 39: accounts (unconfirmed, then confirmed Free) it took to stop a paying customer's call: ${stoppedAfter ?? "never"} (of ${accounts})`);
    expect(stoppedAfter).toBeNull();
    expect(await goesThrough(agency.user.id, day)).toBe(true);
  }, 60_000);

  it("the Free pool refuses only Free accounts: the paying customer and the agency spend the rest of the ceiling", async () => {
    const day = freshDay();
    const db = getDb(env);
    const freeUser = await signUp();
    const customer = await signUp();
    await makePaying(customer.user.id);
    const admin = await signUpAdmin();
    // The Free pool is full for the day (spent by other Free accounts).
    await env.DB.prepare("insert into meter_counters (key, settled_micro, expires_at) values (?, ?, '2999-01-01')").bind(freePoolCapKey(day), toMicro(5)).run();
    const refused = await reserveCall(DEFAULTS, await userPayer(DEFAULTS, db, freeUser.user.id, day), SCAN, day);
    expect(refused.ok ? null : refused.refusal).toMatchObject({ scope: "free", code: "free_pool_reached" });
    expect(refused.ok ? "" : refused.refusal.message).not.toMatch(/SPEND_CEILING|server|variable/i);
    expect(await goesThrough(customer.user.id, day)).toBe(true);
    expect(await goesThrough(admin.user.id, day)).toBe(true);
  });

  it("an unconfirmed customer's review request mail and text are refused by the meter too (zero-priced calls included)", async () => {
    const day = freshDay();
    const attacker = await signUpUnconfirmed();
    const payer = await userPayer(DEFAULTS, getDb(env), attacker.user.id, day);
    for (const call of [{ kind: "mail" }, { kind: "sms", segments: 1 }, { kind: "search" }] as PaidCall[]) {
      const got = await reserveCall(DEFAULTS, payer, call, day);
      expect(got.ok ? null : got.refusal.code, call.kind).toBe("email_unconfirmed");
    }
    // An admin whose address is unconfirmed (made by `npm run admin:grant`) works for the agency: not refused.
    const admin = await signUpUnconfirmed();
    await env.DB.prepare("update profiles set is_admin = 1 where id = ?").bind(admin.user.id).run();
    expect((await reserveCall(DEFAULTS, await userPayer(DEFAULTS, getDb(env), admin.user.id, day), { kind: "mail" }, day)).ok).toBe(true);
  });
});

describe("every paid route refuses an unconfirmed account with 403 email_unconfirmed", () => {
  const PAID_ROUTES: { route: string; path: string; init: { method?: string; json?: unknown } }[] = [
    { route: "POST /api/posts/facebook", path: "/api/posts/facebook", init: { method: "POST", json: { description: "Spring offer", tone: "casual", length: "short" } } },
    { route: "POST /api/content/:tool", path: "/api/content/social-plan", init: { method: "POST", json: { focus: "spring" } } },
    { route: "GET /api/tools/google-results", path: "/api/tools/google-results?keyword=roofer&location=Austin", init: {} },
    { route: "POST /api/rank/grids", path: "/api/rank/grids", init: { method: "POST", json: { own: true, keyword: "roofer", size: 3, radiusMiles: 1 } } },
    { route: "POST /api/rank/keywords", path: "/api/rank/keywords", init: { method: "POST", json: { own: true, keyword: "roofer" } } },
    { route: "POST /api/citations/scans", path: "/api/citations/scans", init: { method: "POST", json: { business: "own" } } },
    { route: "POST /api/ai-visibility/scans", path: "/api/ai-visibility/scans", init: { method: "POST", json: { business: "own", questions: ["best roofer"], engines: ["perplexity"], samples: 3 } } },
    { route: "POST /api/audits", path: "/api/audits", init: { method: "POST", json: { own: true } } },
    { route: "POST /api/review-requests", path: "/api/review-requests", init: { method: "POST", json: { name: "Fay", email: "fay@example.test" } } },
    { route: "POST /api/reviews/:id/draft", path: `/api/reviews/${crypto.randomUUID()}/draft`, init: { method: "POST" } },
  ];

  it("answers each paid route 403 email_unconfirmed in the customer's words; opening the emailed link lets the same account through", async () => {
    const { session, email } = await signUpUnconfirmed();
    const token = session.access_token;
    await api("/api/profile", { method: "PUT", token, body: JSON.stringify({ company_name: "Ridge Roofing", company_location: "Austin, TX", company_category: "Roofing" }) });
    for (const { route, path, init } of PAID_ROUTES) {
      const res = await callWorker(path, { ...init, token }, { AI_API_KEY: "test-key" });
      expect(res.status, route).toBe(403);
      expect(res.body.error, route).toMatchObject({ code: "email_unconfirmed", message: "Confirm your email address to use this feature: open the link we emailed you, or send the link again." });
    }
    await SELF.fetch(await mailedLink(email, "Confirm your Porchlight email address"), { redirect: "manual" });
    const after = await callWorker("/api/tools/google-results?keyword=roofer&location=Austin", { token }, {});
    expect(after.status).toBe(200);
    expect(after.body.sample).toBe(false);
  });

  it("an admin (the agency's own work) is not held back by an unconfirmed address", async () => {
    const admin = await signUpUnconfirmed();
    await env.DB.prepare("update profiles set is_admin = 1 where id = ?").bind(admin.user.id).run();
    const res = await callWorker("/api/tools/google-results?keyword=roofer&location=Austin", { token: admin.session.access_token }, {});
    expect(res.status).toBe(200);
  });
});
