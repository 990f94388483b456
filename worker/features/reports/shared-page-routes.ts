// GET /shared/reports/:id: the shared report as server-rendered HTML (readable without JavaScript, previewable
// by link unfurlers), edge-cached by id + content version + asset build; and its Open Graph card image.
import { Hono } from "hono";
import { waitUntil, type AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { cardVersion, reportCard } from "./og-card";
import { notFoundPage, reportHead, sharedReportPage } from "./shared";
import { sendShared, sharedRequest } from "./shared-cache";
import { loadSharedReport } from "./views";
import { brandStamp, loadBrand } from "../../platform/brand/load";

/** A card URL carries its version, so the image never changes under it. */
const CARD_CACHE_CONTROL = "public, max-age=31536000, immutable";

export const sharedReportPageRoutes = new Hono<AppEnv>()
  .get("/:id", async (c) => {
    const page = (await sharedReportPage(c.env, c.req.param("id"), sharedRequest(c))) ?? (await notFoundPage(c.env, c.req.url));
    return sendShared(c, page);
  })

  .get("/:id/card.png", async (c) => {
    const id = c.req.param("id");
    const head = await reportHead(getDb(c.env), id);
    if (!head || head.status !== "ready") return c.body("Report not found", 404, { "Content-Type": "text/plain; charset=utf-8" });
    const data = await loadSharedReport(getDb(c.env), id);
    if (!data || !data.report.content) return c.body("Report not found", 404, { "Content-Type": "text/plain; charset=utf-8" });
    const stamp = brandStamp(await loadBrand(c.env));
    const card = await reportCard(c.env, data, (p) => waitUntil(c, p), stamp);
    const exact = c.req.query("v") === cardVersion(data.report.version, stamp);
    return new Response(card.body as BodyInit, {
      headers: {
        "Content-Type": "image/png",
        "Cache-Control": exact ? CARD_CACHE_CONTROL : "public, max-age=300",
        "X-Card": card.rendered ? "RENDERED" : "STORED",
      },
    });
  });
