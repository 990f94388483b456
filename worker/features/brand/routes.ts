// /api/brand (issue 30): the agency's brand. Anyone reads its public fields (the app shell, the sign-in pages); an
// admin reads all of it, resets it, saves it (the accent colour must be readable under white text: 422 with the nearest readable
// colour otherwise) and uploads its logo (the profile's logo rules), served from GET /api/brand/logo?v=<version>.
import { Hono } from "hono";
import { actsAsAdmin, requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { brandOf, forgetBrand, loadBrand, rememberBrand } from "../../platform/brand/load";
import { getDb } from "../../platform/db/client";
import { clearBrandLogo, deleteBrand, getBrandRow, saveBrand, setBrandLogo } from "../../platform/brand/queries";
import {
  ACCENT_UNREADABLE_CODE,
  accentContrast,
  accentRefusalMessage,
  BRAND_LOGO_MAX_BYTES,
  BRAND_LOGO_TOO_LARGE_MESSAGE,
  DEFAULT_BRAND_NAME,
  MIN_CONTRAST,
  nearestReadableAccent,
  publicBrand,
  type AccentRefusal,
  type BrandResponse,
} from "../../platform/brand/rules/brand";
import { BrandUpdate } from "./rules/brand-update";
import { brandThemeCss } from "../../platform/brand/rules/theme";
import { FILE_CACHE_CONTROL } from "../profile/rules/profile";
import type { Env } from "../../platform/env";
import { apiError, ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";
import { announce } from "../../platform/events";
import { validate } from "../../platform/validate";
import { storeLogoUpload } from "../files";

/** A saved brand shows at once in this isolate: its own memo and the shared pages it rendered are forgotten. */
async function saved(row: Parameters<typeof brandOf>[0]) {
  const brand = brandOf(row);
  rememberBrand(brand);
  await announce("brand.changed", {});
  return brand;
}

async function deleteLogo(env: Env, key: string | null) {
  if (!key) return;
  await env.FILES.delete(key).catch((error: unknown) => log.warn("could not delete the brand's replaced logo", { key }, error));
}

export const brandRoutes = new Hono<AppEnv>()
  // Signed out: the public fields. Signed in: the same, and everything for an admin (a bad token is still a 401).
  .get(
    "/",
    async (c, next) => (c.req.header("Authorization") ? requireUser(c, next) : next()),
    async (c) => {
      const brand = await loadBrand(c.env);
      const admin = c.get("subject") !== undefined && actsAsAdmin(c);
      const body: BrandResponse = { brand: admin ? brand : publicBrand(brand) };
      return c.json(body);
    },
  )

  // The accent colour's stylesheet: a pure function of the colour its URL names, so cached for a year.
  .get("/theme.css", (c) => {
    const css = brandThemeCss(`#${c.req.query("accent") ?? ""}`);
    if (!css) return apiError(c, 404, ErrorCode.notFound, "No theme for that colour.");
    return c.body(css, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": FILE_CACHE_CONTROL, "X-Content-Type-Options": "nosniff" });
  })

  // The logo itself: immutable under the version its URL names; any other version gets the current one, briefly cached.
  .get("/logo", async (c) => {
    const row = await getBrandRow(getDb(c.env));
    if (!row?.logoKey) return apiError(c, 404, ErrorCode.notFound, "No logo has been uploaded.");
    const object = await c.env.FILES.get(row.logoKey);
    if (!object) return apiError(c, 404, ErrorCode.notFound, "No logo has been uploaded.");
    const exact = c.req.query("v") === String(row.logoVersion);
    return c.body(object.body, 200, {
      "Content-Type": row.logoContentType ?? "application/octet-stream",
      "Cache-Control": exact ? FILE_CACHE_CONTROL : "public, max-age=60",
      ETag: object.httpEtag,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      // The widget's host pages and mail clients show it too.
      "Cross-Origin-Resource-Policy": "cross-origin",
    });
  })

  .put("/", requireUser, requireAdmin, validate("json", BrandUpdate), async (c) => {
    const input = c.req.valid("json");
    if (input.accentColor) {
      const ratio = accentContrast(input.accentColor);
      if (ratio < MIN_CONTRAST) {
        const suggestion = nearestReadableAccent(input.accentColor);
        const body: AccentRefusal = {
          error: { code: ACCENT_UNREADABLE_CODE, message: accentRefusalMessage(input.accentColor, ratio, suggestion), suggestion, ratio: Math.round(ratio * 100) / 100 },
        };
        return c.json(body, 422);
      }
    }
    const brand = await saved(await saveBrand(getDb(c.env), input));
    const body: BrandResponse = { brand };
    return c.json(body);
  })

  // Back to the product's own brand (the Brand page's "Reset"); the logo leaves R2.
  .delete("/", requireUser, requireAdmin, async (c) => {
    await deleteLogo(c.env, await deleteBrand(getDb(c.env)));
    const body: BrandResponse = { brand: await saved(null) };
    return c.json(body);
  })

  .post("/logo", requireUser, requireAdmin, async (c) => {
    const upload = await storeLogoUpload(c, "brand", BRAND_LOGO_MAX_BYTES, BRAND_LOGO_TOO_LARGE_MESSAGE);
    if (!upload.ok) return upload.response;
    const current = await loadBrand(c.env);
    const { row, previousKey } = await setBrandLogo(getDb(c.env), { key: upload.key, contentType: upload.type.mime }, current.custom ? current.name : DEFAULT_BRAND_NAME);
    await deleteLogo(c.env, previousKey);
    const body: BrandResponse = { brand: await saved(row) };
    return c.json(body, 201);
  })

  .delete("/logo", requireUser, requireAdmin, async (c) => {
    const { row, previousKey } = await clearBrandLogo(getDb(c.env));
    await deleteLogo(c.env, previousKey);
    forgetBrand();
    const body: BrandResponse = { brand: row ? await saved(row) : brandOf(null) };
    return c.json(body);
  });
