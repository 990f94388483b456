// The monthly report's Google section (issue 30) against the fake Business Profile Performance API, built from its
// documented answers: the month's totals per metric beside the month before, a metric Google leaves out shown as not
// given, the search terms over two pages (one under Google's threshold), a refused token, and no connection.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { gbpPerformanceFor } from "../../../worker/features/client-reports/gbp-performance";
import { openSecret } from "../../../worker/platform/crypto/secret-box";
import { getDb } from "../../../worker/platform/db/client";
import type { Env } from "../../../worker/platform/env";
import { connectedGoogleUser } from "./google-connect";
import { signUp } from "../helpers";

/** The fake's series, computed here on its own: each metric's base plus day % 3 plus month % 2, and 0 every 7th day. */
function expectedTotal(base: number, year: number, month: number): number {
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  let n = 0;
  for (let day = 1; day <= days; day++) if (day % 7 !== 0) n += base + (day % 3) + (month % 2);
  return n;
}

describe("Google performance for a month", () => {
  it("gives the month and the month before per metric, from one call, with the search terms", async () => {
    const user = await connectedGoogleUser();
    const section = await gbpPerformanceFor(env, getDb(env), user.user.id, "2026-10");
    expect(section.status).toBe("ok");
    if (section.status !== "ok") return;
    expect(section.location).toEqual({ name: "accounts/1001/locations/2001", title: "Ridge Roofing — Austin" });
    expect(section.current.calls).toBe(expectedTotal(2, 2026, 10));
    expect(section.previous.calls).toBe(expectedTotal(2, 2026, 9));
    expect(section.current.websiteClicks).toBe(expectedTotal(5, 2026, 10));
    expect(section.current.directions).toBe(expectedTotal(1, 2026, 10));
    expect(section.current.impressions.search).toBe(expectedTotal(50, 2026, 10) + expectedTotal(30, 2026, 10));
    expect(section.current.impressions.maps).toBe(expectedTotal(40, 2026, 10) + expectedTotal(20, 2026, 10));
    expect(section.current.impressions.total).toBe(section.current.impressions.search! + section.current.impressions.maps!);
    // Google left conversations out: not given, not zero.
    expect(section.current.conversations).toBeNull();
    expect(section.keywords).toEqual([
      { keyword: "roofer near me", impressions: 412, threshold: null },
      { keyword: "roof repair austin", impressions: 96, threshold: null },
      { keyword: "ridge roofing", impressions: 58, threshold: null },
      { keyword: "metal roof installers", impressions: 21, threshold: null },
      { keyword: "emergency roof tarp", impressions: null, threshold: 15 },
    ]);
  });

  it("says the token was refused when Google no longer accepts the connection, and asks for a reconnect", async () => {
    const user = await connectedGoogleUser();
    const row = (await env.DB.prepare("select id, refresh_token_ciphertext from gbp_connections where user_id = ?").bind(user.user.id).first<{ id: string; refresh_token_ciphertext: string }>())!;
    // The person removes the app's access in their Google account (this grant only: other files share the fake).
    const refreshToken = await openSecret(env as Env, "google-token", `${row.id}:refresh`, row.refresh_token_ciphertext);
    expect((await fetch(`${env.TEST_GOOGLE_BASE_URL}/revoke?token=${encodeURIComponent(refreshToken)}`, { method: "POST" })).status).toBe(200);
    await env.DB.prepare("update gbp_connections set access_expires_at = ? where user_id = ?").bind(new Date(0).toISOString(), user.user.id).run();
    expect(await gbpPerformanceFor(env, getDb(env), user.user.id, "2026-10")).toEqual({ status: "token_refused" });
    const after = await env.DB.prepare("select status from gbp_connections where user_id = ?").bind(user.user.id).first<{ status: string }>();
    expect(after?.status).toBe("needs_reconnect");
  });

  it("without a connection the section is the connect explainer", async () => {
    const user = await signUp();
    expect(await gbpPerformanceFor(env, getDb(env), user.user.id, "2026-10")).toEqual({ status: "not_connected" });
  });
});
