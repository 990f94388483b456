// Queries for alerts to the agency (issue 21): who hears of a prospect, their settings, the bell's list, the mail states.
import { and, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { DEFAULT_CHANNELS, type AlertChannels } from "./rules/lead-alerts";
import type { AlertKind } from "./rules/lead-events";
import type { Db } from "../db/client";
import { defineJob } from "../jobs/claim";
import { afterCursor, rowid, type Cursor } from "../db/cursor";
import { profiles, users } from "../auth/tables";
import { prospects, seoReports } from "../db/refs";
import { notifications, notificationSettings } from "./tables";

export type Recipient = { id: string; email: string };

/** The prospect's owner when it has one, else every admin (with their email addresses). */
export async function alertRecipients(db: Db, prospectId: string | null): Promise<Recipient[]> {
  if (prospectId) {
    const [owner] = await db
      .select({ id: users.id, email: users.email })
      .from(prospects)
      .innerJoin(users, eq(users.id, prospects.userId))
      .where(eq(prospects.id, prospectId))
      .limit(1);
    if (owner) return [owner];
  }
  return adminRecipients(db);
}

export async function adminRecipients(db: Db): Promise<Recipient[]> {
  return db
    .select({ id: users.id, email: users.email })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.id))
    .where(eq(profiles.isAdmin, true))
    .limit(100);
}

/** Each user's channels for `kind` (defaults where they saved nothing). */
export async function channelsFor(db: Db, userIds: string[], kind: string): Promise<Map<string, AlertChannels>> {
  const out = new Map<string, AlertChannels>(userIds.map((id) => [id, DEFAULT_CHANNELS]));
  if (userIds.length === 0) return out;
  const rows = await db
    .select({ userId: notificationSettings.userId, inApp: notificationSettings.inApp, byMail: notificationSettings.byMail })
    .from(notificationSettings)
    .where(and(eq(notificationSettings.kind, kind), inArray(notificationSettings.userId, userIds.slice(0, 90))));
  for (const r of rows) out.set(r.userId, { inApp: r.inApp, byMail: r.byMail });
  return out;
}

export async function listSettings(db: Db, userId: string) {
  return db
    .select({ kind: notificationSettings.kind, inApp: notificationSettings.inApp, byMail: notificationSettings.byMail })
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, userId));
}

export async function saveSettings(db: Db, userId: string, settings: { kind: AlertKind; inApp: boolean; byMail: boolean }[]) {
  const now = new Date().toISOString();
  await db
    .insert(notificationSettings)
    .values(settings.map((s) => ({ userId, kind: s.kind, inApp: s.inApp, byMail: s.byMail, updatedAt: now })))
    .onConflictDoUpdate({
      target: [notificationSettings.userId, notificationSettings.kind],
      set: { inApp: sql`excluded.in_app`, byMail: sql`excluded.by_mail`, updatedAt: now },
    });
}

export type NewNotification = {
  userId: string;
  kind: string;
  prospectId: string | null;
  reportId: string | null;
  data: string;
  dedupeKey: string;
  inApp: boolean;
  mailState: "none" | "pending";
  createdAt: string;
};

/** Inserts the alerts not recorded before (same user and dedupe key: ignored); returns those that are new. */
export async function insertNotifications(db: Db, rows: NewNotification[]) {
  const inserted: { id: string; userId: string; mailState: (typeof notifications.$inferSelect)["mailState"] }[] = [];
  // Ten bound parameters a row: eight rows a statement stay under D1's 100.
  for (let i = 0; i < rows.length; i += 8) {
    inserted.push(
      ...(await db
        .insert(notifications)
        .values(rows.slice(i, i + 8).map((r) => ({ id: crypto.randomUUID(), ...r })))
        .onConflictDoNothing()
        .returning({ id: notifications.id, userId: notifications.userId, mailState: notifications.mailState })),
    );
  }
  return inserted;
}

export const NOTIFICATIONS_PAGE = 20;

const listColumns = {
  id: notifications.id,
  kind: notifications.kind,
  prospectId: notifications.prospectId,
  reportId: notifications.reportId,
  prospectName: prospects.name,
  data: notifications.data,
  readAt: notifications.readAt,
  createdAt: notifications.createdAt,
  seq: rowid(notifications),
};

/** One page of the user's in-app alerts, newest first, with the unread count. */
export async function listNotifications(db: Db, userId: string, cursor: Cursor | null, limit = NOTIFICATIONS_PAGE) {
  const mine = and(eq(notifications.userId, userId), eq(notifications.inApp, true));
  const [rows, unread] = await db.batch([
    db
      .select(listColumns)
      .from(notifications)
      .leftJoin(prospects, eq(prospects.id, notifications.prospectId))
      .where(cursor ? and(mine, afterCursor(notifications, notifications.createdAt, cursor)) : mine)
      .orderBy(desc(notifications.createdAt), desc(rowid(notifications)))
      .limit(limit + 1),
    db
      .select({ n: sql<number>`count(*)` })
      .from(notifications)
      .where(and(mine, isNull(notifications.readAt))),
  ]);
  return { rows: rows.slice(0, limit), more: rows.length > limit, unread: unread[0]?.n ?? 0 };
}

/** Marks the user's alerts read (only theirs: ids of others are ignored); returns how many changed. */
export async function markRead(db: Db, userId: string, ids: string[] | "all"): Promise<number> {
  const now = new Date().toISOString();
  const mine = and(eq(notifications.userId, userId), isNull(notifications.readAt));
  const rows = await db
    .update(notifications)
    .set({ readAt: now })
    .where(ids === "all" ? mine : and(mine, inArray(notifications.id, ids)))
    .returning({ id: notifications.id });
  return rows.length;
}

/** Alert mail: the alerts waiting to be mailed of the users who have some (with their addresses), oldest first. */
export async function pendingMail(db: Db, limit = 500) {
  return db
    .select({
      id: notifications.id,
      userId: notifications.userId,
      email: users.email,
      timeZone: profiles.timeZone,
      kind: notifications.kind,
      reportId: notifications.reportId,
      prospectName: prospects.name,
      data: notifications.data,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.userId))
    .leftJoin(profiles, eq(profiles.id, notifications.userId))
    .leftJoin(prospects, eq(prospects.id, notifications.prospectId))
    .where(eq(notifications.mailState, "pending"))
    .orderBy(notifications.createdAt)
    .limit(limit);
}

/** When each of these users was last mailed an alert digest. */
export async function lastMailedAt(db: Db, userIds: string[], digest: "hourly" | "daily" = "hourly"): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (userIds.length === 0) return out;
  // The hourly digest's alerts, or the daily one's (the attention queue's new items, issue 41).
  const kinds = digest === "daily" ? sql`${notifications.kind} = 'attention_new'` : sql`${notifications.kind} not in ('chat_lead','widget_lead','webhook_paused','attention_new')`;
  const rows = await db
    .select({ userId: notifications.userId, at: sql<string>`max(${notifications.mailedAt})` })
    .from(notifications)
    .where(and(inArray(notifications.userId, userIds.slice(0, 90)), eq(notifications.mailState, "sent"), isNotNull(notifications.mailedAt), kinds))
    .groupBy(notifications.userId);
  for (const r of rows) if (r.at) out.set(r.userId, r.at);
  return out;
}

/** Alerts as a job: claimed by marking them mailed (a compare-and-set from pending: a second run never mails them again). */
export const alertMailJob = defineJob({
  table: notifications,
  rows: (ids: string[]) => inArray(notifications.id, ids.slice(0, 90)),
  status: { column: notifications.mailState, from: ["pending"], to: "sent" },
  set: (at) => ({ mailedAt: at }),
});

/** The prospect's name and report for an alert's text and link. */
export async function prospectHead(db: Db, prospectId: string) {
  const [row] = await db
    .select({ name: prospects.name, reportId: seoReports.id })
    .from(prospects)
    .leftJoin(seoReports, eq(seoReports.prospectId, prospects.id))
    .where(eq(prospects.id, prospectId))
    .limit(1);
  return row ?? null;
}
