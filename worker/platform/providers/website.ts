// The audit's website fetch (issue 18, step 2): follows up to 5 redirects by hand, each hop through the fetch guard
// (worker/platform/providers/fetch-guard.ts) BEFORE it is requested: the public-address rule (http(s) only, default ports only,
// no private/loopback/link-local hosts; AUDIT_ALLOW_LOOPBACK lets tests and local development reach loopback literals
// and localhost), then a host name's A and AAAA addresses over DNS-over-HTTPS, all of them public (issue 26). Reads at
// most 2 MB within the time-out, decodes the page's charset and parses it with the platform's streaming HTMLRewriter into
// PageFacts (no DOM library), each kept string capped so a hostile page cannot make an audit row huge.
import type { PageFacts } from "./rules/website";
import type { Env } from "../env";
import { guardedFetch, type Fetcher, type GuardRefusal } from "./fetch-guard";

export const MAX_REDIRECTS = 5;
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;
/** The page's visible text kept for the phone search. */
const MAX_TEXT_CHARS = 200_000;
const MAX_SCRIPT_CHARS = 100_000;
/**
 * Caps on what one page can put in the audit's stored facts (issue 26): within the 2 MB page, a hostile page could
 * otherwise fill the row with a 2 MB title, thousands of JSON-LD blocks, tel: links or Open Graph tags. The checks read
 * far less than these: a title over 60 characters is already too long, a business has a few phone numbers.
 */
export const PAGE_CAPS = {
  /** The title, meta description, viewport, canonical, lang, each Open Graph value. */
  fieldChars: 2_000,
  /** All JSON-LD blocks together; a block that would pass it is left out whole (cut JSON does not parse). */
  jsonLdChars: 100_000,
  jsonLdBlocks: 20,
  telLinks: 50,
  telLinkChars: 200,
  openGraphTags: 50,
} as const;

export type FetchedPage = {
  facts: PageFacts;
  status: number;
  bytes: number;
  /** The page was longer than MAX_PAGE_BYTES: the facts come from its first 2 MB. */
  truncated: boolean;
  charset: string;
};

export type WebsiteOutcome = { ok: true; page: FetchedPage } | { ok: false; reason: string; code: string };

export function loopbackAllowed(env: Env): boolean {
  return env.AUDIT_ALLOW_LOOPBACK === "1" || env.AUDIT_ALLOW_LOOPBACK === "true";
}

/** A website typed without a scheme gets http:// (the fetch then follows the site's own redirect to https). */
export function websiteUrl(raw: string): string {
  const trimmed = raw.trim();
  return /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `http://${trimmed}`;
}

/**
 * Fetches the page. `fetcher` is the platform's fetch; tests pass one that records what would be requested, to prove
 * a refused address is never requested.
 */
export async function fetchWebsite(env: Env, start: string, timeoutMs: number, fetcher: Fetcher = (u, i) => fetch(u, i)): Promise<WebsiteOutcome> {
  const allowLoopback = loopbackAllowed(env);
  const deadline = Date.now() + timeoutMs;
  const chain: string[] = [];
  let current = websiteUrl(start);
  for (let hop = 0; ; hop++) {
    let url: string;
    try {
      url = new URL(current).href;
    } catch {
      url = current;
    }
    if (chain.includes(url)) return { ok: false, code: "redirect_loop", reason: `the site redirects in a loop (${url})` };
    const left = deadline - Date.now();
    if (left <= 0) return timedOut(timeoutMs);
    let res: Response;
    try {
      const got = await guardedFetch(
        env,
        current,
        {
          headers: { Accept: "text/html,application/xhtml+xml", "User-Agent": "PorchlightAudit/1.0 (+https://porchlight.app)" },
          signal: AbortSignal.timeout(left),
        },
        { allowLoopback, timeoutMs: left, fetcher },
      );
      if (!got.ok) return refused(got, hop, current);
      url = got.url;
      res = got.response;
    } catch (error) {
      const name = error instanceof Error ? error.name : "";
      if (name === "TimeoutError" || name === "AbortError") return timedOut(timeoutMs);
      return { ok: false, code: "unreachable", reason: `the site could not be reached (${url})` };
    }
    chain.push(url);
    if (res.status >= 300 && res.status < 400 && res.status !== 304) {
      await res.body?.cancel();
      const location = res.headers.get("Location");
      if (!location) return { ok: false, code: "bad_redirect", reason: `${url} redirects without saying where` };
      if (hop >= MAX_REDIRECTS) return { ok: false, code: "too_many_redirects", reason: `the site redirects more than ${MAX_REDIRECTS} times` };
      try {
        current = new URL(location, url).href;
      } catch {
        return { ok: false, code: "bad_redirect", reason: `${url} redirects to an address that is not valid` };
      }
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      return { ok: false, code: "http_error", reason: `the site answered ${res.status} at ${url}` };
    }
    const type = res.headers.get("Content-Type") ?? "";
    if (type && !/html|xml|text\/plain/i.test(type)) {
      await res.body?.cancel();
      return { ok: false, code: "not_html", reason: `${url} is not a web page (${type.split(";")[0]})` };
    }
    let read: { bytes: Uint8Array; truncated: boolean };
    try {
      read = await readCapped(res, MAX_PAGE_BYTES, deadline);
    } catch (error) {
      const name = error instanceof Error ? error.name : "";
      if (name === "TimeoutError" || name === "AbortError" || (error as { timedOut?: boolean }).timedOut) return timedOut(timeoutMs);
      return { ok: false, code: "unreachable", reason: `the page could not be read (${url})` };
    }
    const charset = pickCharset(type, read.bytes);
    const html = decode(read.bytes, charset);
    const facts = await parsePage(html, chain, res.headers.get("X-Robots-Tag"));
    return { ok: true, page: { facts, status: res.status, bytes: read.bytes.byteLength, truncated: read.truncated, charset } };
  }
}

/** A hop the guard refused: `address_<rule>` for the address rule, `dns_not_found` / `dns_unavailable` for the lookup. */
function refused(got: { code: GuardRefusal; reason: string }, hop: number, url: string): WebsiteOutcome {
  const code = got.code === "dns_not_found" || got.code === "dns_unavailable" ? got.code : `address_${got.code}`;
  return { ok: false, code, reason: hop === 0 ? `the address was refused: ${got.reason}` : `a redirect to ${url} was refused: ${got.reason}` };
}

function timedOut(ms: number): WebsiteOutcome {
  return { ok: false, code: "timeout", reason: `the site did not answer within ${Math.round(ms / 1000)} s` };
}

/** Reads the body as it streams, stopping at `cap` bytes (the rest is never downloaded) or at the deadline. */
async function readCapped(res: Response, cap: number, deadline: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const reader = res.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(0), truncated: false };
  const parts: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) {
      await reader.cancel().catch(() => undefined);
      throw Object.assign(new Error("deadline"), { timedOut: true });
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const chunk = await Promise.race([
      reader.read(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error("deadline"), { timedOut: true })), left);
      }),
    ]).finally(() => clearTimeout(timer));
    if (chunk.done) break;
    const value = chunk.value as Uint8Array;
    if (total + value.byteLength > cap) {
      parts.push(value.subarray(0, cap - total));
      total = cap;
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    parts.push(value);
    total += value.byteLength;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return { bytes, truncated };
}

/** The charset from the Content-Type header, else a <meta charset> in the first 1,024 bytes, else UTF-8. */
export function pickCharset(contentType: string, bytes: Uint8Array): string {
  const fromHeader = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];
  if (fromHeader) return fromHeader.toLowerCase();
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  const fromMeta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  return (fromMeta ?? "utf-8").toLowerCase();
}

/** Windows-1252's 0x80–0x9F (the rest of the byte range is Latin-1), for runtimes whose TextDecoder lacks it. */
const CP1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

/** The labels WHATWG maps to windows-1252 (decoded here: runtimes differ on its 0x80–0x9F range). */
const WINDOWS_1252 = /^(iso-8859-1|iso8859-1|latin1|l1|windows-1252|cp1252|x-cp1252|us-ascii|ascii|iso_8859-1)$/;

export function decode(bytes: Uint8Array, charset: string): string {
  if (WINDOWS_1252.test(charset)) {
    let out = "";
    for (const b of bytes) out += b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : String.fromCharCode(b);
    return out;
  }
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

const ANALYTICS: ReadonlyArray<[RegExp, string]> = [
  [/googletagmanager\.com\/gtm\.js|GTM-[A-Z0-9]+/, "Google Tag Manager"],
  [/googletagmanager\.com\/gtag\/js|gtag\(|google-analytics\.com|\bG-[A-Z0-9]{6,}\b|UA-\d+-\d+/, "Google Analytics"],
  [/plausible\.io/, "Plausible"],
  [/static\.cloudflareinsights\.com/, "Cloudflare Web Analytics"],
  [/usefathom\.com/, "Fathom"],
  [/matomo|piwik/i, "Matomo"],
  [/clarity\.ms/, "Microsoft Clarity"],
  [/connect\.facebook\.net|fbq\(/, "Meta Pixel"],
  [/hotjar\.com/, "Hotjar"],
];

/** Parses the decoded page with HTMLRewriter (streaming, no DOM) into the facts the checks read. */
export async function parsePage(html: string, redirectChain: string[], robotsHeader: string | null = null): Promise<PageFacts> {
  let title: string | null = null;
  let titleBuffer: string | null = null;
  let metaDescription: string | null = null;
  let viewport: string | null = null;
  let canonical: string | null = null;
  let lang: string | null = null;
  let noindex = /noindex/i.test(robotsHeader ?? "");
  let h1Count = 0;
  const jsonLd: string[] = [];
  let jsonLdChars = 0;
  const telLinks: string[] = [];
  const openGraph: Record<string, string> = {};
  let scripts = "";
  let text = "";
  // Text inside <script>, <style>, <template>, <noscript> is not visible text.
  let hidden = 0;
  let jsonBuffer: string | null = null;
  let scriptBuffer: string | null = null;

  const rewriter = new HTMLRewriter()
    .on("html", {
      element(el) {
        lang ??= clip(el.getAttribute("lang")?.trim() ?? "") || null;
      },
    })
    .on("title", {
      element(el) {
        if (title !== null || titleBuffer !== null) return;
        titleBuffer = "";
        el.onEndTag(() => {
          title = clip((titleBuffer ?? "").replace(/\s+/g, " ").trim());
          titleBuffer = null;
        });
      },
      text(chunk) {
        if (titleBuffer !== null && titleBuffer.length <= PAGE_CAPS.fieldChars) titleBuffer += chunk.text;
      },
    })
    .on("meta", {
      element(el) {
        const name = el.getAttribute("name")?.toLowerCase().trim();
        const property = el.getAttribute("property")?.toLowerCase().trim();
        const content = el.getAttribute("content");
        if (content === null) return;
        if (name === "description" && metaDescription === null) metaDescription = clip(decodeEntities(content).trim());
        if (name === "viewport" && viewport === null) viewport = clip(content.trim());
        if ((name === "robots" || name === "googlebot") && /noindex/i.test(content)) noindex = true;
        const og = property?.startsWith("og:") ? property : name?.startsWith("og:") ? name : null;
        if (og && !(og in openGraph) && Object.keys(openGraph).length < PAGE_CAPS.openGraphTags) openGraph[og] = clip(decodeEntities(content).trim());
      },
    })
    .on("link", {
      element(el) {
        const rel = (el.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
        if (rel.includes("canonical") && canonical === null) canonical = clip(el.getAttribute("href")?.trim() ?? "") || null;
      },
    })
    .on("h1", {
      element() {
        h1Count++;
      },
    })
    .on("a[href]", {
      element(el) {
        const href = el.getAttribute("href")?.trim() ?? "";
        if (/^tel:/i.test(href) && telLinks.length < PAGE_CAPS.telLinks) telLinks.push(href.slice(0, PAGE_CAPS.telLinkChars));
      },
    })
    .on("script", {
      element(el) {
        hidden++;
        const src = el.getAttribute("src");
        if (src) scripts += ` ${src}`;
        const isJsonLd = (el.getAttribute("type") ?? "").toLowerCase().trim() === "application/ld+json";
        // JSON-LD past the caps is not buffered at all.
        if (isJsonLd) jsonBuffer = jsonLd.length < PAGE_CAPS.jsonLdBlocks && jsonLdChars < PAGE_CAPS.jsonLdChars ? "" : null;
        else scriptBuffer = "";
        // One end-tag handler per element does all of it.
        el.onEndTag(() => {
          hidden--;
          if (isJsonLd) {
            const block = jsonBuffer?.trim() ?? "";
            if (jsonBuffer !== null && jsonLdChars + block.length <= PAGE_CAPS.jsonLdChars) {
              jsonLd.push(block);
              jsonLdChars += block.length;
            }
            jsonBuffer = null;
          } else {
            if (scriptBuffer !== null && scripts.length < MAX_SCRIPT_CHARS) scripts += ` ${scriptBuffer.slice(0, MAX_SCRIPT_CHARS)}`;
            scriptBuffer = null;
          }
        });
      },
      text(chunk) {
        if (jsonBuffer !== null) {
          // A block longer than what is left of the budget is dropped at its end tag: stop growing it now.
          if (jsonLdChars + jsonBuffer.length <= PAGE_CAPS.jsonLdChars) jsonBuffer += chunk.text;
        } else if (scriptBuffer !== null && scriptBuffer.length <= MAX_SCRIPT_CHARS) scriptBuffer += chunk.text;
      },
    })
    .on("style, template, noscript", {
      element(el) {
        hidden++;
        el.onEndTag(() => {
          hidden--;
        });
      },
    })
    .onDocument({
      text(chunk) {
        if (hidden > 0 || text.length >= MAX_TEXT_CHARS) return;
        text += chunk.text;
        if (chunk.lastInTextNode) text += " ";
      },
    });

  await rewriter.transform(new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } })).arrayBuffer();

  const analytics = ANALYTICS.filter(([pattern]) => pattern.test(scripts)).map(([, name]) => name);
  return {
    redirectChain,
    finalUrl: redirectChain[redirectChain.length - 1] ?? "",
    title: title === null ? null : decodeEntities(title),
    metaDescription,
    h1Count,
    canonical,
    viewport,
    lang,
    noindex,
    jsonLd: jsonLd.map(decodeJsonLdEntities),
    telLinks,
    text: decodeEntities(text.replace(/\s+/g, " ").trim()),
    openGraph,
    analytics,
  };
}

function clip(text: string): string {
  return text.length > PAGE_CAPS.fieldChars ? text.slice(0, PAGE_CAPS.fieldChars) : text;
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'" };

/** HTMLRewriter hands text and attributes over as written in the source: the common entities are decoded here. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** JSON-LD script text is raw text (no entities), but some sites escape "&" anyway; only that one is undone. */
function decodeJsonLdEntities(text: string): string {
  return text.replace(/&amp;/g, "&");
}
