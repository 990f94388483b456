// HTML pages from the static build, served through the worker so their Content-Security-Policy can follow
// configuration: CHAT_WIDGET_SRC's origin is allowed (and announced to the page) only when it is set.
// `/` gets the pre-rendered landing.html (no app code); every other page the SPA shell (index.html). Both carry the brand.
import { CHAT_WIDGET_META, isAdminPage } from "../chat/rules/widget";
import { TRUSTED_IMAGE_ORIGINS } from "../../domain/image-hosts";
import { brandPage } from "../../platform/brand/html";
import { loadBrand } from "../../platform/brand/load";
import type { Env } from "../../platform/env";

/** The static CSP (web/public/_headers) — what every page gets when no widget is configured. */
export const PAGE_CSP_DIRECTIVES: Record<string, string[]> = {
  "default-src": ["'self'"],
  "script-src": ["'self'"],
  "style-src": ["'self'"],
  "img-src": ["'self'", "data:", "blob:", ...TRUSTED_IMAGE_ORIGINS],
  "font-src": ["'self'"],
  "connect-src": ["'self'"],
  "media-src": ["'self'", "blob:"],
  "frame-ancestors": ["'none'"],
  "base-uri": ["'self'"],
  "form-action": ["'self'"],
  "object-src": ["'none'"],
};

/** The directives a chat widget's origin is added to: its script, styles, fonts, API calls and chat frame. */
const WIDGET_DIRECTIVES = ["script-src", "style-src", "font-src", "connect-src", "frame-src"];

/** The widget's script URL and origin, when CHAT_WIDGET_SRC is a usable http(s) URL. */
export function chatWidget(env: Partial<Pick<Env, "CHAT_WIDGET_SRC">>): { src: string; origin: string } | null {
  const raw = env.CHAT_WIDGET_SRC?.trim();
  if (!raw) return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    return { src: url.toString(), origin: url.origin };
  } catch {
    return null;
  }
}

export function pageCsp(env: Partial<Pick<Env, "CHAT_WIDGET_SRC">>): string {
  const widget = chatWidget(env);
  const directives = Object.fromEntries(Object.entries(PAGE_CSP_DIRECTIVES).map(([k, v]) => [k, [...v]]));
  if (widget) {
    for (const name of WIDGET_DIRECTIVES) {
      directives[name] = [...(directives[name] ?? ["'self'"]), widget.origin];
    }
  }
  return Object.entries(directives)
    .map(([k, v]) => `${k} ${v.join(" ")}`)
    .join("; ");
}

const escapeAttr = (v: string) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** Paths that are pages (everything but the API, auth and hashed build files). */
export function isPagePath(pathname: string): boolean {
  return !/^\/(api|auth)(\/|$)/.test(pathname);
}

/**
 * A page or public file from the assets binding. HTML gets the configured CSP and, with a widget, the
 * meta tag web/lib/chat-widget.ts reads. Conditional headers are dropped: the HTML depends on configuration.
 */
export async function servePage(request: Request, env: Env): Promise<Response> {
  if (!env.ASSETS) return new Response("Not found", { status: 404 });
  const url = new URL(request.url);
  const target = url.pathname === "/" || url.pathname === "/index.html" ? new URL("/landing", url) : url;
  const headers = new Headers(request.headers);
  headers.delete("If-None-Match");
  headers.delete("If-Modified-Since");
  const res = await env.ASSETS.fetch(new Request(target, { method: request.method, headers }));
  // A copy with mutable headers: the app's middleware adds its own.
  if (!(res.headers.get("Content-Type") ?? "").includes("text/html")) return new Response(res.body, res);

  // Admin pages never load the third-party widget: no meta tag, and its origin is not in their CSP.
  const widgetEnv = isAdminPage(url.pathname) ? { ...env, CHAT_WIDGET_SRC: "" } : env;
  const out = new Headers(res.headers);
  out.set("Content-Security-Policy", pageCsp(widgetEnv));
  out.delete("ETag");
  out.set("Cache-Control", "no-cache");
  const widget = chatWidget(widgetEnv);
  // Every page carries the agency's brand (worker/platform/brand/html.ts).
  const response = brandPage(new Response(res.body, { status: res.status, statusText: res.statusText, headers: out }), await loadBrand(env));
  if (!widget) return response;
  return new HTMLRewriter()
    .on("head", {
      element(head) {
        head.append(`<meta name="${CHAT_WIDGET_META}" content="${escapeAttr(widget.src)}">`, { html: true });
      },
    })
    .transform(response);
}
