// Issue 30: with a brand set, every page and message a customer or prospect sees carries it and says "Porchlight"
// nowhere: the landing page and the app shell (sign-in, sign-up, the shared grid and chat) as the worker serves them
// from the real build's HTML, the shared report page, its Open Graph card and its JSON, the not-found page, the
// free-audit widget's script and frame, and every kind of mail (the kinds are iterated, so a new one is covered), with
// the From name a provider receives; the monthly client report's page and its PDF's text. Without a brand the
// product's name is there: the check can fail.
import { SELF, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import indexHtml from "../../../web/index.html?raw";
import landingHtml from "../../../web/landing.html?raw";
import { renderLanding } from "../../../web/features/landing/render";
import { forgetBrand, loadBrand } from "../../../worker/platform/brand/load";
import { getDb } from "../../../worker/platform/db/client";
import type { Env, MailOutMessage } from "../../../worker/platform/env";
import { MAIL_KINDS, renderMail } from "../../../worker/platform/mail/templates";
import { reportCardSvg } from "../../../worker/features/reports/card-svg";
import { forgetPages, forgetVersion } from "../../../worker/features/reports/shared-cache";
import { loadSharedReport } from "../../../worker/features/reports/views";
import { callWorker, GOOD_PASSWORD, signUpAdmin, uniqueEmail } from "../helpers";
import { deliver, readyReport, recorder } from "../reports/reports-fixtures";
import { clientReportPayload, pdfText, seedClientReport } from "../client-reports/client-report-fixtures";
import { clientReportCardSvg } from "../../../worker/features/client-reports/og-card";
import { publicBrand } from "../../../worker/platform/brand/rules/brand";

const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (ch) => ch.charCodeAt(0));
const BRAND = {
  name: "Acme Growth",
  accentColor: "#1d4ed8",
  website: "acme-growth.test",
  supportEmail: "help@acme-growth.test",
  supportPhone: "(512) 555-0199",
  mailSenderName: "Acme Growth Team",
  footerLine: "Acme Growth · 100 Main St, Austin TX",
};

/** The static build's two pages, as vite.config.ts makes them: the landing page pre-rendered, the shell as it is. */
const assets = {
  async fetch(input: RequestInfo | URL) {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    const body = path === "/landing" ? landingHtml.replace("<!--landing-markup-->", renderLanding()) : indexHtml;
    return new Response(body, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  },
} as unknown as Fetcher;

const bindings = { ASSETS: assets } as Record<string, unknown>;
let admin: Awaited<ReturnType<typeof signUpAdmin>>;
let reportId: string;
let widgetId: string;
let clientReportToken: string;

beforeAll(async () => {
  admin = await signUpAdmin();
  reportId = (await readyReport({ name: "Ridge Roofing" })).id;
  const w = await callWorker("/api/widgets", { method: "POST", token: admin.session.access_token, json: { name: "Homepage" } }, bindings);
  expect(w.status, w.text).toBe(201);
  widgetId = w.body.widget.id;
  clientReportToken = (await seedClientReport(admin.user.id)).token;
});

/** Every customer-facing page and message, by name, as text. */
async function everything(): Promise<Record<string, string>> {
  // What an earlier render in this isolate remembered is not what this one must show.
  forgetBrand();
  forgetPages();
  forgetVersion();
  const out: Record<string, string> = {};
  const pages: Record<string, string> = {
    landing: "/",
    "sign-in": "/login",
    "sign-up": "/signup",
    "app shell": "/dashboard",
    "shared grid": "/shared/grids/0123456789abcdef0123456789abcdef",
    "shared chat": `/shared/chat/${reportId}`,
    "shared report": `/shared/reports/${reportId}`,
    "report not found": "/shared/reports/no-such-report",
    "shared report data": `/api/shared/reports/${reportId}?cache=bypass`,
    "widget script": `/widget/${widgetId}.js`,
    "widget frame": `/widget/${widgetId}/frame`,
    "public brand": "/api/brand",
    "client report": `/shared/client-reports/${clientReportToken}`,
  };
  for (const [name, path] of Object.entries(pages)) {
    const res = await callWorker(path, { headers: { Accept: "text/html" } }, bindings);
    expect(res.status, `${name}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
    out[name] = res.text;
  }
  // The monthly client report's PDF, as the text a reader selects in it.
  const pdf = await SELF.fetch(`http://localhost/shared/client-reports/${clientReportToken}.pdf`);
  expect(pdf.status).toBe(200);
  out["client report pdf"] = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
  const data = await loadSharedReport(getDb(env), reportId);
  out["open graph card"] = reportCardSvg(data!);
  out["client report card"] = clientReportCardSvg(clientReportPayload(), publicBrand(await loadBrand(env)));
  const brand = await loadBrand(env);
  for (const kind of MAIL_KINDS) {
    const m = renderMail(kind, { to: "owner@ridge.test", link: "https://app.acme-growth.test/x", detail: "Ridge Roofing" }, brand);
    out[`mail ${kind}`] = [m.subject, m.text, m.html].join("\n");
  }
  return out;
}

/** The places the product's name shows while no brand is set (the widget never names it). */
const NAMED_WITHOUT_BRAND = ["landing", "sign-in", "shared report", "report not found", "open graph card", "public brand", "client report", "client report pdf", "client report card", ...MAIL_KINDS.map((k) => `mail ${k}`)];

describe("the agency's brand on every customer-facing page and message", () => {
  it("without a brand: the product's name, so the check below can fail", async () => {
    const all = await everything();
    for (const name of NAMED_WITHOUT_BRAND) expect(all[name], name).toContain("Porchlight");
    expect(all.landing).toContain("and for the agencies that sell to them");
  });

  it("with a brand: its name everywhere, Porchlight nowhere", async () => {
    const put = await callWorker("/api/brand", { method: "PUT", token: admin.session.access_token, json: BRAND }, bindings);
    expect(put.status, put.text).toBe(200);
    const form = new FormData();
    form.set("file", new File([PNG], "logo.png", { type: "image/png" }));
    const logo = await callWorker("/api/brand/logo", { method: "POST", token: admin.session.access_token, body: form }, bindings);
    expect(logo.status, logo.text).toBe(201);
    const logoUrl = logo.body.brand.logoUrl as string;

    const all = await everything();
    expect(Object.keys(all).length).toBeGreaterThan(12 + MAIL_KINDS.length - 1);
    for (const [name, text] of Object.entries(all)) {
      expect(text, name).not.toContain("Porchlight");
      if (!name.startsWith("widget")) expect(text, name).toContain("Acme Growth");
    }
    // The logo and the accent colour are on the pages that have room for them.
    expect(all.landing).toContain(`src="${logoUrl}"`);
    expect(all["shared report"]).toContain(`src="${logoUrl}"`);
    expect(all["client report"]).toContain(`src="${logoUrl}"`);
    for (const name of ["landing", "sign-in", "shared report"]) expect(all[name], name).toContain('href="/api/brand/theme.css?accent=1d4ed8"');
    // The client report carries it inline (allowed by its hash: client-report-share.test.ts).
    expect(all["client report"]).toContain("<style>:root{--brand-accent:#1d4ed8;");
    // The landing page's contact links reach the agency.
    expect(all.landing).toContain('href="mailto:help@acme-growth.test"');
    // The landing page speaks for the agency to businesses only, not to "the agencies that sell to them".
    expect(all.landing).toContain("HVAC pros and landscapers");
    expect(all.landing).not.toMatch(/agencies that sell/);
    // …and nothing links to the product's own pages.
    expect(all.landing).not.toMatch(/porchlight\.app|github\.com\/porchlight-app/);
    // The footer line and contact under every mail.
    for (const kind of MAIL_KINDS) {
      expect(all[`mail ${kind}`], kind).toContain(BRAND.footerLine);
      expect(all[`mail ${kind}`], kind).toContain(BRAND.supportEmail);
    }
    const theme = await callWorker("/api/brand/theme.css?accent=1d4ed8", {}, bindings);
    expect(theme.text).toContain("--brand-accent:#1d4ed8");
  });

  it("mail leaves with the brand's sender name on the configured address, and its body branded", async () => {
    const queue = recorder<MailOutMessage>();
    const mailEnv = {
      ...env,
      MAIL_PROVIDER: "resend",
      MAIL_API_KEY: "test-mail-key",
      MAIL_FROM: "Porchlight <hello@mail.acme-growth.test>",
      MAIL_BASE_URL: env.TEST_MAIL_BASE_URL,
      MAIL_OUT: queue.queue,
    } as Env;
    const email = uniqueEmail("branded");
    const signup = await callWorker("/auth/v1/signup", { method: "POST", json: { email, password: GOOD_PASSWORD } }, mailEnv as unknown as Record<string, unknown>);
    expect(signup.status).toBe(200);
    expect(queue.sent).toHaveLength(1);
    await deliver("mail-out", [{ body: queue.sent[0] }], mailEnv);
    const res = await fetch(`${env.TEST_MAIL_BASE_URL}/__messages?to=${encodeURIComponent(email)}`);
    const [message] = ((await res.json()) as { messages: { from: string; subject: string; text: string; html: string }[] }).messages;
    expect(message).toMatchObject({ from: "Acme Growth Team <hello@mail.acme-growth.test>", subject: "Confirm your Acme Growth email address" });
    expect(`${message!.text}${message!.html}`).not.toContain("Porchlight");
  });
});
