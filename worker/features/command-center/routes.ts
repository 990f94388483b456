// /api/agency/attention (issue 41): the attention queue across every client, for admins. Read it (open, snoozed or
// done; one client's), mark an item done or snooze it until a date (who and when kept).
import { Hono } from "hono";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { apiError, ErrorCode } from "../../platform/errors";
import { validate, validId } from "../../platform/validate";
import { actOnItem, findItem } from "./queries";
import { attentionList } from "./attention";
import { refreshHealth } from "./clients";
import { ATTENTION_WORDING, AttentionAction, AttentionErrorCode, AttentionQuery } from "./rules/attention";

export const attentionRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)

  .get("/", validate("query", AttentionQuery), async (c) => {
    const { status, userId } = c.req.valid("query");
    return c.json(await attentionList(getDb(c.env), { status: status ?? "open", userId }));
  })

  .post("/:id", validId(ATTENTION_WORDING.notFound), validate("json", AttentionAction), async (c) => {
    const db = getDb(c.env);
    const action = c.req.valid("json");
    const item = await findItem(db, c.req.valid("param").id);
    if (!item) return apiError(c, 404, ErrorCode.notFound, ATTENTION_WORDING.notFound);
    if (action.action === "snooze" && action.until <= new Date().toISOString().slice(0, 10)) {
      return apiError(c, 400, AttentionErrorCode.snoozePast, ATTENTION_WORDING.snoozePast, { until: [ATTENTION_WORDING.snoozePast] });
    }
    const row = await actOnItem(db, item.id, action, c.get("subject").id, new Date().toISOString());
    if (!row) return apiError(c, 409, AttentionErrorCode.closed, ATTENTION_WORDING.closed);
    await refreshHealth(db, [row.userId]);
    return c.json({ item: { id: row.id, status: row.status, snoozedUntil: row.snoozedUntil, doneBy: row.doneBy, doneAt: row.doneAt } });
  });
