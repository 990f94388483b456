// The monthly client report's delivery (issue 30): GET /shared/client-reports/:token renders every section of the
// stored payload (a null one left out, Google's missing states in words), 404s unknown and unbuilt tokens, is cached
// by version (a rebuild is served new); the view beacon counts once per visit, never a preview, and the first open
// alerts the agency once (bell and webhook `client_report.opened`); the PDF is made once, kept in R2, and holds the
// figures; with a brand set neither the page nor the PDF says "Porchlight"; the built stylesheet and the script's
// loader are inline, allowed by their hashes.
import { SELF, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { forgetBrand } from "../../../worker/platform/brand/load";
import { forgetPages } from "../../../worker/features/reports/shared-cache";
import { forgetPageAssets } from "../../../worker/features/reports/shared-page-assets";
import { VISIT_TOKEN_META } from "../../../worker/features/reports/visit-token";
import { sharedPageCsp } from "../../../worker/features/reports/shared-report-page";
import type { WebhooksOutMessage } from "../../../worker/platform/env";
import { api, callWorker, signUp, signUpAdmin, testIp } from "../helpers";
import { clientReportPayload, pdfText, seedClientReport, shareToken } from "./client-report-fixtures";
import { recorder } from "../reports/reports-fixtures";

const BROWSER = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";

let clientId: string;
let admin: Awaited<ReturnType<typeof signUpAdmin>>;

beforeAll(async () => {
  admin = await signUpAdmin();
  clientId = (await signUp()).user.id;
});

const page = (token: string, query = "", headers: Record<string, string> = {}) => api(`/shared/client-reports/${token}${query}`, { headers: { "User-Agent": BROWSER, ...headers } });
const sha = async (text: string) => `'sha256-${btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))))}'`;

/** The page's CSP is the shared pages' own, widened by exactly the hashes of the page's inline styles and scripts. */
async function expectHashedCsp(csp: string | null, html: string) {
  const styles = await Promise.all([...html.matchAll(/<style>([^<]*)<\/style>/g)].map((m) => sha(m[1]!)));
  const scripts = await Promise.all([...html.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => sha(m[1]!)));
  expect(csp).toBe(sharedPageCsp({ styles, scripts }));
  expect(csp).not.toContain("unsafe-inline");
}

const visitOf = (html: string) => new RegExp(`<meta name="${VISIT_TOKEN_META}" content="([^"]+)">`).exec(html)?.[1] ?? null;
const meta = (html: string, key: string) => new RegExp(`<meta (?:property|name)="${key.replace(/[:.]/g, "\\$&")}" content="([^"]*)"`).exec(html)?.[1] ?? null;

async function pdf(token: string) {
  const res = await SELF.fetch(`http://localhost/shared/client-reports/${token}.pdf`);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe("GET /shared/client-reports/:token", () => {
  it("renders the headline figures and every section of the payload, branded, with Open Graph tags, noindex, and inline styles and scripts only by their hashes", async () => {
    const { token } = await seedClientReport(clientId);
    const res = await page(token);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("X-Robots-Tag")).toBe("noindex, nofollow");
    const html = res.body as string;
    await expectHashedCsp(res.headers.get("Content-Security-Policy"), html);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain("<h1>Ridge Roofing</h1>");
    for (const value of ["1,284", "44%", "+142 (+12.4%) vs last month", "−3 vs last month"]) expect(html).toContain(value);
    // Each section, by its heading, from the payload.
    for (const h of ["Summary", "Google Business Profile", "Local Search Grid", "Tracked keywords", "AI Visibility", "Listings", "Reviews", "Google posts", "What we did", "What&#x27;s next"]) expect(html).toContain(`>${h}</h2>`);
    expect(html).toContain("October brought 1,284 calls");
    // Google: calls, clicks, directions, impressions on Search and Maps, the search terms.
    for (const text of ["562", "213", "10,450", "7,320", "roof repair austin", "fewer than 15"]) expect(html).toContain(text);
    // The grid: two 5 × 5 maps side by side, with SoLV and ATRP.
    expect(html.match(/<figure class="cr-grid-map">/g)).toHaveLength(2);
    expect(html.match(/<rect x="[\d.]+" y="[\d.]+" width="9"/g)).toHaveLength(50);
    expect(html).toContain("SoLV <strong>44%</strong> · ATRP <strong>3.4</strong>");
    expect(html).toContain("SoLV <strong>28%</strong> · ATRP <strong>5.9</strong>");
    // The tracker's moves (a lower rank is up), AI Visibility with its range, listings, reviews, posts.
    expect(html).toContain("up 3");
    expect(html).toContain("down 4");
    expect(html).toContain("out of top 20");
    expect(html).toContain("likely between 21% and 57%");
    expect(html).toContain('class="cr-interval"');
    for (const text of ["85.3%", "+4.7 pts vs last month", "4.8 ★", "88.9%", "Storm season checklist"]) expect(html).toContain(text);
    // Times in the business's zone: a post at 23:30 UTC on Oct 31 was Oct 31 in Chicago.
    expect(html).toContain(">Oct 31, 2026</time>");
    expect(html).toContain("Fix the 4 listings");
    expect(html).toContain(`href="/shared/client-reports/${token}.pdf"`);
    expect(meta(html, "og:title")).toBe("Ridge Roofing: October 2026 results");
    expect(meta(html, "og:description")).toContain("Calls from Google 1,284");
    expect(meta(html, "og:url")).toMatch(new RegExp(`^https?://[^/]+/shared/client-reports/${token}$`));
    // The Open Graph card: drawn once for the version, then streamed from R2.
    const image = meta(html, "og:image")!;
    expect(image).toMatch(new RegExp(`/shared/client-reports/${token}/card\\.png\\?v=1$`));
    const card = await SELF.fetch(`http://localhost${new URL(image).pathname}${new URL(image).search}`);
    expect(card.headers.get("Content-Type")).toBe("image/png");
    expect(card.headers.get("X-Card")).toBe("RENDERED");
    expect([...new Uint8Array(await card.arrayBuffer()).slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const again = await SELF.fetch(`http://localhost${new URL(image).pathname}${new URL(image).search}`);
    await again.arrayBuffer();
    expect(again.headers.get("X-Card")).toBe("STORED");
    expect(again.headers.get("Cache-Control")).toContain("immutable");
    // The one inline script is the script's loader (allowed by its hash above); no style attributes.
    for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([^<]*)<\/script>/g)) expect(m[1]).toContain('getEntriesByName("first-contentful-paint")');
    expect(html).not.toMatch(/\sstyle="/);
    expect(visitOf(html)).toBeTruthy();
  });

  it("leaves out null sections, and says in customer words why Google's figures are missing", async () => {
    const empty = { grid: null, tracker: null, aiVisibility: null, citations: null, reviews: null, posts: null, whatWeDid: [], whatsNext: [] };
    const cases = [
      ["not_connected", "Connect Google to see calls and clicks"],
      ["token_refused", "Google needs you to reconnect"],
      ["unavailable", "Google figures could not be fetched this month"],
    ] as const;
    for (const [status, words] of cases) {
      const { token } = await seedClientReport(clientId, { payload: clientReportPayload({ ...empty, google: { status } }) });
      const html = (await page(token)).body as string;
      expect(html).toContain(words);
      expect(html).toContain(">Summary</h2>");
      for (const h of ["Local Search Grid", "Tracked keywords", "AI Visibility", "Listings", "Reviews", "Google posts", "What we did"]) expect(html, status).not.toContain(`>${h}</h2>`);
      expect(html).not.toMatch(/GBP_|Business Profile Performance API|on this server/);
    }
  });

  it("answers the not-found page for unknown, malformed and unbuilt tokens", async () => {
    const queued = await seedClientReport(clientId, { status: "building", payload: null });
    for (const token of [shareToken(), "short", "x".repeat(300), queued.token]) {
      const res = await page(token);
      expect(res.status, token).toBe(404);
      expect(res.body).toContain("Report Not Found");
      expect(res.headers.get("Cache-Control")).toBe("no-store");
    }
  });

  it("is cached by version: a hit, a 304 on its ETag, and a rebuild served new", async () => {
    forgetPages();
    const { id, token } = await seedClientReport(clientId);
    const first = await page(token);
    expect(first.headers.get("X-Cache")).toBe("MISS");
    const etag = first.headers.get("ETag")!;
    expect(etag).toContain("-v1-");
    const second = await page(token);
    expect(second.headers.get("X-Cache")).toBe("HIT");
    // Each answer has its own visit.
    expect(visitOf(second.body)).not.toBe(visitOf(first.body));
    expect((await page(token, "", { "If-None-Match": etag })).status).toBe(304);

    const rebuilt = clientReportPayload({ summary: { text: "Rebuilt: November's figures are in.", source: "template" } });
    await env.DB.prepare("update client_reports set payload = ?, version = version + 1 where id = ?").bind(JSON.stringify(rebuilt), id).run();
    const fresh = await page(token, "", { "If-None-Match": etag });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("X-Cache")).toBe("MISS");
    expect(fresh.headers.get("ETag")).toContain("-v2-");
    expect(fresh.body).toContain("Rebuilt: November");
  });
});

describe("the client report's view beacon", () => {
  const beacon = (token: string, visit: string, bindings: Record<string, unknown> = {}) =>
    callWorker(`/api/shared/client-reports/${token}/events`, { method: "POST", body: JSON.stringify({ event: "opened", visit, staff: true }), headers: { "Content-Type": "text/plain;charset=UTF-8", "User-Agent": BROWSER }, ip: testIp() }, bindings);

  it("counts a view once per visit, never a preview or a forged visit, and alerts the agency on the first open only", async () => {
    const hooks = recorder<WebhooksOutMessage>();
    const bindings = { WEBHOOKS_OUT: hooks.queue };
    const endpoint = await callWorker("/api/webhooks", { method: "POST", token: admin.session.access_token, json: { url: `${env.TEST_WEBHOOKS_URL}/hooks/cr-${crypto.randomUUID().slice(0, 8)}`, events: ["client_report.opened"] } }, bindings);
    expect(endpoint.status, endpoint.text).toBe(201);
    const { id, token } = await seedClientReport(clientId);

    // The admin's Preview carries no visit token: nothing it could send counts.
    const preview = await page(token, "?preview=1");
    expect(preview.status).toBe(200);
    expect(visitOf(preview.body)).toBeNull();
    const forged = await beacon(token, `${crypto.randomUUID()}.9999999999.${"a".repeat(64)}`);
    expect(forged.status).toBe(204);
    expect(forged.headers.get("X-Beacon")).toBe("unsigned_visit");

    const v1 = visitOf((await page(token)).body)!;
    const first = await beacon(token, v1, bindings);
    expect(first.status).toBe(202);
    expect(first.headers.get("X-Beacon")).toBe("recorded");
    const again = await beacon(token, v1, bindings);
    expect(again.status).toBe(204);
    expect(again.headers.get("X-Beacon")).toBe("duplicate");
    const v2 = visitOf((await page(token)).body)!;
    expect((await beacon(token, v2, bindings)).status).toBe(202);

    const row = await env.DB.prepare("select views, first_opened_at, last_opened_at from client_reports where id = ?").bind(id).first<{ views: number; first_opened_at: string; last_opened_at: string }>();
    expect(row!.views).toBe(2);
    expect(row!.first_opened_at).toBeTruthy();
    expect(row!.last_opened_at >= row!.first_opened_at).toBe(true);

    const deliveries = await env.DB.prepare("select body from webhook_deliveries where endpoint_id = ? and event_type = 'client_report.opened'").bind(endpoint.body.endpoint.id).all<{ body: string }>();
    expect(deliveries.results).toHaveLength(1);
    expect(JSON.parse(deliveries.results[0]!.body)).toMatchObject({ type: "client_report.opened", data: { client_report_id: id, user_id: clientId, name: "Ridge Roofing", month_label: "October 2026" } });
    const bell = await env.DB.prepare("select count(*) as n from notifications where user_id = ? and kind = 'client_report_opened' and data like ?").bind(admin.user.id, `%${id}%`).first<{ n: number }>();
    expect(bell!.n).toBe(1);
    const list = await api("/api/notifications", { token: admin.session.access_token });
    expect(JSON.stringify(list.body)).toContain("Ridge Roofing opened their October 2026 report for the first time");

    // Unknown and unbuilt reports are not counted.
    expect((await beacon(shareToken(), v1)).headers.get("X-Beacon")).toBe("unknown_report");
    const building = await seedClientReport(clientId, { status: "building", payload: null });
    expect((await beacon(building.token, v1)).headers.get("X-Beacon")).toBe("not_ready");
  });
});

describe("GET /shared/client-reports/:token.pdf", () => {
  it("is a PDF with the business, the month and the headline figures as text, made once and kept in R2", async () => {
    const { id, token } = await seedClientReport(clientId);
    const { res, bytes } = await pdf(token);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Content-Disposition")).toBe('inline; filename="ridge-roofing-2026-10.pdf"');
    expect(res.headers.get("X-Pdf")).toBe("MADE");
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const text = await pdfText(bytes);
    for (const s of ["Ridge Roofing", "MONTHLY RESULTS - OCTOBER 2026", "Calls from Google", "1,284", "44%", "+142 (+12.4%) vs last month", "-3 vs last month", "Local Search Grid", "SoLV 44% - ATRP 3.4", "What's next", "Prepared by Porchlight"]) {
      expect(text, s).toContain(s);
    }
    const row = await env.DB.prepare("select pdf_key, pdf_bytes from client_reports where id = ?").bind(id).first<{ pdf_key: string; pdf_bytes: number }>();
    expect(row!.pdf_key).toBe(`client-reports/${id}/v1.pdf`);
    expect(row!.pdf_bytes).toBe(bytes.byteLength);
    const stored = await env.FILES.get(row!.pdf_key);
    expect(stored?.size).toBe(bytes.byteLength);

    const again = await pdf(token);
    expect(again.res.headers.get("X-Pdf")).toBe("STORED");
    expect(again.bytes).toEqual(bytes);
    expect((await pdf(shareToken())).res.status).toBe(404);
  });

  it("draws text the standard fonts cannot encode as the nearest it can, never failing", async () => {
    const { token } = await seedClientReport(clientId, {
      payload: clientReportPayload({ business: { name: "Zoë's Plumbing 🚿 – Ōsaka ≥ 1", website: null, location: null, category: null }, summary: { text: "Great month 👍 — “quoted” ★", source: "ai" } }),
    });
    const { res, bytes } = await pdf(token);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toBe('inline; filename="zoe-s-plumbing-osaka-1-2026-10.pdf"');
    const text = await pdfText(bytes);
    // The emoji are dropped, Ō becomes O and ≥ ">="; WinAnsi's accents, dashes and quotes stay.
    expect(text).toContain("Zoë's Plumbing – Osaka >= 1");
    expect(text).toContain("Great month — “quoted” *");
  });
});

describe("the built page's assets", () => {
  /** The build as Vite writes it: the template's tags and the stylesheet they name. */
  const CSS = ".cr-page{max-width:880px}";
  const assets = {
    async fetch(input: RequestInfo | URL) {
      const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
      if (path === "/client-report")
        return new Response(
          `<head><meta name="page-template" content="client-report" /><script type="module" crossorigin src="/assets/client-report-A1.js"></script><link rel="modulepreload" crossorigin href="/assets/beacon-B2.js"><link rel="stylesheet" crossorigin href="/assets/client-report-C3.css"></head>`,
        );
      if (path === "/assets/client-report-C3.css") return new Response(CSS, { headers: { "Content-Type": "text/css" } });
      return new Response("not found", { status: 404 });
    },
  } as unknown as Fetcher;

  it("inlines the stylesheet and loads the script after the first paint, each allowed by its hash, nothing preloaded", async () => {
    const { token } = await seedClientReport(clientId);
    forgetPageAssets();
    forgetPages();
    try {
      const res = await callWorker(`/shared/client-reports/${token}`, { headers: { "User-Agent": BROWSER } }, { ASSETS: assets });
      expect(res.status).toBe(200);
      const html = res.text;
      expect(html).toContain(`<style>${CSS}</style>`);
      expect(html).not.toMatch(/<link rel="(?:stylesheet|modulepreload)" href="\/assets\//);
      expect(res.headers.get("Link")).toBeNull();
      // The loader: one classic inline script that adds the module once the page has painted.
      const loader = /<script>(\(function\(\)\{[^<]*)<\/script>/.exec(html)?.[1];
      expect(loader).toContain('s.src="/assets/client-report-A1.js"');
      expect(loader).toContain('getEntriesByName("first-contentful-paint")');
      const csp = res.headers.get("Content-Security-Policy")!;
      expect(csp).toContain(`script-src 'self' ${await sha(loader!)};`);
      expect(csp).toContain(`style-src 'self' ${await sha(CSS)};`);
      expect(csp).not.toContain("unsafe-inline");
    } finally {
      forgetPageAssets();
      forgetPages();
    }
  });
});

describe("the client report with the agency's brand", () => {
  it("says the brand's name on the page and in the PDF, and Porchlight in neither", async () => {
    const { token } = await seedClientReport(clientId);
    const put = await callWorker("/api/brand", { method: "PUT", token: admin.session.access_token, json: { name: "Acme Growth", accentColor: "#1d4ed8", footerLine: "Acme Growth · 100 Main St, Austin TX", supportEmail: "help@acme-growth.test" } });
    expect(put.status, put.text).toBe(200);
    forgetBrand();
    const res = await page(token);
    const html = res.body as string;
    const text = await pdfText((await pdf(token)).bytes);
    for (const [name, body] of [["page", html], ["pdf", text]] as const) {
      expect(body, name).not.toContain("Porchlight");
      expect(body, name).toContain("Acme Growth");
      expect(body, name).toContain("help@acme-growth.test");
    }
    // The accent is an inline <style> (no request before the first paint), allowed by its hash and nothing wider.
    const css = /<style>([^<]*--brand-accent:#1d4ed8[^<]*)<\/style>/.exec(html)?.[1];
    expect(css).toBeTruthy();
    expect(res.headers.get("Content-Security-Policy")).toContain(await sha(css!));
    await expectHashedCsp(res.headers.get("Content-Security-Policy"), html);
    expect(html).not.toContain("theme.css");
    expect(meta(html, "og:site_name")).toBe("Acme Growth");
    await callWorker("/api/brand", { method: "DELETE", token: admin.session.access_token });
    forgetBrand();
  });
});
