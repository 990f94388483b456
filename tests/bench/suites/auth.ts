// Auth figures: sign-in latency against one PBKDF2 hash, authenticated GET against a bare route.
import { pbkdf2Ms, percentile, requestsPerSecond, round, signUp, timeSequential, type Suite } from "../lib";

export const authSuite: Suite = {
  name: "auth",
  async run({ baseUrl }) {
    const email = `bench-${Date.now()}@example.test`;
    const session = await signUp(baseUrl, email);

    const signIn = await timeSequential(40, async (i) => {
      const res = await fetch(`${baseUrl}/auth/v1/token?grant_type=password`, {
        method: "POST",
        // Spread over addresses so the per-address limit does not cut the run short.
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": `10.8.0.${i % 250}` },
        body: JSON.stringify({ email, password: "correct-horse-battery" }),
      });
      if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
      await res.arrayBuffer();
    });
    const hash = pbkdf2Ms();

    const bare = await requestsPerSecond(`${baseUrl}/auth/v1/health`);
    const d1 = await requestsPerSecond(`${baseUrl}/api/health`);
    const authed = await requestsPerSecond(`${baseUrl}/api/profile`, {
      headers: { Authorization: `Bearer ${session.access_token}` },
    });
    if (authed.non2xx) throw new Error(`authenticated GET had ${authed.non2xx} non-2xx answers`);

    const p50 = percentile(signIn, 50);
    return [
      { name: "sign-in p50", value: round(p50), unit: "ms", note: "40 sequential sign-ins" },
      { name: "sign-in p95", value: round(percentile(signIn, 95)), unit: "ms" },
      { name: "PBKDF2-SHA256 100k, one hash (Node)", value: round(hash), unit: "ms" },
      { name: "sign-in p50 / one hash", value: round(p50 / hash), unit: "×" },
      { name: "bare route (GET /auth/v1/health)", value: round(bare.rps, 0), unit: "req/s", note: "autocannon, 2 connections, median of 3" },
      { name: "authenticated GET /api/profile", value: round(authed.rps, 0), unit: "req/s", note: "JWT verify + session/profile read" },
      { name: "authenticated GET / bare route", value: round(authed.rps / bare.rps), unit: "×" },
      { name: "one D1 query (GET /api/health)", value: round(d1.rps, 0), unit: "req/s", note: "baseline: select 1" },
      { name: "authenticated GET / one D1 query", value: round(authed.rps / d1.rps), unit: "×" },
    ];
  },
};
