// The public pages behind a monthly report's consent links (issue 39): /shared/client-reports/recipients/confirm/:token
// (the mailed confirmation: GET shows a button, POST confirms, so a mail scanner's prefetch confirms nothing) and
// /shared/client-reports/recipients/unsubscribe/:token (every report mail's link: GET shows a button, POST removes the
// address; RFC 8058 one-click POSTs "List-Unsubscribe=One-Click" to the same URL and gets a plain 200).
import { Hono, type Context } from "hono";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { confirmRecipient, RECIPIENT_TOKEN_RE, recipientByConfirmToken, recipientByUnsubscribeToken, unsubscribeRecipient } from "./recipient-queries";
import { getProfile } from "../../platform/auth/users";
import { apiError, ErrorCode } from "../../platform/errors";
import { escape, page, pageCsp } from "../../platform/plain-page";

const nonce = () => crypto.randomUUID().replace(/-/g, "");

function answer(c: Context<AppEnv>, title: string, body: string, status: 200 | 404 = 200) {
  const n = nonce();
  c.header("Content-Security-Policy", pageCsp(n));
  c.header("Cache-Control", "no-store");
  c.header("Referrer-Policy", "no-referrer");
  c.header("X-Robots-Tag", "noindex");
  return c.html(page(title, body, n), status);
}

/** A browser gets a page; anything else (a client, a scanner) the API's stable error, as the review link does. */
const notValid = (c: Context<AppEnv>) =>
  !/text\/html/.test(c.req.header("Accept") ?? "")
    ? apiError(c, 404, ErrorCode.notFound, "This link is not valid any more.")
    : answer(c, "Link not valid", "<h1>This link is not valid any more</h1><p>It was used already, the address was removed from the report, or the link was copied incompletely.</p>", 404);

async function businessName(c: Context<AppEnv>, userId: string): Promise<string> {
  return (await getProfile(getDb(c.env), userId))?.companyName?.trim() || "this business";
}

export const clientReportRecipientRoutes = new Hono<AppEnv>()
  .get("/confirm/:token", async (c) => {
    const token = c.req.param("token");
    const row = RECIPIENT_TOKEN_RE.test(token) ? await recipientByConfirmToken(getDb(c.env), token) : null;
    if (!row) return notValid(c);
    const name = escape(await businessName(c, row.userId));
    return answer(
      c,
      "Confirm your address",
      `<h1>Get ${name}'s monthly report?</h1><p>Confirm and ${escape(row.email)} gets ${name}'s monthly results report by mail, with a link to stop it in every one.</p><form method="post"><button type="submit">Confirm</button></form>`,
    );
  })
  .post("/confirm/:token", async (c) => {
    const token = c.req.param("token");
    const row = RECIPIENT_TOKEN_RE.test(token) ? await confirmRecipient(getDb(c.env), token) : null;
    if (!row) return notValid(c);
    const name = escape(await businessName(c, row.userId));
    return answer(c, "Confirmed", `<h1>You're on the list</h1><p>${escape(row.email)} gets ${name}'s monthly report from the next one on. Every report has a link to stop it.</p>`);
  })
  .get("/unsubscribe/:token", async (c) => {
    const token = c.req.param("token");
    const row = RECIPIENT_TOKEN_RE.test(token) ? await recipientByUnsubscribeToken(getDb(c.env), token) : null;
    if (!row) return notValid(c);
    const name = escape(await businessName(c, row.userId));
    return answer(c, "Unsubscribe", `<h1>Stop ${name}'s monthly report?</h1><p>${escape(row.email)} won't get it any more.</p><form method="post"><button type="submit">Unsubscribe</button></form>`);
  })
  .post("/unsubscribe/:token", async (c) => {
    const token = c.req.param("token");
    const row = RECIPIENT_TOKEN_RE.test(token) ? await unsubscribeRecipient(getDb(c.env), token) : null;
    const body = await c.req.text().catch(() => "");
    // RFC 8058: the mail client's one-click POST wants a 2xx, not a page; unsubscribing twice is still unsubscribed.
    if (/List-Unsubscribe=One-Click/i.test(body)) return row || RECIPIENT_TOKEN_RE.test(token) ? c.text("Unsubscribed", 200) : apiError(c, 404, ErrorCode.notFound, "This link is not valid any more.");
    if (!row) return notValid(c);
    return answer(c, "Unsubscribed", `<h1>You're unsubscribed</h1><p>${escape(row.email)} won't get ${escape(await businessName(c, row.userId))}'s monthly report any more.</p>`);
  });
