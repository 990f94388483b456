// /api/widgets (issue 21): admins create and edit the agency's free-audit widgets, upload a widget's logo (R2, like
// profile logos), and read a widget's recent leads. Viewing as someone is read-only (requireUser refuses writes).
import { Hono, type Context } from "hono";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { deleteWidget, getWidget, getWidgetWithCounts, insertWidget, listWidgets, recentLeads, updateWidget, widgetJson, type WidgetRow } from "./queries";
import { fileKeyFromUrl, fileUrl } from "../profile/rules/profile";
import { storeLogoUpload } from "../files";
import { capCents, WIDGET_LOGO_MAX_BYTES, WIDGET_LOGO_TOO_LARGE_MESSAGE, WidgetCreate, WidgetPatch, type WidgetDetailResponse, type WidgetListResponse } from "./rules/widgets";
import type { Env } from "../../platform/env";
import { apiError, ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";
import { validate, validId } from "../../platform/validate";
import { widgetProtection, widgetServed } from "./guards";

export const WIDGET_NOT_FOUND = "Widget not found";

const notFound = (c: Context) => apiError(c, 404, ErrorCode.notFound, WIDGET_NOT_FOUND);

/** A written widget as the API answers it (its counts are the detail's: the page reads them from there). */
const json = (env: Env, row: WidgetRow) => widgetJson(row, undefined, widgetServed(env, row));

async function deleteStoredLogo(env: Env, url: string | null): Promise<void> {
  const key = fileKeyFromUrl(url);
  if (!key) return;
  await env.FILES.delete(key).catch((error: unknown) => log.warn("could not delete a widget's replaced logo", { key }, error));
}

export const widgetRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)

  .get("/", async (c) => {
    const body: WidgetListResponse = { widgets: await listWidgets(getDb(c.env), (row) => widgetServed(c.env, row)), protection: widgetProtection(c.env) };
    return c.json(body);
  })

  .post("/", validate("json", WidgetCreate), async (c) => {
    const { dailyCapUsd, ...input } = c.req.valid("json");
    const row = await insertWidget(getDb(c.env), { ...input, dailyCapCents: capCents(dailyCapUsd), origins: JSON.stringify(input.origins), ownerId: c.get("caller").id });
    return c.json({ widget: json(c.env, row) }, 201);
  })

  .get("/:id", validId(WIDGET_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const found = await getWidgetWithCounts(db, c.req.valid("param").id);
    if (!found) return notFound(c);
    const leads = await recentLeads(db, found.row.id);
    const body: WidgetDetailResponse = { widget: widgetJson(found.row, found.counts, widgetServed(c.env, found.row)), leads, protection: widgetProtection(c.env) };
    return c.json(body);
  })

  .patch("/:id", validId(WIDGET_NOT_FOUND), validate("json", WidgetPatch), async (c) => {
    const db = getDb(c.env);
    const id = c.req.valid("param").id;
    const { logo, origins, dailyCapUsd, ...rest } = c.req.valid("json");
    const before = await getWidget(db, id);
    if (!before) return notFound(c);
    const row = await updateWidget(db, id, {
      ...rest,
      ...(origins ? { origins: JSON.stringify(origins) } : {}),
      ...(dailyCapUsd !== undefined ? { dailyCapCents: capCents(dailyCapUsd) } : {}),
      ...(logo === null ? { logoUrl: null } : {}),
    });
    if (!row) return notFound(c);
    if (logo === null) await deleteStoredLogo(c.env, before.logoUrl);
    return c.json({ widget: json(c.env, row) });
  })

  .delete("/:id", validId(WIDGET_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const row = await getWidget(db, c.req.valid("param").id);
    if (!row || !(await deleteWidget(db, row.id))) return notFound(c);
    await deleteStoredLogo(c.env, row.logoUrl);
    return c.body(null, 204);
  })

  // multipart/form-data with a `file` field, as the profile logo; smaller, because the widget's script inlines it.
  .post("/:id/logo", validId(WIDGET_NOT_FOUND), async (c) => {
    const declared = Number(c.req.header("Content-Length") ?? "0");
    if (declared > WIDGET_LOGO_MAX_BYTES + 64 * 1024) return apiError(c, 413, ErrorCode.payloadTooLarge, WIDGET_LOGO_TOO_LARGE_MESSAGE);
    const db = getDb(c.env);
    const before = await getWidget(db, c.req.valid("param").id);
    if (!before) return notFound(c);
    const upload = await storeLogoUpload(c, before.id, WIDGET_LOGO_MAX_BYTES, WIDGET_LOGO_TOO_LARGE_MESSAGE);
    if (!upload.ok) return upload.response;
    const key = upload.key;
    const row = await updateWidget(db, before.id, { logoUrl: fileUrl(key) });
    if (!row) {
      await c.env.FILES.delete(key);
      return notFound(c);
    }
    await deleteStoredLogo(c.env, before.logoUrl);
    return c.json({ widget: json(c.env, row) }, 201);
  });
