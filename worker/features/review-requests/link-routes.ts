// GET /r/:slug (issue 28): a business's short review link. Everyone who opens it is sent to the same Google
// write-review address (no rating question first, no private form: Google's rules forbid gating); the click is
// counted, and tied to a request when the link carries its token (?r=). Rate limited per address: past the limit
// the visitor is still sent on, uncounted. GET /r/:slug/stop is the unsubscribe page the messages link to.
import { Hono, type Context } from "hono";
import { clientIp } from "../../platform/auth/session";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { countEvent } from "../../platform/db/rate-limits";
import { businessOf, recordClick, resolveShortLink } from "./queries";
import { googleReviewUrl } from "./rules/review-requests";
import { apiError, ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";
import { pageCsp } from "../../platform/plain-page";
import { linkNotReadyHtml, stopPageHtml } from "./pages";
import { effectivePlaceId } from "./requests";

const CLICKS_PER_IP_PER_MINUTE = 30;
const SLUG = /^[a-z0-9]{4,32}$/;

function nonce(): string {
  return crypto.randomUUID().replace(/-/g, "");
}

/** A browser (Accept: text/html) gets the page; any other client the API's error shape. */
function notReady(c: Context<AppEnv>) {
  if (!/text\/html/.test(c.req.header("Accept") ?? "")) return apiError(c, 404, ErrorCode.notFound, "This review link is not available.");
  const n = nonce();
  c.header("Content-Security-Policy", pageCsp(n));
  return c.html(linkNotReadyHtml(n), 404);
}

export const reviewLinkRoutes = new Hono<AppEnv>()
  .get("/:slug", async (c) => {
    const slug = c.req.param("slug");
    const token = c.req.query("r") ?? null;
    const db = getDb(c.env);
    const found = SLUG.test(slug) ? await resolveShortLink(db, slug, token && token.length <= 64 ? token : null) : null;
    if (!found?.link) return notReady(c);
    const { placeId } = await effectivePlaceId(db, found.link.userId, { placeId: found.placeId });
    if (!placeId) return notReady(c);
    try {
      const count = await countEvent(db, { key: `rr:click:${clientIp(c)}`, max: CLICKS_PER_IP_PER_MINUTE, windowSeconds: 60 });
      if (count <= CLICKS_PER_IP_PER_MINUTE) {
        const requestId = found.request && found.request.userId === found.link.userId ? found.request.id : null;
        await recordClick(db, slug, requestId);
      }
    } catch (error) {
      // Counting never keeps a customer from the review page.
      log.error("review link: click not counted", { slug }, error);
    }
    c.header("Cache-Control", "no-store");
    c.header("Referrer-Policy", "no-referrer");
    return c.redirect(googleReviewUrl(placeId), 302);
  })

  .get("/:slug/stop", async (c) => {
    const slug = c.req.param("slug");
    const token = c.req.query("r") ?? "";
    const db = getDb(c.env);
    const found = SLUG.test(slug) && token ? await resolveShortLink(db, slug, token.slice(0, 64)) : null;
    if (!found?.link || !found.request || found.request.userId !== found.link.userId) return notReady(c);
    const n = nonce();
    c.header("Content-Security-Policy", pageCsp(n));
    const business = await businessOf(db, found.link.userId);
    return c.html(stopPageHtml(business?.name?.trim() || "This business", token, n));
  });
