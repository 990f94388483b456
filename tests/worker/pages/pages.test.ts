// Pages through the worker: the CSP follows CHAT_WIDGET_SRC (its origin only, and only when set), `/` is the landing page.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { itReturns } from "../../domain/each";
import app from "../../../worker/app";
import { chatWidgetHidden } from "../../../worker/features/chat/rules/widget";
import { isTrustedImageUrl, TRUSTED_IMAGE_ORIGINS } from "../../../worker/domain/image-hosts";
import { placeholderImageUrl } from "../../../worker/features/reports/rules/content";
import { isPagePath, pageCsp } from "../../../worker/features/pages/pages";
import { SHARED_PAGE_CSP } from "../../../worker/features/reports/shared-report-page";
import headersFile from "../../../web/public/_headers?raw";
import wranglerToml from "../../../wrangler.toml?raw";

const SHELL = "<!doctype html><html><head><title>shell</title></head><body><div id=root></div></body></html>";
const LANDING = "<!doctype html><html><head><title>landing</title></head><body>landing</body></html>";

/** An assets binding with two pages, as the build makes them. */
const assets = {
  async fetch(input: RequestInfo | URL) {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    if (path === "/favicon.svg") return new Response("<svg/>", { headers: { "Content-Type": "image/svg+xml" } });
    const body = path === "/landing" ? LANDING : SHELL;
    return new Response(body, { headers: { "Content-Type": "text/html; charset=utf-8", ETag: '"abc"' } });
  },
} as unknown as Fetcher;

async function get(path: string, vars: Partial<typeof env> = {}) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://localhost${path}`), { ...env, ASSETS: assets, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return { res, text: await res.text() };
}

describe("pages served by the worker", () => {
  it("serves the pre-rendered landing page for / and the app shell for app routes", async () => {
    expect((await get("/")).text).toContain("landing");
    expect((await get("/dashboard")).text).toContain("shell");
  });

  it("gives pages the static CSP and no widget tag when CHAT_WIDGET_SRC is not set", async () => {
    const { res, text } = await get("/dashboard", { CHAT_WIDGET_SRC: "" });
    const staticCsp = /Content-Security-Policy: (.+)/.exec(headersFile)![1]!.trim();
    expect(res.headers.get("Content-Security-Policy")).toBe(staticCsp);
    expect(res.headers.get("ETag")).toBeNull();
    expect(text).not.toContain('name="chat-widget"');
  });

  it("leaves the widget out of admin pages altogether, and sends HSTS", async () => {
    const { res, text } = await get("/admin/report-generator", { CHAT_WIDGET_SRC: "https://chat.example.com/widget.js" });
    expect(text).not.toContain('name="chat-widget"');
    expect(res.headers.get("Content-Security-Policy")).not.toContain("chat.example.com");
    expect(res.headers.get("Strict-Transport-Security")).toBe("max-age=63072000; includeSubDomains");
  });

  it("allows the widget's origin only, and tells the page the script URL, when CHAT_WIDGET_SRC is set", async () => {
    const { res, text } = await get("/login", { CHAT_WIDGET_SRC: "https://chat.example.com/widget.js?id=1&x=2" });
    const csp = res.headers.get("Content-Security-Policy")!;
    expect(csp).toContain("script-src 'self' https://chat.example.com;");
    expect(csp).toContain("connect-src 'self' https://chat.example.com;");
    expect(csp).toContain("frame-src 'self' https://chat.example.com");
    // No other origin anywhere but the fixed image hosts of img-src (tested below).
    expect(csp.replace(/img-src [^;]+/, "")).not.toMatch(/https:\/\/(?!chat\.example\.com)[a-z]/);
    expect(text).toContain('<meta name="chat-widget" content="https://chat.example.com/widget.js?id=1&amp;x=2">');
    // A neutral name: nothing in the page source names the product as an identifier.
    expect(text).not.toMatch(/porchlight-/i);
  });

  it("ignores a CHAT_WIDGET_SRC that is not an http(s) URL", () => {
    expect(pageCsp({ CHAT_WIDGET_SRC: "javascript:alert(1)" })).toBe(pageCsp({}));
  });

  it("passes other public files through untouched", async () => {
    const { res, text } = await get("/favicon.svg");
    expect(res.headers.get("Content-Type")).toBe("image/svg+xml");
    expect(text).toBe("<svg/>");
  });

  it("keeps API 404s as JSON", async () => {
    const { res, text } = await get("/api/nope");
    expect(res.status).toBe(404);
    expect(JSON.parse(text).error.code).toBe("not_found");
    expect(isPagePath("/auth/v1/x")).toBe(false);
  });

  it("runs the worker first for pages but not for hashed build files (wrangler.toml)", () => {
    const line = /^run_worker_first = (.+)$/m.exec(wranglerToml)![1]!;
    const patterns = JSON.parse(line) as string[];
    // "/*" covers /api/* and /auth/* (wrangler refuses redundant rules).
    expect(patterns).toEqual(["/*", "!/assets/*"]);
  });

  itReturns("hides the widget on %s: %s", chatWidgetHidden, [
    ["/login", true],
    ["/signup/", true],
    ["/", false],
    ["/dashboard", false],
    ["/login-help", false],
    ["/admin/report-generator", true],
    ["/admin", true],
    ["/administer", false],
  ]);
});

describe("images the pages may load", () => {
  const imgSrc = (csp: string) => /img-src ([^;]+)/.exec(csp)![1]!.trim().split(/\s+/);

  it("are the app's own, data: and blob:, and the hosts the app writes image URLs for: no blanket https:", () => {
    expect(imgSrc(pageCsp({}))).toEqual(["'self'", "data:", "blob:", ...TRUSTED_IMAGE_ORIGINS]);
    expect(imgSrc(SHARED_PAGE_CSP)).toEqual(["'self'", "data:", ...TRUSTED_IMAGE_ORIGINS]);
    expect(imgSrc(/Content-Security-Policy: (.+)/.exec(headersFile)![1]!)).toEqual(imgSrc(pageCsp({})));
    for (const csp of [pageCsp({ CHAT_WIDGET_SRC: "https://chat.example.com/w.js" }), SHARED_PAGE_CSP]) {
      expect(imgSrc(csp)).not.toContain("https:");
      expect(imgSrc(csp)).not.toContain("*");
    }
    // The post placeholder host is among them.
    expect(isTrustedImageUrl(placeholderImageUrl("roof repair"))).toBe(true);
  });

  it("trust a URL only on exactly those https origins", () => {
    // Search result favicons are left out (issue 26): the provider's host is not an image origin any more.
    expect(isTrustedImageUrl("https://serpapi.com/searches/abc/images/1.png")).toBe(false);
    expect(isTrustedImageUrl("http://placehold.co/600x400")).toBe(false);
    expect(isTrustedImageUrl("https://placehold.co.evil.example/x.png")).toBe(false);
    expect(isTrustedImageUrl("https://evil.example/favicon.ico")).toBe(false);
    expect(isTrustedImageUrl("javascript:alert(1)")).toBe(false);
    expect(isTrustedImageUrl("")).toBe(false);
  });
});
