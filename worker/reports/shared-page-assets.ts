// The edge-rendered pages' own script and stylesheet: the hashed tags Vite wrote into dist/client/shared-report.html
// (and client-report.html, the monthly client report's), read once per isolate through the ASSETS binding and copied
// into every page the worker renders.
import type { Env } from "../env";
import { log } from "../log";

export type PageAssets = {
  /** `<link rel="stylesheet">`, `<link rel="modulepreload">` and `<script type="module">` tags, as built. */
  tags: string[];
  /** Changes with every build: part of the HTML cache key and ETag, so no page points at gone assets. */
  build: string;
  /** A `Link` header value preloading the stylesheet(s), or "" when there are none. */
  preload: string;
};

/** The Vite inputs (web/<name>.html), as the assets binding serves them (html_handling drops ".html"). */
export type PageTemplate = "shared-report" | "client-report";
export const SHARED_PAGE_TEMPLATE = "/shared-report";
/** In the template, so the SPA's index.html (the not-found fallback) is never taken for it. */
export const TEMPLATE_MARKER = '<meta name="porchlight-template" content="shared-report"';
const templateMarker = (name: PageTemplate) => `<meta name="porchlight-template" content="${name}"`;
const NO_ASSETS: PageAssets = { tags: [], build: "none", preload: "" };
const RETRY_MS = 30_000;

const memo = new Map<PageTemplate, { assets: PageAssets; at: number }>();

/** The asset tags of a built template; only same-origin /assets/ URLs are taken. */
export function assetTags(html: string): string[] {
  const tags: string[] = [];
  for (const m of html.matchAll(/<(?:script\b[^>]*\bsrc|link\b[^>]*\bhref)="(\/assets\/[^"]+)"[^>]*>/g)) {
    const url = m[1]!;
    if (m[0].startsWith("<script")) tags.push(`<script type="module" src="${url}"></script>`);
    else if (/rel="stylesheet"/.test(m[0])) tags.push(`<link rel="stylesheet" href="${url}">`);
    else if (/rel="modulepreload"/.test(m[0])) tags.push(`<link rel="modulepreload" href="${url}">`);
  }
  return tags;
}

function preloadHeader(tags: string[]): string {
  return tags
    .flatMap((tag) => {
      const m = /^<link rel="stylesheet" href="([^"]+)">$/.exec(tag);
      return m ? [`<${m[1]}>; rel=preload; as=style`] : [];
    })
    .join(", ");
}

function buildId(tags: string[]): string {
  let h = 0;
  for (const ch of tags.join("")) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return (h >>> 0).toString(36);
}

/**
 * The tags, or none when the web app is not built (worker tests): the page is complete without them,
 * only not interactive. A missing build is asked for again after RETRY_MS.
 */
export async function sharedPageAssets(env: Env, requestUrl: string, now = Date.now(), template: PageTemplate = "shared-report"): Promise<PageAssets> {
  const known = memo.get(template);
  if (known && (known.assets !== NO_ASSETS || now - known.at < RETRY_MS)) return known.assets;
  let assets = NO_ASSETS;
  try {
    const res = await env.ASSETS?.fetch(new URL(`/${template}`, requestUrl));
    if (res?.ok) {
      const html = await res.text();
      const tags = html.includes(templateMarker(template)) ? assetTags(html) : [];
      if (tags.length) assets = { tags, build: buildId(tags), preload: preloadHeader(tags) };
    } else {
      await res?.body?.cancel();
    }
  } catch (error) {
    log.warn("shared page assets unavailable", {}, error);
  }
  memo.set(template, { assets, at: now });
  return assets;
}

export function forgetPageAssets() {
  memo.clear();
}
