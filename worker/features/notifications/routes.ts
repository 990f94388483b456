// /api/notifications: the signed-in user's alerts (the bell): list with the unread count, mark read, and which alerts
// they get in the app and by mail. A user sees only their own; view-as reads the viewed user's, read-only.
import { Hono } from "hono";
import { z } from "zod";
import { requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { decodeCursor, encodeCursor } from "../../platform/db/cursor";
import { listNotifications, listSettings, markRead, saveSettings, NOTIFICATIONS_PAGE } from "../../platform/notifications/queries";
import { ALERT_LABELS, alertKindsFor, DEFAULT_CHANNELS, MarkReadInput, NotificationSettingsInput } from "../../platform/notifications/rules/lead-alerts";
import type { Env } from "../../platform/env";
import { invalidCursor } from "../../platform/errors";
import { mailConfig } from "../../platform/providers/mail";
import { alertLine } from "../../platform/notifications/mail";
import { validate } from "../../platform/validate";

const ListQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(NOTIFICATIONS_PAGE),
});

function parseData(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The alert kinds the user's role can get, with their channels (defaults where they saved nothing), and whether mail
 * can go out at all. A business owner gets no prospect alerts, so none are listed to them.
 */
function settingsBody(env: Env, saved: { kind: string; inApp: boolean; byMail: boolean }[], isAdmin: boolean) {
  return {
    mailConfigured: mailConfig(env) !== null,
    role: isAdmin ? ("agency" as const) : ("business" as const),
    settings: alertKindsFor(isAdmin).map((kind) => {
      const row = saved.find((s) => s.kind === kind);
      return { kind, label: ALERT_LABELS[kind], inApp: row?.inApp ?? DEFAULT_CHANNELS.inApp, byMail: row?.byMail ?? DEFAULT_CHANNELS.byMail };
    }),
  };
}

export const notificationRoutes = new Hono<AppEnv>()
  .use(requireUser)

  .get("/", validate("query", ListQuery), async (c) => {
    const { cursor: cursorText, limit } = c.req.valid("query");
    const cursor = cursorText ? decodeCursor(cursorText) : null;
    if (cursorText && !cursor) return invalidCursor(c);
    const page = await listNotifications(getDb(c.env), c.get("subject").id, cursor, limit);
    const last = page.rows[page.rows.length - 1];
    return c.json({
      notifications: page.rows.map((n) => ({
        id: n.id,
        kind: n.kind,
        text: alertLine(n),
        prospectId: n.prospectId,
        prospectName: n.prospectName,
        reportId: n.reportId,
        data: parseData(n.data),
        read: n.readAt !== null,
        createdAt: n.createdAt,
      })),
      unread: page.unread,
      nextCursor: page.more && last ? encodeCursor({ createdAt: last.createdAt, seq: last.seq }) : null,
    });
  })

  .post("/read", validate("json", MarkReadInput), async (c) => {
    const input = c.req.valid("json");
    const db = getDb(c.env);
    const changed = await markRead(db, c.get("caller").id, "all" in input ? "all" : input.ids);
    const { unread } = await listNotifications(db, c.get("caller").id, null, 1);
    return c.json({ marked: changed, unread });
  })

  .get("/settings", async (c) => {
    const subject = c.get("subject");
    const saved = await listSettings(getDb(c.env), subject.id);
    return c.json(settingsBody(c.env, saved, subject.isAdmin));
  })

  .put("/settings", validate("json", NotificationSettingsInput), async (c) => {
    const db = getDb(c.env);
    const userId = c.get("caller").id;
    const isAdmin = c.get("caller").isAdmin;
    const allowed = alertKindsFor(isAdmin);
    const settings = c.req.valid("json").settings.filter((s) => allowed.includes(s.kind));
    if (settings.length) await saveSettings(db, userId, settings);
    const saved = await listSettings(db, userId);
    return c.json(settingsBody(c.env, saved, isAdmin));
  });
