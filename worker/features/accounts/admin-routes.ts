// /api/admin (admins): the users list, admin toggles (never on oneself) and the start of a read-only, audited view-as.
import { Hono } from "hono";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { AuditAction, listProfiles, recordAudit, setAdminStatus } from "../../platform/auth/admin-queries";
import { getDb } from "../../platform/db/client";
import { decodeCursor, encodeCursor } from "../../platform/db/cursor";
import { getProfile } from "../../platform/auth/users";
import { getBudgetState, setMonthlyBudget } from "../../platform/metering/budgets";
import { settingsOf } from "../../platform/metering/meter";
import { BudgetUpdate, type BudgetResponse } from "../usage/rules/usage-stats";
import { AdminStatusUpdate, UserListQuery, ViewAsRequest, type UserListResponse } from "./rules/admin-api";
import { profileJson } from "../profile/rules/profile";
import { apiError, ErrorCode, invalidCursor } from "../../platform/errors";
import { validate, validId } from "../../platform/validate";

export const USER_NOT_FOUND = "User not found";
export const CANNOT_CHANGE_OWN_ADMIN = "You cannot change your own admin status.";
export const CANNOT_VIEW_AS_SELF = "You cannot view the product as yourself.";

export const adminUserRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)

  .get("/users", validate("query", UserListQuery), async (c) => {
    const { q, filter, limit, cursor: cursorText } = c.req.valid("query");
    const cursor = cursorText ? decodeCursor(cursorText) : null;
    if (cursorText && !cursor) return invalidCursor(c);
    const page = await listProfiles(getDb(c.env), { q, filter, limit, cursor });
    const body: UserListResponse = {
      users: page.items.map(profileJson),
      total: page.total,
      counts: page.counts,
      nextCursor: page.next ? encodeCursor(page.next) : null,
    };
    return c.json(body);
  })

  .patch("/users/:id", validate("json", AdminStatusUpdate), validId(USER_NOT_FOUND), async (c) => {
    const targetId = c.req.valid("param").id;
    const caller = c.get("caller");
    // Enforced here, not only by a disabled button: an admin cannot demote (or re-grant) themselves.
    if (targetId === caller.id) return apiError(c, 403, ErrorCode.forbidden, CANNOT_CHANGE_OWN_ADMIN);
    const db = getDb(c.env);
    if (!(await getProfile(db, targetId))) return apiError(c, 404, ErrorCode.notFound, USER_NOT_FOUND);
    const updated = await setAdminStatus(db, caller.id, targetId, c.req.valid("json").is_admin);
    if (!updated) return apiError(c, 404, ErrorCode.notFound, USER_NOT_FOUND);
    return c.json({ user: profileJson(updated) });
  })

  .post("/view-as", validate("json", ViewAsRequest), async (c) => {
    const { userId } = c.req.valid("json");
    const caller = c.get("caller");
    if (userId === caller.id) return apiError(c, 403, ErrorCode.forbidden, CANNOT_VIEW_AS_SELF);
    const db = getDb(c.env);
    const target = await getProfile(db, userId);
    if (!target) return apiError(c, 404, ErrorCode.notFound, USER_NOT_FOUND);
    await recordAudit(db, {
      actorId: caller.id,
      action: AuditAction.viewAsStart,
      targetId: target.id,
      detail: { email: target.email },
    });
    return c.json({ user: profileJson(target) });
  })

  // A user's monthly AI budget in dollars (null: no limit) and this month's spend against it.
  .get("/users/:id/budget", async (c) => {
    const userId = c.req.param("id");
    const db = getDb(c.env);
    if (!(await getProfile(db, userId))) return apiError(c, 404, ErrorCode.notFound, USER_NOT_FOUND);
    const body: BudgetResponse = { user_id: userId, budget: await getBudgetState(db, userId, settingsOf(c.env)) };
    return c.json(body);
  })

  .put("/users/:id/budget", validate("json", BudgetUpdate), async (c) => {
    const userId = c.req.param("id");
    const caller = c.get("caller");
    const db = getDb(c.env);
    if (!(await getProfile(db, userId))) return apiError(c, 404, ErrorCode.notFound, USER_NOT_FOUND);
    const { monthly_usd } = c.req.valid("json");
    await setMonthlyBudget(db, userId, monthly_usd, caller.id);
    await recordAudit(db, { actorId: caller.id, action: AuditAction.aiBudgetSet, targetId: userId, detail: { monthly_usd } });
    const body: BudgetResponse = { user_id: userId, budget: await getBudgetState(db, userId, settingsOf(c.env)) };
    return c.json(body);
  });
