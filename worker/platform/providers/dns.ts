// DNS over HTTPS, JSON API (issue 26): the fetch guard's resolver (worker/platform/providers/fetch-guard.ts). One GET per record
// type, `?name=<host>&type=A|AAAA` with `Accept: application/dns-json`, answered in the schema Google's resolver defined
// and Cloudflare's follows: {Status (the DNS RCODE: 0 NOERROR, 2 SERVFAIL, 3 NXDOMAIN), TC, RD, RA, AD, CD, Question,
// Answer?: [{name, type, TTL, data}], Comment?}. An answer may hold CNAME records (type 5) before the addresses; only A (1)
// and AAAA (28) records are read. DNS_RESOLVER_URL points tests at the fake on loopback; free, so not metered.
import type { Env } from "../env";
import { log } from "../log";

export const DEFAULT_DNS_RESOLVER_URL = "https://cloudflare-dns.com/dns-query";
export const DEFAULT_DNS_TIMEOUT_MS = 3_000;

const TYPE_A = 1;
const TYPE_AAAA = 28;
const NOERROR = 0;
const NXDOMAIN = 3;
/** More addresses than this in one answer is not a web host's record set; the rest are not read. */
const MAX_ADDRESSES = 32;

export type Resolution =
  /** Every A and AAAA address the name has (at least one). */
  | { ok: true; addresses: string[] }
  /** `not_found`: the name does not exist or has no address; `unavailable`: the resolver failed or did not answer. */
  | { ok: false; code: "not_found" | "unavailable"; reason: string };

type DohAnswer = { Status?: unknown; Answer?: unknown };

export function dnsTimeoutMs(env: Env): number {
  const ms = Number(env.DNS_TIMEOUT_MS);
  return ms > 0 ? ms : DEFAULT_DNS_TIMEOUT_MS;
}

function resolverUrl(env: Env): string {
  return env.DNS_RESOLVER_URL?.trim() || DEFAULT_DNS_RESOLVER_URL;
}

type Query = { ok: true; status: number; addresses: string[] } | { ok: false; reason: string };

async function query(env: Env, host: string, type: "A" | "AAAA", timeoutMs: number): Promise<Query> {
  const url = new URL(resolverUrl(env));
  url.searchParams.set("name", host);
  url.searchParams.set("type", type);
  let body: DohAnswer;
  try {
    const res = await fetch(url.href, { headers: { Accept: "application/dns-json" }, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) {
      await res.body?.cancel();
      return { ok: false, reason: `the resolver answered ${res.status}` };
    }
    body = (await res.json()) as DohAnswer;
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    return { ok: false, reason: name === "TimeoutError" || name === "AbortError" ? "the resolver did not answer in time" : "the resolver could not be reached" };
  }
  if (typeof body?.Status !== "number") return { ok: false, reason: "the resolver's answer was not DNS JSON" };
  const wanted = type === "A" ? TYPE_A : TYPE_AAAA;
  const records = Array.isArray(body.Answer) ? (body.Answer as unknown[]) : [];
  const addresses = records
    .filter((r): r is { type: number; data: string } => typeof r === "object" && r !== null && (r as { type?: unknown }).type === wanted && typeof (r as { data?: unknown }).data === "string")
    .slice(0, MAX_ADDRESSES)
    .map((r) => r.data.trim());
  return { ok: true, status: body.Status, addresses };
}

/**
 * Resolves a host name to all of its addresses (A and AAAA, asked together). Fails closed: a resolver that errs, times
 * out or answers SERVFAIL/REFUSED gives `unavailable`, never an empty list the caller could take for "nothing private".
 */
export async function resolveHost(env: Env, host: string, timeoutMs = dnsTimeoutMs(env)): Promise<Resolution> {
  const ms = Math.max(1, Math.min(timeoutMs, dnsTimeoutMs(env)));
  const [a, aaaa] = await Promise.all([query(env, host, "A", ms), query(env, host, "AAAA", ms)]);
  for (const q of [a, aaaa]) {
    if (!q.ok) {
      log.warn("dns: lookup failed", { host, reason: q.reason });
      return { ok: false, code: "unavailable", reason: `${host} could not be looked up just now; try again later` };
    }
  }
  const answers = [a, aaaa] as Array<Extract<Query, { ok: true }>>;
  if (answers.some((q) => q.status !== NOERROR && q.status !== NXDOMAIN)) {
    const status = answers.find((q) => q.status !== NOERROR && q.status !== NXDOMAIN)!.status;
    log.warn("dns: resolver refused the lookup", { host, status });
    return { ok: false, code: "unavailable", reason: `${host} could not be looked up just now; try again later` };
  }
  const addresses = [...answers[0]!.addresses, ...answers[1]!.addresses];
  if (addresses.length === 0) return { ok: false, code: "not_found", reason: `${host} does not exist or has no address` };
  return { ok: true, addresses };
}
