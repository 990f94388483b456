// The meter's pure rules as tables: estimates and settled figures per kind, the plan's allowance by subscription
// state and override, which caps a payer is counted against, and which cap refuses.
import { describe, expect, it } from "vitest";
import { itReturnsEqual } from "../each";
import {
  actualMicro,
  allowanceFor,
  capRefusing,
  capsFor,
  estimateMicro,
  freePoolLimitMicro,
  meterSettings,
  mustConfirmEmail,
  poolFor,
  toMicro,
  UNLIMITED_MICRO,
  type Cap,
  type Payer,
  type PayerPool,
} from "../../../worker/domain/metering";
import { costFor, estimateTokens } from "../../../worker/domain/usage-cost";

const SETTINGS = meterSettings({});
const NOW = new Date(Date.UTC(2026, 10, 23, 22, 48, 5));

describe("estimates and settled figures", () => {
  it.each([
    ["AI: the prompt's tokens in and the whole max_tokens out", { kind: "ai" as const, model: "google/gemini-2.5-flash", prompt: "x".repeat(4000), maxTokens: 1000 }, toMicro(costFor("gemini-2.5-flash", 1000, 1000))],
    ["AI on an unknown model: the default row", { kind: "ai" as const, model: "acme/unknown", prompt: "hello", maxTokens: 10 }, toMicro(costFor("default", estimateTokens("hello"), 10))],
    ["voice: by characters ($0.30 per 1,000)", { kind: "tts" as const, characters: 120 }, 36_000],
    ["search: by call ($0.015)", { kind: "search" as const }, 15_000],
  ])("%s", (_name, call, micro) => {
    expect(estimateMicro(call)).toBe(micro);
  });

  it.each([
    ["AI: the provider's tokens at the model's price", { kind: "ai" as const, model: "google/gemini-2.5-flash-lite", inputTokens: 812, outputTokens: 164 }, toMicro(costFor("gemini-2.5-flash-lite", 812, 164))],
    ["voice", { kind: "tts" as const, characters: 1000 }, 300_000],
    ["search", { kind: "search" as const, calls: 2 }, 30_000],
  ])("settles %s", (_name, usage, micro) => {
    expect(actualMicro(usage)).toBe(micro);
  });

  it("never settles an AI call above its estimate when the provider's counts are within the reservation", () => {
    const prompt = "y".repeat(2000);
    expect(actualMicro({ kind: "ai", model: "gemini-2.5-flash", inputTokens: estimateTokens(prompt), outputTokens: 999 })).toBeLessThanOrEqual(
      estimateMicro({ kind: "ai", model: "gemini-2.5-flash", prompt, maxTokens: 1000 }),
    );
  });
});

describe("allowances", () => {
  it.each([
    ["Free, no override", { subscriptionActive: false, overrideUsd: null, isAdmin: false }, { plan: "Free", monthlyUsd: 1, source: "plan" }],
    ["Self Service while active", { subscriptionActive: true, overrideUsd: null, isAdmin: false }, { plan: "Self Service", monthlyUsd: 30, source: "plan" }],
    ["an admin's override above the plan", { subscriptionActive: false, overrideUsd: 5, isAdmin: false }, { plan: "Free", monthlyUsd: 5, source: "override" }],
    ["an admin's override below the plan", { subscriptionActive: true, overrideUsd: 0.5, isAdmin: false }, { plan: "Self Service", monthlyUsd: 0.5, source: "override" }],
    ["an admin without an override: the ceiling only", { subscriptionActive: false, overrideUsd: null, isAdmin: true }, { plan: "Free", monthlyUsd: null, source: "admin" }],
    ["an admin with an override", { subscriptionActive: false, overrideUsd: 2, isAdmin: true }, { plan: "Free", monthlyUsd: 2, source: "override" }],
  ])("%s", (_name, input, expected) => {
    expect(allowanceFor(input, SETTINGS)).toEqual(expected);
  });

  itReturnsEqual("reads the operator's settings %j, with the defaults for missing or bad values", meterSettings, [
    [{}, { ceilingDailyUsd: 25, allowanceFreeUsd: 1, allowanceSelfServiceUsd: 30, freeShare: 0.2 }],
    [{ SPEND_CEILING_DAILY_USD: "40", PLAN_ALLOWANCE_FREE_USD: "0", PLAN_ALLOWANCE_SELF_SERVICE_USD: "12.5" }, { ceilingDailyUsd: 40, allowanceFreeUsd: 0, allowanceSelfServiceUsd: 12.5, freeShare: 0.2 }],
    [{ SPEND_CEILING_FREE_SHARE: "0.5" }, { ceilingDailyUsd: 25, allowanceFreeUsd: 1, allowanceSelfServiceUsd: 30, freeShare: 0.5 }],
    [{ SPEND_CEILING_FREE_SHARE: "3" }, { ceilingDailyUsd: 25, allowanceFreeUsd: 1, allowanceSelfServiceUsd: 30, freeShare: 1 }],
    [{ SPEND_CEILING_DAILY_USD: "lots", PLAN_ALLOWANCE_FREE_USD: "-1", PLAN_ALLOWANCE_SELF_SERVICE_USD: " ", SPEND_CEILING_FREE_SHARE: "-1" }, { ceilingDailyUsd: 25, allowanceFreeUsd: 1, allowanceSelfServiceUsd: 30, freeShare: 0.2 }],
  ]);
});

describe("caps", () => {
  it("a user is counted against their month (uncapped without an allowance) and the global day", () => {
    expect(capsFor({ kind: "user", userId: "u1", allowanceUsd: 1, pool: "paying", emailConfirmed: true }, SETTINGS, NOW)).toEqual([
      { scope: "user", key: "user:u1:2026-11", limitMicro: 1_000_000, expiresAt: "2026-12-01T00:00:00.000Z" },
      { scope: "global", key: "global:2026-11-23", limitMicro: 25_000_000, expiresAt: "2026-11-24T00:00:00.000Z" },
    ]);
    expect(capsFor({ kind: "user", userId: "a1", allowanceUsd: null, pool: "agency", emailConfirmed: true }, SETTINGS, NOW)[0]!.limitMicro).toBe(UNLIMITED_MICRO);
  });

  it("a Free account is counted against the Free pool too: its share of the ceiling (issue 39)", () => {
    expect(capsFor({ kind: "user", userId: "f1", allowanceUsd: 1, pool: "free", emailConfirmed: true }, SETTINGS, NOW).map((c) => [c.scope, c.key, c.limitMicro])).toEqual([
      ["user", "user:f1:2026-11", 1_000_000],
      ["global", "global:2026-11-23", 25_000_000],
      ["free", "free:2026-11-23", 5_000_000],
    ]);
    expect(freePoolLimitMicro(meterSettings({ SPEND_CEILING_DAILY_USD: "40", SPEND_CEILING_FREE_SHARE: "0.25" }))).toBe(10_000_000);
  });

  it("customers spend only with a confirmed address; the agency's work does not wait on it (issue 39)", () => {
    const user = (pool: PayerPool, emailConfirmed: boolean): Payer => ({ kind: "user", userId: "u", allowanceUsd: 1, pool, emailConfirmed });
    expect([mustConfirmEmail(user("free", false)), mustConfirmEmail(user("paying", false)), mustConfirmEmail(user("agency", false))]).toEqual([true, true, false]);
    expect([mustConfirmEmail(user("free", true)), mustConfirmEmail({ kind: "visitor", reportId: "r", address: "a" })]).toEqual([false, false]);
    expect(poolFor({ isAdmin: true, subscriptionActive: false, overrideUsd: null })).toBe("agency");
    expect(poolFor({ isAdmin: false, subscriptionActive: true, overrideUsd: null })).toBe("paying");
    expect(poolFor({ isAdmin: false, subscriptionActive: false, overrideUsd: 5 })).toBe("paying");
    expect(poolFor({ isAdmin: false, subscriptionActive: false, overrideUsd: null })).toBe("free");
  });

  it("a shared report's visitor is counted against the report's day, the address's hour and the global day", () => {
    expect(capsFor({ kind: "visitor", reportId: "r1", address: "2001:db8:1:2::/64" }, SETTINGS, NOW).map((c) => [c.scope, c.key, c.limitMicro, c.expiresAt])).toEqual([
      ["report", "report:r1:2026-11-23", 500_000, "2026-11-24T00:00:00.000Z"],
      ["address", "address:2001:db8:1:2::/64:2026-11-23T22", 250_000, "2026-11-23T23:00:00.000Z"],
      ["global", "global:2026-11-23", 25_000_000, "2026-11-24T00:00:00.000Z"],
    ]);
  });

  it.each([
    ["all have room", [100, 100, 100], null],
    ["the report's day is full", [495_000, 0, 0], "report"],
    ["the address's hour is full", [0, 250_000, 0], "address"],
    ["only the global day is full", [0, 0, 25_000_000], "global"],
  ])("names the cap that refuses: %s", (_name, totals, scope) => {
    const caps: Cap[] = capsFor({ kind: "visitor", reportId: "r1", address: "203.0.113.9" }, SETTINGS, NOW);
    const byKey = new Map(caps.map((c, i) => [c.key, totals[i]!]));
    expect(capRefusing(caps, byKey, 10_000)?.scope ?? null).toBe(scope);
  });
});
