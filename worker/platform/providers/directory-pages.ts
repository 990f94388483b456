// A directory's listing page (the Citation Tracker, issue 27), read through the audit's website fetcher: the same
// public-address rules checked before every hop, the same size and time limits. In tests and local development
// (AUDIT_ALLOW_LOOPBACK) CITATIONS_WEB_BASE_URL stands in for the directories' hosts: `https://www.yelp.com/biz/x` is
// requested as `<base>/www.yelp.com/biz/x`, after the real address passed the rules.
import type { Env } from "../env";
import { fetchWebsite, loopbackAllowed, type WebsiteOutcome } from "./website";

function directoryWebBase(env: Env): string | null {
  const base = env.CITATIONS_WEB_BASE_URL?.trim();
  return base && loopbackAllowed(env) ? base.replace(/\/+$/, "") : null;
}

export async function readListingPage(env: Env, url: string, timeoutMs: number): Promise<WebsiteOutcome> {
  const base = directoryWebBase(env);
  if (!base) return fetchWebsite(env, url, timeoutMs);
  return fetchWebsite(env, url, timeoutMs, (target, init) => {
    const u = new URL(target);
    return fetch(`${base}/${u.host}${u.pathname}${u.search}`, init);
  });
}
