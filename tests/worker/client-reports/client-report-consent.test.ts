// Issue 39 item 5: a user could switch on their own monthly report to any five addresses with no consent. Now an
// address a user adds (other than their account's own) is pending until its owner confirms by the mailed link, and only
// confirmed addresses get reports; an admin's addresses need no confirming. Every report mail carries its recipient's
// unsubscribe link and RFC 8058 headers; unsubscribing (page or one-click) removes that recipient.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { mailHeaders } from "../../../worker/platform/mail/outbox";
import { signUp, signUpAdmin } from "../helpers";
import { callWith, clientReportsEnv, drainClientReports, type ClientReportsEnv } from "./client-report-fixtures";

const reportsEnv = clientReportsEnv;
type T = ClientReportsEnv;
const call = callWith;
const drain = drainClientReports;
type Mail = { to_email: string; kind: string; body: string; html: string; headers: string | null };
/** The mails of `kind` to the given addresses (the outbox keeps the file's earlier tests' mail). */
const mails = async (kind: string, to: string[]) =>
  (await env.DB.prepare("select to_email, kind, body, html, headers from outbox where kind = ? order by created_at").bind(kind).all<Mail>()).results.filter((m) => to.includes(m.to_email));
const linkIn = (mail: Mail, path: string) => new RegExp(`https?://[^\\s]+${path}/([A-Za-z0-9_-]+)`).exec(mail.body)?.[0] ?? null;
const HTML = { Accept: "text/html" };

/** Builds a month's report for `userId` and sends it now (as the admin); answers the report mails sent. */
async function buildAndSend(t: T, adminToken: string, userId: string, month: string) {
  const built = await call(t, "/api/client-reports", { method: "POST", token: adminToken, json: { userId, month } });
  expect(built.status, JSON.stringify(built.body)).toBe(202);
  await drain(t);
  const sent = await call(t, `/api/client-reports/${built.body.report.id}/send`, { method: "POST", token: adminToken });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body.report.sentTo as string[];
}

describe("monthly report recipients need consent", () => {
  it("a user's added address is pending and gets nothing until it confirms by the link; the account's own needs no confirming", async () => {
    const t = reportsEnv();
    const admin = await signUpAdmin();
    const user = await signUp();
    const own = user.email.toLowerCase();
    const put = await call(t, `/api/client-reports/settings/${user.user.id}`, { method: "PUT", token: user.session.access_token, json: { enabled: true, recipients: [own, "stranger@example.com"] } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.settings).toMatchObject({ recipients: [own, "stranger@example.com"], pending: ["stranger@example.com"] });
    // The stranger got one mail: the confirmation, naming who asked; no report.
    const asks = await mails("client_report_recipient", [own, "stranger@example.com"]);
    expect(asks.map((m) => m.to_email)).toEqual(["stranger@example.com"]);
    expect(asks[0]!.body).toContain(own);
    const confirmLink = linkIn(asks[0]!, "/shared/client-reports/recipients/confirm");
    expect(confirmLink).toBeTruthy();

    expect(await buildAndSend(t, admin.session.access_token, user.user.id, "2026-09")).toEqual([own]);
    expect((await mails("client_report", [own, "stranger@example.com"])).map((m) => m.to_email)).toEqual([own]);

    // Opening the link (a mail scanner's prefetch too) confirms nothing; the button's POST does.
    const path = new URL(confirmLink!).pathname;
    const shown = await call(t, path, { headers: HTML });
    expect(shown.status).toBe(200);
    expect(shown.text).toContain("<form method=\"post\">");
    expect((await call(t, "/api/client-reports", { token: user.session.access_token })).body.settings.pending).toEqual(["stranger@example.com"]);
    const confirmed = await call(t, path, { method: "POST", headers: HTML });
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain("on the list");
    expect((await call(t, "/api/client-reports", { token: user.session.access_token })).body.settings.pending).toEqual([]);
    // Used once: the link is spent.
    expect((await call(t, path, { method: "POST", headers: HTML })).status).toBe(404);

    expect(await buildAndSend(t, admin.session.access_token, user.user.id, "2026-10")).toEqual([own, "stranger@example.com"]);
  });

  it("an admin's addresses are confirmed at once, and a pending one an admin saves is confirmed", async () => {
    const t = reportsEnv();
    const admin = await signUpAdmin();
    const user = await signUp();
    await call(t, `/api/client-reports/settings/${user.user.id}`, { method: "PUT", token: user.session.access_token, json: { enabled: true, recipients: ["gm@example.com"] } });
    const put = await call(t, `/api/client-reports/settings/${user.user.id}`, { method: "PUT", token: admin.session.access_token, json: { enabled: true, recipients: ["gm@example.com", "office@example.com"] } });
    expect(put.body.settings.pending).toEqual([]);
    expect((await mails("client_report_recipient", ["gm@example.com", "office@example.com"])).map((m) => m.to_email)).toEqual(["gm@example.com"]);
    expect((await buildAndSend(t, admin.session.access_token, user.user.id, "2026-10")).sort()).toEqual(["gm@example.com", "office@example.com"]);
  });

  it("every report mail carries its recipient's own unsubscribe link and one-click headers; using either removes that recipient", async () => {
    const t = reportsEnv();
    const admin = await signUpAdmin();
    const user = await signUp();
    await call(t, `/api/client-reports/settings/${user.user.id}`, { method: "PUT", token: admin.session.access_token, json: { enabled: true, recipients: ["a@example.com", "b@example.com"] } });
    await buildAndSend(t, admin.session.access_token, user.user.id, "2026-09");
    const sent = await mails("client_report", ["a@example.com", "b@example.com"]);
    expect(sent).toHaveLength(2);
    const links = sent.map((m) => linkIn(m, "/shared/client-reports/recipients/unsubscribe"));
    expect(links[0]).toBeTruthy();
    expect(links[0]).not.toBe(links[1]);
    for (const [i, m] of sent.entries()) {
      expect(m.html).toContain(`href="${links[i]}"`);
      expect(mailHeaders(m.headers)).toEqual({ "List-Unsubscribe": `<${links[i]}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    }
    const byAddress = Object.fromEntries(sent.map((m, i) => [m.to_email, new URL(links[i]!).pathname]));

    // a@: the page's button. b@: the mail client's one-click POST.
    expect((await call(t, byAddress["a@example.com"]!, { headers: HTML })).text).toContain("Unsubscribe</button>");
    expect((await call(t, byAddress["a@example.com"]!, { method: "POST", headers: HTML })).text).toContain("You're unsubscribed");
    const list = (await call(t, "/api/client-reports", { token: user.session.access_token })).body.settings;
    expect(list).toMatchObject({ enabled: true, recipients: ["b@example.com"] });
    const oneClick = await call(t, byAddress["b@example.com"]!, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(oneClick.status).toBe(200);
    // The last listed address gone: the report is off rather than falling back to anyone else.
    expect((await call(t, "/api/client-reports", { token: user.session.access_token })).body.settings).toMatchObject({ enabled: false, recipients: [] });
    // Garbage and spent tokens: the "not valid" page, never a 500.
    expect((await call(t, "/shared/client-reports/recipients/unsubscribe/nope", { headers: HTML })).status).toBe(404);
    expect((await call(t, byAddress["a@example.com"]!, { method: "POST", headers: HTML })).status).toBe(404);
  });

  it("a switched-on report with no list goes to the account's address with its unsubscribe link, which switches it off", async () => {
    const t = reportsEnv();
    const admin = await signUpAdmin();
    const user = await signUp();
    await call(t, `/api/client-reports/settings/${user.user.id}`, { method: "PUT", token: user.session.access_token, json: { enabled: true } });
    expect(await buildAndSend(t, admin.session.access_token, user.user.id, "2026-10")).toEqual([user.email.toLowerCase()]);
    const [mail] = await mails("client_report", [user.email.toLowerCase()]);
    const path = new URL(linkIn(mail!, "/shared/client-reports/recipients/unsubscribe")!).pathname;
    expect((await call(t, path, { method: "POST", headers: HTML })).status).toBe(200);
    expect((await call(t, "/api/client-reports", { token: user.session.access_token })).body.settings.enabled).toBe(false);
  });
});
