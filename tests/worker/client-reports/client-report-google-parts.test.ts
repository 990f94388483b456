// The monthly client report's Google section (issue 39, items 15 and 24), through the real routes, consumer and the
// fake Google: when one of its two calls fails (the search terms, or the daily figures), what the other brought is kept
// in the payload, the page, the PDF and the mail, and only the missing part is marked; a client who never connected
// Google gets the "connect Google" explainer even where Google is not set up, never "will be back in the next report".
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ClientReportPayload } from "../../../worker/features/client-reports/rules/client-report";
import { GOOGLE_PART_UNAVAILABLE_TEXT, GOOGLE_STATUS_TEXT } from "../../../worker/features/client-reports/rules/format";
import { FAKE_FIGURES_DOWN_MONTH, FAKE_KEYWORDS_DOWN_MONTH } from "../../fakes/google-data";
import { connectedGoogleUser } from "../integrations/google-connect";
import { signUp, signUpAdmin } from "../helpers";
import { pdfText } from "../pdf-text";
import { callWith, clientReportsEnv, drainClientReports, type ClientReportsEnv } from "./client-report-fixtures";

const reportsEnv = clientReportsEnv;
type T = ClientReportsEnv;
const call = callWith;
const drain = drainClientReports;

/** Builds `month` for `userId` as the admin, mails it, and answers the payload, the page, the PDF's text and the mail. */
async function buildAndSend(t: T, adminToken: string, userId: string, email: string, month: string) {
  const built = await call(t, "/api/client-reports", { method: "POST", token: adminToken, json: { userId, month } });
  expect(built.status, JSON.stringify(built.body)).toBe(202);
  await drain(t);
  const detail = await call(t, `/api/client-reports/${built.body.report.id}`, { token: adminToken });
  expect(detail.body.report.status).toBe("ready");
  const payload = detail.body.payload as ClientReportPayload;
  const shareUrl = detail.body.report.shareUrl as string;
  const page = await call(t, shareUrl, { headers: PAGE_HEADERS });
  expect(page.status).toBe(200);
  const pdf = await (await import("cloudflare:test")).SELF.fetch(`http://localhost${detail.body.report.pdfUrl as string}`);
  expect(pdf.status).toBe(200);
  const sent = await call(t, `/api/client-reports/${built.body.report.id}/send`, { method: "POST", token: adminToken });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const mail = await env.DB.prepare("select body from outbox where to_email = ? and kind = 'client_report'").bind(email.toLowerCase()).first<{ body: string }>();
  return { payload, html: page.text, pdf: await pdfText(new Uint8Array(await pdf.arrayBuffer())), mail: mail!.body };
}

/** A Google-connected client's report for `month`, built and mailed by an admin; its Google section answered. */
async function connectedClientsReport(month: string) {
  const admin = await signUpAdmin();
  const client = await connectedGoogleUser();
  const r = await buildAndSend(reportsEnv(), admin.session.access_token, client.user.id, client.email, month);
  expect(r.payload.google.status).toBe("ok");
  return r;
}

const PAGE_HEADERS = { Accept: "text/html", "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36" };
const fold = (s: string) => s.replace(/\s+/g, " ");

describe("the client report's Google section, one part missing", () => {
  it("keeps the calls, clicks and directions when the search terms fail, and says only the search terms are missing", async () => {
    const r = await connectedClientsReport(FAKE_KEYWORDS_DOWN_MONTH);
    if (r.payload.google.status !== "ok") return;
    expect(r.payload.google.unavailable).toEqual(["keywords"]);
    expect(r.payload.google.calls.current).toEqual(expect.any(Number));
    expect(r.payload.google.websiteClicks.current).toEqual(expect.any(Number));
    expect(r.payload.google.directions.current).toEqual(expect.any(Number));
    expect(r.payload.google.keywords).toEqual([]);
    expect(r.payload.headline[0]).toMatchObject({ key: "calls", value: String(r.payload.google.calls.current) });
    // The page and the PDF: the figures, and the one line on the search terms (not the section's "unavailable").
    expect(r.html).toContain("Direction requests");
    expect(r.html).toContain(GOOGLE_PART_UNAVAILABLE_TEXT.keywords);
    expect(r.html).not.toContain(GOOGLE_STATUS_TEXT.unavailable.title);
    expect(fold(r.pdf)).toContain("Direction requests");
    expect(fold(r.pdf)).toContain("Google did not give us the searches that found your profile");
    expect(fold(r.pdf)).not.toContain(GOOGLE_STATUS_TEXT.unavailable.title);
    // The mail carries the calls that arrived.
    expect(r.mail).toContain(`Calls from Google: ${r.payload.google.calls.current}`);
  });

  it("keeps the search terms when the daily figures fail, and says only the figures are missing", async () => {
    const r = await connectedClientsReport(FAKE_FIGURES_DOWN_MONTH);
    if (r.payload.google.status !== "ok") return;
    expect(r.payload.google.unavailable).toEqual(["figures"]);
    expect(r.payload.google.calls.current).toBeNull();
    expect(r.payload.google.keywords.length).toBeGreaterThan(0);
    expect(r.payload.headline.map((h) => h.key)).not.toContain("calls");
    const first = r.payload.google.keywords[0]!.keyword;
    expect(r.html).toContain(first);
    expect(r.html).toContain("this month&#x27;s calls, website clicks, direction requests and views");
    expect(fold(r.pdf)).toContain(first);
    expect(fold(r.pdf)).toContain("Google did not give us this month's calls");
  });
});

describe("the client report's Google section, never connected", () => {
  it("explains how connecting adds the figures even where Google is not set up, and keeps 'next report' for a failed fetch", async () => {
    const t = reportsEnv({ GOOGLE_OAUTH_CLIENT_ID: "", GOOGLE_OAUTH_CLIENT_SECRET: "" });
    const admin = await signUpAdmin();
    const client = await signUp();
    const built = await call(t, "/api/client-reports", { method: "POST", token: admin.session.access_token, json: { userId: client.user.id, month: "2026-10" } });
    await drain(t);
    const detail = await call(t, `/api/client-reports/${built.body.report.id}`, { token: admin.session.access_token });
    const p = detail.body.payload as ClientReportPayload;
    expect(p.google).toEqual({ status: "not_connected" });
    // No AI here either: the admin's note says what happened and what to do, not the server's wording (item 27).
    expect(detail.body.report.summaryNote).not.toMatch(/server|configured/i);
    expect(detail.body.report.summaryNote).toContain("written from the report's figures");
    expect(detail.body.report.summaryNote).toContain("Set-up");
    const page = await call(t, detail.body.report.shareUrl as string, { headers: PAGE_HEADERS });
    expect(page.text).toContain(GOOGLE_STATUS_TEXT.not_connected.title);
    expect(page.text).not.toContain("will be back in the next report");
    expect(p.whatsNext.map((w) => w.href)).toContain("/integrations");

    // A client who did connect, on an app where Google is not set up any more: the figures could not be fetched.
    const connected = await connectedGoogleUser();
    const again = await call(t, "/api/client-reports", { method: "POST", token: admin.session.access_token, json: { userId: connected.user.id, month: "2026-10" } });
    await drain(t);
    const failed = await call(t, `/api/client-reports/${again.body.report.id}`, { token: admin.session.access_token });
    expect((failed.body.payload as ClientReportPayload).google).toEqual({ status: "unavailable" });
  });
});
