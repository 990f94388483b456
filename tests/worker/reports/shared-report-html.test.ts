// GET /shared/reports/:id (HTML) and its card: every section and Open Graph tag, never the phone; edge cache
// hit, miss, 304 and version change; not-found and generating pages; the card PNG stored in R2.
import { cacheOrigin } from "../../../worker/platform/edge-cache";
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ogCardKey } from "../../../worker/features/reports/og-card";
import {
  SHARED_REPORT_EDGE_TTL_SECONDS,
  forgetPages,
  forgetVersion,
  memoizePage,
  memoizedPage,
  sharedPageCacheKey,
} from "../../../worker/features/reports/shared-cache";
import { assetTags } from "../../../worker/features/reports/shared-page-assets";
import { SHARED_PAGE_CSP } from "../../../worker/features/reports/shared-report-page";
import { REPORT_SECTION_HEADINGS } from "../../fakes/report-data";
import { api } from "../helpers";
import { aiEnv, deliver, readyReport, seedReport, withoutCacheApi } from "./reports-fixtures";

/** Each answer carries its own visit token (worker/features/reports/visit-token.ts); the rest is the same cached page. */
const withoutVisit = (html: string) => html.replace(/<meta name="visit-token" content="[^"]+">/, "");

const PHONE = "(737) 555-0123";

function page(id: string, headers: Record<string, string> = {}) {
  return api(`/shared/reports/${id}`, { headers });
}

function meta(html: string, key: string): string | null {
  const m = new RegExp(`<meta (?:property|name)="${key.replace(/[:.]/g, "\\$&")}" content="([^"]*)"`).exec(html);
  return m ? m[1]! : null;
}

describe("GET /shared/reports/:id (HTML)", () => {
  it("renders every section, the overview and the agency as HTML, with Open Graph tags and no phone", async () => {
    const first = await env.DB.prepare("select id from profiles where is_admin = 1 order by created_at limit 1").first<{ id: string }>();
    if (first) {
      await env.DB.prepare("update profiles set company_name = 'Lighthouse Marketing', company_logo_url = '/api/files/logo.png' where id = ?")
        .bind(first.id)
        .run();
    }
    const seeded = await readyReport({ phone: PHONE });
    const res = await page(seeded.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("Content-Security-Policy")).toBe(SHARED_PAGE_CSP);
    expect(SHARED_PAGE_CSP).not.toContain("unsafe-inline");
    const html: string = res.body;
    expect(html.startsWith("<!doctype html>")).toBe(true);
    // The visit token under a neutral name: no identifier in the page source names the product.
    expect(html).toMatch(/<meta name="visit-token" content="[^"]+">/);
    expect(html).not.toMatch(/porchlight-/i);
    for (const heading of REPORT_SECTION_HEADINGS) expect(html).toContain(`>${heading}</h2>`);
    expect(html).toContain(`<h1 class="shared-name">${seeded.prospect.name}</h1>`);
    expect(html).toContain('aria-label="Report overview"');
    expect(html.match(/data-scroll-to="/g)).toHaveLength(6);
    expect(html).toContain("Business Relevance");
    expect(html.match(/ likes</g)).toHaveLength(3);
    expect(html).toMatch(/Generated on [A-Z][a-z]+ \d{1,2}, \d{4}/);
    expect(html).toContain('data-copy="');
    expect(html).toContain(`href="/shared/chat/${seeded.id}"`);
    // No inline script or style anywhere (the CSP forbids both).
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toMatch(/\sstyle="/);
    if (first) {
      expect(html).toContain("Lighthouse Marketing");
      expect(html).toContain('src="/api/files/logo.png"');
    }
    for (const phone of ["555-0123", "5550123", "17375550123"]) expect(html).not.toContain(phone);

    const pageUrl = `http://localhost:8787/shared/reports/${seeded.id}`;
    expect(html).toContain(`<title>${seeded.prospect.name} · SEO Report</title>`);
    expect(meta(html, "og:title")).toBe(`SEO &amp; Marketing Report for ${seeded.prospect.name} in Austin, TX`);
    expect(meta(html, "og:url")).toBe(pageUrl);
    expect(meta(html, "og:image")).toBe(`${pageUrl}/card.png?v=2`);
    expect(meta(html, "og:image:width")).toBe("1200");
    expect(meta(html, "og:image:height")).toBe("630");
    expect(meta(html, "twitter:card")).toBe("summary_large_image");
    const description = meta(html, "og:description")!;
    expect(description).toContain("SEO potential 78% (MEDIUM)");
    expect(description).toContain("3 Google Business post ideas");
    expect(meta(html, "description")).toBe(description);
  });

  it("serves the second request from the edge cache, 304s a matching If-None-Match, and a client's no-cache still gets the cache", async () => {
    const seeded = await readyReport();
    const first = await page(seeded.id);
    expect(first.headers.get("X-Cache")).toBe("MISS");
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(new RegExp(`^"${seeded.id}-v2-`));
    const second = await page(seeded.id);
    expect(second.headers.get("X-Cache")).toBe("HIT");
    expect(withoutVisit(second.body)).toBe(withoutVisit(first.body));
    expect(second.headers.get("Content-Security-Policy")).toBe(SHARED_PAGE_CSP);

    const notModified = await page(seeded.id, { "If-None-Match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeNull();

    const noCache = await page(seeded.id, { "Cache-Control": "no-cache", Pragma: "no-cache" });
    expect(noCache.headers.get("X-Cache")).toBe("HIT");
    expect(withoutVisit(noCache.body)).toBe(withoutVisit(first.body));
    const devBypass = await api(`/shared/reports/${seeded.id}?cache=bypass`);
    expect(devBypass.headers.get("X-Cache")).toBe("BYPASS");

    // A link previewer gets the very same cached page.
    const preview = await page(seeded.id, { "User-Agent": "facebookexternalhit/1.1" });
    expect(preview.headers.get("X-Cache")).toBe("HIT");
    expect(withoutVisit(preview.body)).toBe(withoutVisit(first.body));
  });

  it("serves the new version after the report changes", async () => {
    const seeded = await readyReport();
    const before = await page(seeded.id);
    await page(seeded.id);
    await env.DB.prepare("update seo_reports set status = 'queued' where id = ?").bind(seeded.id).run();
    await deliver("report-jobs", [{ body: { reportId: seeded.id } }], aiEnv());
    const after = await page(seeded.id);
    expect(after.headers.get("X-Cache")).toBe("MISS");
    expect(after.headers.get("ETag")).toMatch(new RegExp(`^"${seeded.id}-v3-`));
    expect((await page(seeded.id, { "If-None-Match": before.headers.get("ETag")! })).status).toBe(200);

    await env.DB.prepare("update prospects set name = 'Renamed Roofing Co' where id = ?").bind(seeded.prospect.id).run();
    forgetVersion(); // as once the isolate's few-second version memo lapses
    const renamed = await page(seeded.id);
    expect(renamed.headers.get("ETag")).toMatch(new RegExp(`^"${seeded.id}-v4-`));
    expect(renamed.body).toContain("Renamed Roofing Co");
    expect(renamed.headers.get("X-Cache")).toBe("MISS");
  });

  it("is correct with no Cache API at all", async () => {
    const seeded = await readyReport();
    await withoutCacheApi(async (app) => {
      for (let i = 0; i < 2; i++) {
        const res = await app.request(`/shared/reports/${seeded.id}`, {}, env);
        expect(res.status).toBe(200);
        expect(res.headers.get("X-Cache")).toBe("MISS");
        expect(await res.text()).toContain("Google Ads Analysis");
      }
    });
  });

  it("answers the spec's 'Report Not Found' page with a 404 for unknown and absurd ids", async () => {
    for (const id of [crypto.randomUUID(), "nope", "x".repeat(500)]) {
      const res = await page(id);
      expect(res.status).toBe(404);
      expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
      expect(res.body).toContain("<h1>Report Not Found</h1>");
      expect(res.body).toContain("The report you are looking for does not exist or has been removed.");
      expect(res.body).toContain('<a class="btn btn-primary" href="/">Go to Homepage</a>');
    }
  });

  it("gives a report still generating a small page that refreshes itself, never cached, without card or phone", async () => {
    const seeded = await seedReport("", { phone: PHONE });
    const res = await page(seeded.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.body).toContain('<meta http-equiv="refresh" content="10">');
    expect(res.body).toContain("Your report is being prepared");
    expect(res.body).not.toContain("Google Ads Analysis");
    expect(meta(res.body, "og:image")).toBeNull();
    expect(res.body).not.toContain("555-0123");
    expect(await caches.default.match(sharedPageCacheKey(cacheOrigin(env), seeded.id, 1, "none"))).toBeUndefined();
  });

  it("keeps the JSON endpoint working beside the page", async () => {
    const seeded = await readyReport();
    const res = await api(`/api/shared/reports/${seeded.id}`);
    expect(res.status).toBe(200);
    expect(res.body.report.status).toBe("ready");
  });

  it("keeps recent pages in the isolate for as long as the edge would, least recently used out first", () => {
    forgetPages();
    const t0 = 1_000_000;
    memoizePage("k1", "<p>one</p>", t0);
    expect(memoizedPage("k1", t0 + SHARED_REPORT_EDGE_TTL_SECONDS * 1000)).toBe("<p>one</p>");
    expect(memoizedPage("k1", t0 + SHARED_REPORT_EDGE_TTL_SECONDS * 1000 + 1)).toBeNull();
    for (let i = 0; i < 60; i++) memoizePage(`p${i}`, "x", t0);
    expect(memoizedPage("p0", t0)).toBeNull();
    expect(memoizedPage("p59", t0)).toBe("x");
    forgetPages();
  });

  it("takes only the hashed /assets/ tags from the built template", () => {
    const tags = assetTags(`<head><script type="module" crossorigin src="/assets/shared-report-A1.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/enhance-B2.js"><link rel="stylesheet" crossorigin href="/assets/report-C3.css">
      <link rel="icon" href="/favicon.svg"><script src="https://evil.example/x.js"></script></head>`);
    expect(tags).toEqual([
      '<script type="module" src="/assets/shared-report-A1.js"></script>',
      '<link rel="modulepreload" href="/assets/enhance-B2.js">',
      '<link rel="stylesheet" href="/assets/report-C3.css">',
    ]);
  });
});

describe("GET /shared/reports/:id/card.png", () => {
  it("renders a 1200×630 PNG once per version, keeps it in R2 and serves it with long cache headers", async () => {
    const seeded = await readyReport();
    const { SELF } = await import("cloudflare:test");
    const res = await SELF.fetch(`http://localhost/shared/reports/${seeded.id}/card.png?v=2`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("X-Card")).toBe("RENDERED");
    const raw = await SELF.fetch(`http://localhost/shared/reports/${seeded.id}/card.png?v=2`);
    const bytes = new Uint8Array(await raw.arrayBuffer());
    expect(raw.headers.get("X-Card")).toBe("STORED");
    expect([...bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(view.getUint32(16)).toBe(1200);
    expect(view.getUint32(20)).toBe(630);
    expect(await env.FILES.head(ogCardKey(seeded.id, 2))).not.toBeNull();
  });

  it("404s for unknown reports and reports not ready", async () => {
    expect((await api(`/shared/reports/${crypto.randomUUID()}/card.png`)).status).toBe(404);
    const queued = await seedReport();
    expect((await api(`/shared/reports/${queued.id}/card.png`)).status).toBe(404);
  });
});
