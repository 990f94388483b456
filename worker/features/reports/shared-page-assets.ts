// The edge-rendered pages' own script and stylesheet: the hashed tags Vite wrote into dist/client/shared-report.html
// (and client-report.html, the monthly client report's), read once per isolate through the ASSETS binding and copied
// into every page the worker renders. The client report inlines its stylesheet and loads its script (a view beacon)
// after its first paint, both allowed by their sha256 in the page's CSP: nothing but the HTML stands before its first
// paint on a slow phone (Lighthouse mobile LCP, target ≤ 1.2 s; figures in docs/speed.md).
import { brandThemeCss } from "../../platform/brand/rules/theme";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";

export type PageAssets = {
  /** `<link rel="stylesheet">`, `<link rel="modulepreload">` and `<script type="module">` tags, as built. */
  tags: string[];
  /** Changes with every build: part of the HTML cache key and ETag, so no page points at gone assets. */
  build: string;
  /** A `Link` header value preloading the stylesheet(s) left linked, or "" when there are none. */
  preload: string;
  /** CSP sources (`'sha256-…'`) of the stylesheets inlined as <style>. */
  styleHashes: string[];
  /** CSP sources of the inline script loaders. */
  scriptHashes: string[];
};

/** Stylesheets inlined up to this size (the built one is ~16 KB, ~5 KB gzipped); a larger one stays linked. */
const MAX_INLINE_CSS = 48 * 1024;
/** Which templates inline their stylesheet and load their script after the page (see inlineAssets). */
const INLINE_ASSETS: Record<PageTemplate, boolean> = { "shared-report": false, "client-report": true };

/** The Vite inputs (web/<name>.html), as the assets binding serves them (html_handling drops ".html"). */
export type PageTemplate = "shared-report" | "client-report";
export const SHARED_PAGE_TEMPLATE = "/shared-report";
/** In the template, so the SPA's index.html (the not-found fallback) is never taken for it. */
export const TEMPLATE_MARKER = '<meta name="page-template" content="shared-report"';
const templateMarker = (name: PageTemplate) => `<meta name="page-template" content="${name}"`;
const NO_ASSETS: PageAssets = { tags: [], build: "none", preload: "", styleHashes: [], scriptHashes: [] };
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

/** The URL of a stylesheet tag as `assetTags` writes it, or null for any other tag. */
function stylesheetHref(tag: string): string | null {
  return /^<link rel="stylesheet" href="([^"]+)">$/.exec(tag)?.[1] ?? null;
}

function preloadHeader(tags: string[]): string {
  return tags
    .flatMap((tag) => {
      const href = stylesheetHref(tag);
      return href ? [`<${href}>; rel=preload; as=style`] : [];
    })
    .join(", ");
}

/** A <style> with its CSP source; null for CSS that could end the element early. */
export async function inlineStyle(css: string): Promise<{ tag: string; hash: string } | null> {
  if (/<\/style/i.test(css)) return null;
  return { tag: `<style>${css}</style>`, hash: await sha256Source(css) };
}

const accentStyles = new Map<string, { tag: string; hash: string } | null>();

/** The brand's accent variables as an inline <style> with its CSP source (remembered per colour); null without one. */
export async function accentStyle(accent: string | null | undefined): Promise<{ tag: string; hash: string } | null> {
  if (!accent) return null;
  if (!accentStyles.has(accent)) {
    const css = brandThemeCss(accent);
    accentStyles.set(accent, css ? await inlineStyle(css) : null);
  }
  return accentStyles.get(accent)!;
}

/**
 * A classic inline script that loads the page's module after its first contentful paint (the browser's own paint
 * entry), or 3 s after the load event where paint entries never come (an old browser, a tab opened in the
 * background): the first paint never shares the connection or the main thread with it.
 */
function afterPaintLoader(src: string): string {
  const url = JSON.stringify(src).replace(/</g, "\\u003c");
  return `(function(){var done=false;function go(){if(done)return;done=true;var s=document.createElement("script");s.type="module";s.src=${url};document.head.appendChild(s)}try{new PerformanceObserver(function(list){if(list.getEntriesByName("first-contentful-paint").length)setTimeout(go,0)}).observe({type:"paint",buffered:true})}catch(e){}addEventListener("load",function(){setTimeout(go,3000)})})();`;
}

async function sha256Source(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `'sha256-${btoa(binary)}'`;
}

/**
 * A page whose script is only an enhancement: each linked stylesheet read through ASSETS and put inline (one that
 * cannot be read, or is too large, stays linked), the module loaded after the first paint by a small inline loader
 * (its imports are not preloaded: nothing competes with the page's first paint). Returns the CSP sources they need.
 */
async function inlineAssets(env: Env, requestUrl: string, tags: string[]): Promise<{ tags: string[]; styleHashes: string[]; scriptHashes: string[] }> {
  const styleHashes: string[] = [];
  const scriptHashes: string[] = [];
  const out: string[] = [];
  for (const tag of tags) {
    if (tag.startsWith('<link rel="modulepreload"')) continue;
    const script = /^<script type="module" src="([^"]+)"><\/script>$/.exec(tag)?.[1];
    if (script) {
      const loader = afterPaintLoader(script);
      out.push(`<script>${loader}</script>`);
      scriptHashes.push(await sha256Source(loader));
      continue;
    }
    const href = stylesheetHref(tag);
    const res = href ? await env.ASSETS?.fetch(new URL(href, requestUrl)) : undefined;
    const css = res?.ok ? await res.text() : null;
    if (res && !res.ok) await res.body?.cancel();
    const inline = css !== null && css.length <= MAX_INLINE_CSS ? await inlineStyle(css) : null;
    if (inline) {
      out.push(inline.tag);
      styleHashes.push(inline.hash);
    } else out.push(tag);
  }
  return { tags: out, styleHashes, scriptHashes };
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
      if (tags.length) {
        const inlined = INLINE_ASSETS[template] ? await inlineAssets(env, requestUrl, tags) : { tags, styleHashes: [], scriptHashes: [] };
        assets = { ...inlined, build: buildId(inlined.tags), preload: preloadHeader(inlined.tags) };
      }
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
