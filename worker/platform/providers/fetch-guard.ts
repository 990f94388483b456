// The one guarded path for every fetch the worker makes on a user's say-so (issue 26): the audit's website reader
// (worker/platform/providers/website.ts, which the citation tracker reuses), webhook deliveries (worker/platform/providers/webhooks.ts)
// and so the widget's website field, which becomes the audit's website.
//
// 1. The address rule on the URL as written (worker/domain/public-address.ts): http(s), default port, no literal private
//    address, no localhost or internal name.
// 2. A host name (not an IP literal, not localhost) is resolved over DNS-over-HTTPS (worker/platform/providers/dns.ts, A and AAAA)
//    and refused when ANY address is not public. A name never counts as loopback, even with AUDIT_ALLOW_LOOPBACK or
//    WEBHOOKS_ALLOW_LOOPBACK: those allowances cover the literal loopback addresses and `localhost` only.
// 3. A resolver that fails or does not answer refuses the fetch (fail closed), with a reason saying so.
// 4. Requests go out with `redirect: "manual"`: a caller that follows a redirect guards each hop again.
//
// The check and the connection resolve separately (the runtime's fetch resolves the name again), so a name that
// rebinds between the two can slip through; on Cloudflare's network a Worker cannot reach private addresses at all,
// so this guard matters where the worker runs elsewhere (wrangler dev, workerd on a server, tests).
import { checkPublicUrl, classifyIp, type AddressDecision, type AddressRefusal } from "../../domain/public-address";
import type { Env } from "../env";
import { resolveHost } from "./dns";

export type GuardRefusal = AddressRefusal | "dns_not_found" | "dns_unavailable";
export type GuardDecision = { ok: true; url: URL; addresses: string[] | null } | { ok: false; code: GuardRefusal; reason: string };

export type GuardOptions = {
  /** AUDIT_ALLOW_LOOPBACK / WEBHOOKS_ALLOW_LOOPBACK: literal loopback and localhost pass (tests, local development). */
  allowLoopback: boolean;
  /** A stricter rule for the URL as written (webhooks: https only); the public-address rule by default. */
  rule?: (input: string) => AddressDecision;
  /** The most the lookup may take (the caller's time left); DNS_TIMEOUT_MS caps it. */
  timeoutMs?: number;
};

/** Whether the host is a name DNS decides (IP literals and localhost are judged as written). */
export function hostNeedsLookup(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/\.+$/, "");
  return classifyIp(host) === null && host !== "localhost" && !host.endsWith(".localhost");
}

/** Decides whether the worker may fetch this URL now: the address rule, then DNS for a host name. */
export async function guardUrl(env: Env, input: string, options: GuardOptions): Promise<GuardDecision> {
  const written = options.rule ? options.rule(input) : checkPublicUrl(input, { allowLoopback: options.allowLoopback });
  if (!written.ok) return written;
  const url = written.url;
  if (!hostNeedsLookup(url)) return { ok: true, url, addresses: null };
  const host = url.hostname.toLowerCase().replace(/\.+$/, "");
  const resolved = await resolveHost(env, host, options.timeoutMs);
  if (!resolved.ok) return { ok: false, code: resolved.code === "not_found" ? "dns_not_found" : "dns_unavailable", reason: `${resolved.reason}.` };
  // Every address must be public; a name resolving to loopback is refused even where loopback literals are allowed.
  const judged = checkPublicUrl(url, { resolvedIps: resolved.addresses });
  if (!judged.ok) return judged;
  return { ok: true, url, addresses: resolved.addresses };
}

export type Fetcher = (url: string, init: RequestInit) => Promise<Response>;

export type GuardedResponse = { ok: true; url: string; response: Response } | { ok: false; code: GuardRefusal; reason: string };

/**
 * Guards the URL, then fetches it without following redirects (`redirect: "manual"`). A refused URL is never requested.
 * Network errors and time-outs are thrown as fetch throws them, for the caller to word.
 */
export async function guardedFetch(env: Env, input: string, init: RequestInit, options: GuardOptions & { fetcher?: Fetcher }): Promise<GuardedResponse> {
  const decision = await guardUrl(env, input, options);
  if (!decision.ok) return decision;
  const fetcher = options.fetcher ?? ((u: string, i: RequestInit) => fetch(u, i));
  const url = decision.url.href;
  return { ok: true, url, response: await fetcher(url, { ...init, redirect: "manual" }) };
}
