// /api/integrations: the Google Business Profile connection — status, the OAuth start and callback, locations, disconnect.
import { tellAgency } from "../../platform/notifications/tell-agency";
import { Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { findConnection, parseLocations, saveChosenLocations } from "./queries";
import { ChooseLocationsRequest } from "../content/rules/gbp-schedule";
import { apiError, ErrorCode } from "../../platform/errors";
import { BROWSER_COOKIE, CALLBACK_PATH, disconnect, finishConnect, integrationsStatus, newBrowserNonce, OAUTH_STATE_TTL_MS, startConnect } from "./connection";
import { validate } from "../../platform/validate";

export const integrationRoutes = new Hono<AppEnv>()
  // Google sends the browser here: no bearer token, the state names the user who started and the nonce cookie proves it
  // is the browser that started (worker/features/integrations/connection.ts).
  .get("/google/callback", async (c) => {
    const q = c.req.query();
    const browserNonce = getCookie(c, BROWSER_COOKIE) ?? null;
    const location = await finishConnect(c.env, getDb(c.env), { state: q.state, code: q.code, error: q.error, browserNonce });
    c.header("Referrer-Policy", "no-referrer");
    return c.redirect(location, 302);
  })

  .use(requireUser)

  .get("/", async (c) => {
    const status = await integrationsStatus(c.env, getDb(c.env), c.get("subject").id);
    // The page tells the customer their agency was told: make it so (one alert a day).
    if (status.google.status === "not_configured") await tellAgency(c.env, "google");
    else if (!status.google.canConnect) await tellAgency(c.env, "encryption");
    return c.json(status);
  })

  .get("/google/start", async (c) => {
    if (c.get("viewingAs")) return apiError(c, 403, ErrorCode.viewAsReadOnly, "You are viewing as another user: this view is read-only.");
    // One nonce per browser (kept if it has one), so two tabs connecting at once both come back bound.
    const held = getCookie(c, BROWSER_COOKIE);
    const nonce = held && /^[A-Za-z0-9_-]{43}$/.test(held) ? held : newBrowserNonce();
    const url = await startConnect(c.env, getDb(c.env), c.get("caller").id, c.req.url, nonce);
    setCookie(c, BROWSER_COOKIE, nonce, {
      httpOnly: true,
      sameSite: "Lax",
      secure: new URL(c.req.url).protocol === "https:",
      path: CALLBACK_PATH,
      maxAge: Math.floor(OAUTH_STATE_TTL_MS / 1000),
    });
    return c.json({ authorizeUrl: url });
  })

  .put("/google/locations", validate("json", ChooseLocationsRequest), async (c) => {
    const db = getDb(c.env);
    const userId = c.get("caller").id;
    const row = await findConnection(db, userId);
    if (!row?.refreshTokenCiphertext || row.status === "needs_reconnect") return apiError(c, 409, ErrorCode.conflict, "Connect Google Business Profile first.");
    const postable = parseLocations(row.availableLocations).filter((l) => l.canOperateLocalPost);
    const wanted = c.req.valid("json").locations;
    const unknown = wanted.filter((name) => !postable.some((l) => l.name === name));
    if (unknown.length) {
      return apiError(c, 400, ErrorCode.validation, "locations: Google does not allow posting to one of these locations.", { locations: unknown.map((n) => `Not a location you can post to: ${n}`) });
    }
    await saveChosenLocations(db, userId, postable.filter((l) => wanted.includes(l.name)));
    return c.json(await integrationsStatus(c.env, db, userId));
  })

  .delete("/google", async (c) => {
    const db = getDb(c.env);
    const userId = c.get("caller").id;
    const gone = await disconnect(c.env, db, userId);
    if (!gone) return apiError(c, 404, ErrorCode.notFound, "Google Business Profile is not connected.");
    return c.json(await integrationsStatus(c.env, db, userId));
  });
