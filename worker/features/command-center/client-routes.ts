// /api/agency/clients and /api/agency/views (issue 41): every client on one view, for admins: the stored rows sorted,
// filtered and searched in the database, as CSV too; the account manager; each admin's hidden columns and saved views.
import { Hono } from "hono";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { apiError, ErrorCode } from "../../platform/errors";
import { validate } from "../../platform/validate";
import { z } from "zod";
import { isAdminUser, isClient, saveViewSettings, setManager, viewSettings } from "./client-queries";
import { clientsCsv, clientsPage } from "./clients-view";
import { bulkEstimate, runBulk } from "./bulk";
import { BulkInput } from "./rules/bulk";
import { estimateQuery, wantsEstimate } from "../../platform/http/paid-run";
import { appOrigin } from "../../platform/origin";
import { CLIENTS_WORDING, ClientsQuery, ManagerInput, ViewSettingsInput } from "./rules/clients";

const UserParam = z.object({ userId: z.string().min(1).max(64) });

export const clientRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)

  .get("/", validate("query", ClientsQuery), async (c) => c.json(await clientsPage(getDb(c.env), c.req.valid("query"), c.get("subject").id)))

  .get("/export.csv", validate("query", ClientsQuery), async (c) => {
    const file = await clientsCsv(getDb(c.env), c.req.valid("query"), c.get("subject").id);
    return c.body(file.text, 200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${file.filename}"` });
  })

  // Bulk actions (issue 41): `?estimate=1` answers the estimate; a selection that does not fit is a 402 with it.
  .post("/bulk", estimateQuery, validate("json", BulkInput), async (c) => {
    const { action, userIds } = c.req.valid("json");
    const db = getDb(c.env);
    const ctx = { origin: appOrigin(c.env, c.req.url), actorId: c.get("subject").id };
    if (wantsEstimate(c)) return c.json(await bulkEstimate(c.env, db, action, userIds, ctx));
    const ran = await runBulk(c.env, db, action, userIds, ctx);
    if ("refusal" in ran) return c.json({ error: { ...ran.refusal, estimate: ran.estimate } }, 402);
    return c.json(ran.result);
  })

  .put("/:userId", validate("param", UserParam), validate("json", ManagerInput), async (c) => {
    const db = getDb(c.env);
    const { userId } = c.req.valid("param");
    const { managerId } = c.req.valid("json");
    if (!(await isClient(db, userId))) return apiError(c, 404, ErrorCode.notFound, CLIENTS_WORDING.notClient);
    if (managerId && !(await isAdminUser(db, managerId))) return apiError(c, 400, ErrorCode.validation, CLIENTS_WORDING.notAdmin, { managerId: [CLIENTS_WORDING.notAdmin] });
    await setManager(db, userId, managerId);
    return c.json({ userId, managerId });
  });

export const viewRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)

  .get("/", async (c) => c.json(await viewSettings(getDb(c.env), c.get("subject").id)))

  .put("/", validate("json", ViewSettingsInput), async (c) => {
    const db = getDb(c.env);
    await saveViewSettings(db, c.get("subject").id, c.req.valid("json"));
    return c.json(await viewSettings(db, c.get("subject").id));
  });
