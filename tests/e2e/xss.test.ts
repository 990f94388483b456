// Journey: script payloads (img onerror, svg onload, <script>, attribute and element break-outs, javascript: and data:
// links) go in through every field a user, an import, the AI and the search provider write, and come out on every page
// that shows them, in Chromium. The journey runs twice: once with the page's Content-Security-Policy switched off, so
// only the app's own escaping stands between a payload and the page, and once with it on, where any blocked script is
// a finding too. Each page must show the payload as text, hold no element or link it made, and never run it.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewReportInput } from "../../worker/features/reports/rules/new-report";
import { XSS_LINKS, XSS_MARKUP, XSS_SHORT, hostile } from "../fakes";
import { confirmedAccount, accessToken, createReport, ensureAdmin, signIn, waitUntilReady } from "./accounts";
import { baseUrl, searchButton, shot, uniqueEmail, useBrowser } from "./browser";

type Mode = "csp-off" | "csp-on";

const browser = useBrowser();

const json = (token: string) => ({ "Content-Type": "application/json", Authorization: `Bearer ${token}` });

async function api<T>(token: string, method: string, path: string, body?: unknown, expected = [200, 201, 202]): Promise<T> {
  const res = await fetch(`${baseUrl()}${path}`, { method, headers: json(token), body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!expected.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** What a page's DOM holds that only a payload could have put there, and whether one ran. */
type Findings = { ran: unknown; elements: string[]; violations: string[]; overflow: string[] };

/** Runs in the page: every element and attribute, looking for what the payloads make when parsed as HTML. */
function scanPage(): Findings {
  const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "xlink:href", "poster", "data", "background", "ping", "srcset"]);
  const elements: string[] = [];
  for (const el of Array.from(document.querySelectorAll("*"))) {
    const tag = el.tagName.toLowerCase();
    if (["iframe", "frame", "object", "embed"].includes(tag)) elements.push(`<${tag}>`);
    // The app's own scripts are files; JSON data may ride in a script element. Anything else is a payload.
    if (tag === "script" && !el.getAttribute("src") && !/json/i.test(el.getAttribute("type") ?? "")) {
      elements.push(`inline <script>${(el.textContent ?? "").slice(0, 60)}`);
    }
    for (const { name, value } of Array.from(el.attributes)) {
      const attr = name.toLowerCase();
      if (attr.startsWith("on") || attr === "srcdoc") elements.push(`<${tag} ${attr}="${value.slice(0, 60)}">`);
      // Browsers drop control characters and spaces inside a scheme ("java\tscript:"), so this does too.
      // eslint-disable-next-line no-control-regex
      const squeezed = value.replace(/[\u0000-\u0020]/g, "").toLowerCase();
      if (URL_ATTRIBUTES.has(attr) && /^(javascript|vbscript|data):/.test(squeezed)) {
        elements.push(`<${tag} ${attr}="${value.slice(0, 60)}">`);
      }
    }
  }
  const w = window as unknown as { __xss?: unknown; __violations?: string[] };
  // Long unbroken payloads must wrap, not widen the page past the window.
  const limit = document.documentElement.clientWidth;
  const overflow: string[] = [];
  // One pixel of slack: scrollWidth rounds fractional layout up.
  if (document.documentElement.scrollWidth > limit + 1) {
    // The innermost elements past the right edge that nothing clips: what to fix.
    const past = (el: Element) => el.getBoundingClientRect().right > limit + 1;
    const clipped = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== "visible" && !past(a)) return true;
      }
      return false;
    };
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      if (!past(el) || Array.from(el.children).some(past) || clipped(el)) continue;
      overflow.push(`${el.tagName.toLowerCase()}.${[...el.classList].join(".")} ends at ${Math.round(el.getBoundingClientRect().right)} > ${limit}`);
    }
    // And the boxes around the first of them, to see which one grew.
    const first = Array.from(document.body.querySelectorAll("*")).find((el) => past(el) && !Array.from(el.children).some(past) && !clipped(el));
    for (let a = first?.parentElement; a && a !== document.body; a = a.parentElement) {
      overflow.push(`  inside ${a.tagName.toLowerCase()}.${[...a.classList].join(".")} (${getComputedStyle(a).display}, ${Math.round(a.getBoundingClientRect().width)}px)`);
    }
    if (overflow.length === 0) overflow.push(`the page is ${document.documentElement.scrollWidth - limit}px wider than the window`);
  }
  return { ran: w.__xss, elements, violations: w.__violations ?? [], overflow };
}

/**
 * A blocked script, frame, object or form target is a payload that reached the page as markup. Blocked images
 * are not: the app lets a page draw its stand-in for an image from an untrusted host (narrow img-src).
 */
const RECORD_VIOLATIONS = `
  window.__violations = [];
  document.addEventListener("securitypolicyviolation", (e) => {
    if (!/^(img-src|media-src)/.test(e.effectiveDirective)) window.__violations.push(e.effectiveDirective + " " + e.blockedURI + " " + (e.sample || ""));
  });
`;

async function newContext(mode: Mode, width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser().newContext({
    baseURL: baseUrl(),
    viewport: { width, height: width < 500 ? 812 : 900 },
    bypassCSP: mode === "csp-off",
  });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(20_000);
  await context.addInitScript(RECORD_VIOLATIONS);
  return { context, page: await context.newPage() };
}

/** The page's text, form values and title: where a payload must show up, as text. */
async function pageText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const values = Array.from(document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea")).map((el) => el.value);
    return [document.title, document.body.innerText, ...values].join("\n");
  });
}

/**
 * Waits until every one of `shown` is on the page as text (so the payload truly reached it), then checks that
 * nothing a payload makes is in the DOM, that none ran, and that the policy blocked no script.
 */
async function expectInert(page: Page, where: string, shown: string[]) {
  let missing = shown;
  await expect
    .poll(async () => {
      const text = await pageText(page);
      return (missing = shown.filter((s) => !text.includes(s)));
    }, { timeout: 15_000 })
    .toEqual([])
    .catch(() => undefined); // reported below, after what the page made of it
  const found = await page.evaluate(scanPage);
  expect(found.elements, `${where}: elements or links a payload made`).toEqual([]);
  expect(found.ran, `${where}: a payload ran`).toBeUndefined();
  expect(found.violations, `${where}: blocked by the policy`).toEqual([]);
  expect(missing, `${where}: payload text not shown`).toEqual([]);
  expect(found.overflow, `${where}: wider than the window`).toEqual([]);
  inspected.push(where);
}

const inspected: string[] = [];

/** Sends a chat message and waits for the streamed reply to finish (the composer is enabled again). */
async function sendAndWait(page: Page, text: string) {
  const input = page.getByLabel("Message", { exact: true });
  await input.fill(text);
  const response = page.waitForResponse((r) => r.url().includes("/messages") && r.request().method() === "POST");
  await input.press("Enter");
  await response;
  await page.waitForFunction(() => !(document.getElementById("chat-input") as HTMLTextAreaElement | null)?.disabled);
}

// ---- What goes in

const stamp = Date.now().toString(36);

/** A business profile with a payload in every free-text field (the website and email must stay valid addresses). */
const PROFILE = {
  company_name: `Probe Roofing ${stamp} ${XSS_MARKUP.img} ${XSS_MARKUP.breakout}`,
  company_website: `https://probe-roofing.example/"><img src=x onerror=window.__xss='site'>`,
  company_phone: XSS_SHORT,
  company_location: `Tampa, FL ${XSS_MARKUP.svg}`,
  company_email: "owner@probe-roofing.example",
  company_category: "Roofing",
  company_description: hostile("Roof repair and storm damage restoration."),
};

/** One pasted prospect row: Description, Name, Location, Phone, Email (the import does not check the email). */
const PROSPECT = {
  // The marker makes the fake AI answer this prospect's report and chat with payloads of its own.
  name: `[fake:xss] Probe Plumbing ${stamp} ${XSS_MARKUP.img} ${XSS_MARKUP.breakout}`,
  description: hostile("Emergency plumbing and water heaters"),
  area: `Orlando, FL ${XSS_MARKUP.svg}`,
  phone: "(407) 555-0142",
  // A markup "address" is refused at import now (issue 26: a malformed email is that row's error), so the row carries a
  // valid one; markup reaches the pages through the other fields.
  email: `probe-${stamp}@probe.example`,
};

function prospectRow() {
  return [PROSPECT.description, PROSPECT.name, PROSPECT.area, PROSPECT.phone, PROSPECT.email].join("\t");
}

/** A prospect from the Create New Report form, with payloads in the fields the import has not. */
const FORM_PROSPECT = {
  name: `Probe Electric ${stamp} ${XSS_MARKUP.script}`,
  company_name: `${XSS_MARKUP.breakout} LLC`,
  phone: "(813) 555-0100",
  description: hostile("Panel upgrades"),
  area: `Tampa, FL ${XSS_MARKUP.img}`,
  keyword: `electrician ${XSS_MARKUP.svg}`,
  category: "Electrical Services",
  generate: false,
} satisfies NewReportInput;

/** A prospect the AI always fails on: it stays on the Jobs panel (retrying, then on template content). */
const FAILING_PROSPECT = {
  name: `[fake:500] Probe Gutters ${stamp} ${XSS_MARKUP.svg}`,
  area: `Clearwater, FL ${XSS_MARKUP.breakout}`,
  keyword: "gutter cleaning",
  generate: true,
} satisfies NewReportInput;

const VISITOR_MESSAGE = hostile("Do you fix water heaters?");
const ADMIN_MESSAGE = hostile("Write an opener for this prospect");
const POST_TOPIC = hostile("Spring roof check [fake:xss]");
const SEARCH_KEYWORD = `xss roofer ${XSS_SHORT}`;
const SEARCH_LOCATION = `Tampa ${XSS_MARKUP.svg}`;
const SAMPLE_KEYWORD = `fail500 roofer ${XSS_SHORT}`;
const BUSINESS_TYPE = `Plumber ${XSS_MARKUP.img}`;

type Seed = { adminEmail: string; userEmail: string; userId: string; reportId: string; formReportId: string };
let seed: Seed;

beforeAll(async () => {
  const adminEmail = await ensureAdmin();
  const adminToken = await accessToken(adminEmail);

  const userEmail = uniqueEmail("xss");
  // Paid features (posts, search) need a confirmed address (issue 39).
  const { token: userToken } = await confirmedAccount(userEmail, "10.79.0.1");
  const saved = await api<{ profile: { id: string; company_name: string; company_website: string } }>(userToken, "PUT", "/api/profile", PROFILE);
  expect(saved.profile.company_name).toBe(PROFILE.company_name);

  const imported = await api<{ created: { reportId: string }[] }>(adminToken, "POST", "/api/prospects/import", { text: prospectRow() });
  expect(imported.created).toHaveLength(1);
  const reportId = imported.created[0]!.reportId;
  const formReportId = await createReport(adminToken, FORM_PROSPECT);
  await createReport(adminToken, FAILING_PROSPECT);

  // Generated by the real queue against the fake AI's `xss` answer.
  await api(adminToken, "POST", `/api/reports/${reportId}/generate`);
  type Generated = { report: { status: string; source: string | null; content: Record<string, Record<string, string>> | null } };
  await waitUntilReady(reportId);
  const generated = await api<Generated>(adminToken, "GET", `/api/reports/${reportId}`);
  // The AI's content was kept (not replaced by the template), with its script links taken out.
  expect(generated.report.source).toBe("ai");
  const content = generated.report.content!;
  expect(content.metaSEO!.title).toContain(XSS_MARKUP.img);
  const links = { url: content.metaSEO!.url, displayUrl: content.perfectAd!.displayUrl, targetUrl: content.perfectAd!.targetUrl };
  // eslint-disable-next-line no-control-regex
  const scheme = (link = "") => /^([a-z][a-z0-9+.-]*):/i.exec(link.replace(/[\u0000-\u0020]/g, ""))?.[1]?.toLowerCase();
  const notWeb = Object.entries(links).filter(([, link]) => ![undefined, "http", "https"].includes(scheme(link)));
  expect(notWeb, "AI-written links that are not http(s)").toEqual([]);

  seed = { adminEmail, userEmail, userId: saved.profile.id, reportId, formReportId };
}, 90_000);

afterAll(() => {
  if (process.env.E2E_DEBUG) console.log(`XSS journey inspected ${inspected.length} page states:\n${inspected.join("\n")}`);
});

describe.each<Mode>(["csp-off", "csp-on"])("XSS payloads, with the page's CSP %s", (mode) => {
  // One pass at a desktop width, one at a phone's: long payloads must wrap at both.
  const width = mode === "csp-off" ? 1280 : 375;

  it("a user's profile, posts, search results and analyzer show every payload as text and run none", async () => {
    const { context, page } = await newContext(mode, width);
    await signIn(page, seed.userEmail);
    await expectInert(page, `${mode} /dashboard`, [PROFILE.company_name]);

    await page.goto("/settings/personal");
    await page.getByRole("heading", { name: "Business Settings" }).waitFor();
    await expectInert(page, `${mode} /settings/personal`, [PROFILE.company_name, PROFILE.company_website, PROFILE.company_phone, PROFILE.company_description]);

    // A post written by the AI with payloads in its title, text, hashtags and image keywords.
    await page.goto("/tools/facebook-post-generator");
    await page.getByLabel("What should the post be about?").fill(POST_TOPIC);
    await page.getByRole("button", { name: "Generate Facebook Post" }).click();
    const preview = page.getByRole("article", { name: "Facebook post preview" });
    await preview.waitFor();
    await expectInert(page, `${mode} post preview`, [XSS_MARKUP.svg, XSS_MARKUP.breakout]);
    await shot(page, `xss-post-${width}`);
    await page.getByRole("button", { name: "Edit Post" }).click();
    await expectInert(page, `${mode} post editor`, [XSS_MARKUP.script]);
    await page.reload();
    await expectInert(page, `${mode} recent posts`, [XSS_MARKUP.img]);

    // Live results whose titles, snippets and displayed links carry payloads, two linking to javascript: and data:.
    await page.goto("/tools/google-results");
    await page.getByLabel("Search Keyword").fill(SEARCH_KEYWORD);
    await page.getByLabel("Location").fill(SEARCH_LOCATION);
    await searchButton(page).click();
    await page.locator(".result-card").first().waitFor();
    await expectInert(page, `${mode} live search results`, [XSS_SHORT, XSS_MARKUP.svg, XSS_MARKUP.breakout]);
    // The two script links are dropped; the three https results stay.
    expect(await page.locator(".result-card").count()).toBe(3);
    expect(await page.getByText("Using Sample Data").count()).toBe(0);
    await shot(page, `xss-search-${width}`);

    await page.getByLabel("Search Keyword").fill(SAMPLE_KEYWORD);
    await searchButton(page).click();
    await page.getByText("Using Sample Data").waitFor();
    await expectInert(page, `${mode} sample search results`, [SAMPLE_KEYWORD]);

    await page.goto("/tools/google-ads-analyzer");
    await page.getByLabel("Business Type").fill(BUSINESS_TYPE);
    await page.getByLabel("Location").fill(SEARCH_LOCATION);
    await page.getByRole("button", { name: "Analyze" }).click();
    await page.getByText("Using Sample Data").waitFor();
    await expectInert(page, `${mode} local services analyzer`, [XSS_MARKUP.img, XSS_MARKUP.svg]);

    await context.close();
  });

  it("an admin's prospects, report, jobs, users, view-as and both chats show every payload as text and run none", async () => {
    const { context, page } = await newContext(mode, width);
    await signIn(page, seed.adminEmail);

    await page.goto("/admin/report-generator");
    await page.getByRole("searchbox", { name: "Search prospects" }).fill(stamp);
    await page.getByRole("article", { name: PROSPECT.name }).waitFor();
    await page.getByRole("article", { name: FORM_PROSPECT.name }).waitFor();
    await expectInert(page, `${mode} prospect cards`, [PROSPECT.name, PROSPECT.area, PROSPECT.email, FORM_PROSPECT.name, FORM_PROSPECT.area]);
    await shot(page, `xss-prospects-${width}`);

    // The same row pasted again (a real clipboard paste): the import names it as a skipped duplicate.
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
    await page.getByRole("button", { name: "New Prospect" }).click();
    await page.evaluate((text) => navigator.clipboard.writeText(text), prospectRow());
    await page.getByLabel("Paste prospects").focus();
    await page.keyboard.press("Control+V");
    await page.getByText("1 row ready").waitFor();
    await page.getByRole("button", { name: "Create Prospect" }).click();
    await page.getByText("Skipped 1 duplicate").waitFor();
    await expectInert(page, `${mode} import: duplicate skipped`, [`Row 1: ${PROSPECT.name}`]);

    await page.goto(`/admin/reports/${seed.reportId}`);
    await expectInert(page, `${mode} admin report (AI content)`, [PROSPECT.name, XSS_MARKUP.svg, XSS_MARKUP.script, XSS_MARKUP.breakout]);
    await shot(page, `xss-report-${width}`);
    await page.goto(`/admin/reports/${seed.formReportId}`);
    await expectInert(page, `${mode} admin report (form prospect)`, [FORM_PROSPECT.name, FORM_PROSPECT.company_name]);

    await page.goto("/admin/report-generator/jobs");
    await page.getByRole("heading", { level: 1, name: "Jobs" }).waitFor();
    await expectInert(page, `${mode} jobs`, [FAILING_PROSPECT.name]);
    await shot(page, `xss-jobs-${width}`);

    await page.goto("/admin/users");
    await page.getByRole("searchbox", { name: "Search users" }).fill(seed.userEmail);
    const row = page.getByRole("row").filter({ hasText: seed.userEmail });
    await row.waitFor();
    await expectInert(page, `${mode} users`, [PROFILE.company_name, PROFILE.company_website]);
    await shot(page, `xss-users-${width}`);
    await row.getByRole("button", { name: "View" }).click();
    const modal = page.getByRole("dialog", { name: "View User Account" });
    await expectInert(page, `${mode} view-as dialog`, [PROFILE.company_name]);
    await modal.getByRole("button", { name: "View User Account" }).click();
    await page.waitForURL(`**/dashboard?view_as=${seed.userId}`);
    await expectInert(page, `${mode} viewing as the user`, [PROFILE.company_name]);
    await page.goto(`/settings/personal?view_as=${seed.userId}`);
    await expectInert(page, `${mode} the user's settings, viewed as`, [PROFILE.company_description]);
    // On a phone the sidebar, and its way back, sits behind the menu button.
    if (width < 760) await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("button", { name: "Return to Admin View" }).first().click();
    await page.waitForURL(/\/dashboard$/);

    // The admin's chat: a typed payload, and a streamed AI reply with payloads and script links.
    await page.goto(`/admin/prospect-chat/${seed.reportId}`);
    await page.getByRole("heading", { level: 1, name: PROSPECT.name }).waitFor();
    await sendAndWait(page, ADMIN_MESSAGE);
    await expectInert(page, `${mode} admin chat`, [ADMIN_MESSAGE, XSS_LINKS.javascript, XSS_LINKS.data]);
    await page.getByRole("button", { name: "Show system prompt" }).click();
    await expectInert(page, `${mode} admin chat system prompt`, [PROSPECT.description]);

    // A visitor's chat on a phone, then the transcript in Conversations.
    const visitor = await newContext(mode, 375);
    await visitor.page.goto(`/shared/chat/${seed.reportId}`);
    await visitor.page.getByRole("heading", { level: 1, name: PROSPECT.name }).waitFor();
    await sendAndWait(visitor.page, VISITOR_MESSAGE);
    await expectInert(visitor.page, `${mode} shared chat`, [VISITOR_MESSAGE, XSS_LINKS.javascript]);
    await shot(visitor.page, `xss-shared-chat-${mode}`);
    await visitor.context.close();

    await page.getByRole("button", { name: "Conversations" }).click();
    const convo = page.locator(".chat-convo").filter({ hasText: "Do you fix water heaters?" }).first();
    await convo.locator("summary").click();
    await expectInert(page, `${mode} conversations`, [VISITOR_MESSAGE]);
    await context.close();
  });

  it("the shared report, rendered at the edge, and its preview card carry the payloads as text only", async () => {
    const reader = await newContext(mode, 375);
    await reader.page.goto(`/shared/reports/${seed.reportId}`);
    await expectInert(reader.page, `${mode} shared report`, [PROSPECT.name, XSS_MARKUP.svg, XSS_MARKUP.script, XSS_MARKUP.breakout]);
    // The title and the link preview tags hold the payloads as text: nothing broke out of them.
    expect(await reader.page.title()).toContain(XSS_MARKUP.breakout.slice(0, 20));
    const ogTitle = await reader.page.locator('meta[property="og:title"]').getAttribute("content");
    expect(ogTitle).toContain("Probe Plumbing");
    await shot(reader.page, `xss-shared-report-${mode}`);

    const ogImage = await reader.page.locator('meta[property="og:image"]').getAttribute("content");
    if (ogImage) {
      const card = await fetch(new URL(new URL(ogImage).pathname, baseUrl()));
      expect(card.status).toBe(200);
      expect(card.headers.get("content-type")).toBe("image/png");
    }
    await reader.context.close();

    // As a link previewer or a reader without JavaScript sees it: the same markup, no script needed.
    const noJs = await browser().newContext({ baseURL: baseUrl(), javaScriptEnabled: false, bypassCSP: mode === "csp-off" });
    const page = await noJs.newPage();
    await page.goto(`/shared/reports/${seed.reportId}`);
    const found = await page.evaluate(scanPage);
    expect(found.elements, `${mode} shared report without JavaScript`).toEqual([]);
    expect(await page.locator("body").innerText()).toContain(XSS_MARKUP.script);
    await noJs.close();
  });
});
