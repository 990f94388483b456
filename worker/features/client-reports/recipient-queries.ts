// Consent of the addresses a monthly client report goes to (issue 39): one row per (client, address). Set by an admin
// or the account's own address: confirmed; added by the user: pending until its owner confirms by the mailed link.
// Every row has an unsubscribe token (the report mail's link and List-Unsubscribe); using it removes the address.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { clientReportRecipients, clientReportSettings } from "./tables";

export type ClientReportRecipientRow = typeof clientReportRecipients.$inferSelect;

/** An unguessable URL-safe token (32 random bytes). */
export function recipientToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export const RECIPIENT_TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export async function recipientRows(db: Db, userId: string): Promise<ClientReportRecipientRow[]> {
  return db.select().from(clientReportRecipients).where(eq(clientReportRecipients.userId, userId));
}

/**
 * Brings the rows in line with a saved list: addresses no longer listed are removed (the account's own row stays: it
 * is the default recipient); new ones are confirmed when an admin set them or they are the account's own address, else
 * pending with a confirmation token; a pending one an admin saves is confirmed. Answers the rows that became pending.
 */
export async function syncRecipients(db: Db, userId: string, list: string[], by: "admin" | "user", accountEmail: string | null): Promise<ClientReportRecipientRow[]> {
  const own = accountEmail?.toLowerCase() ?? null;
  const rows = await recipientRows(db, userId);
  const known = new Map(rows.map((r) => [r.email, r]));
  const gone = rows.filter((r) => !list.includes(r.email) && r.email !== own).map((r) => r.email);
  const now = new Date().toISOString();
  const fresh: (typeof clientReportRecipients.$inferInsert)[] = [];
  const confirm: string[] = [];
  for (const email of list) {
    const row = known.get(email);
    const trusted = by === "admin" || email === own;
    if (!row) fresh.push({ userId, email, status: trusted ? "confirmed" : "pending", addedBy: by, confirmToken: trusted ? null : recipientToken(), unsubscribeToken: recipientToken(), confirmedAt: trusted ? now : null });
    else if (row.status === "pending" && trusted) confirm.push(email);
  }
  if (gone.length > 0) await db.delete(clientReportRecipients).where(and(eq(clientReportRecipients.userId, userId), inArray(clientReportRecipients.email, gone)));
  if (confirm.length > 0)
    await db
      .update(clientReportRecipients)
      .set({ status: "confirmed", confirmToken: null, confirmedAt: now })
      .where(and(eq(clientReportRecipients.userId, userId), inArray(clientReportRecipients.email, confirm)));
  // Five addresses at most (the list's limit): one insert, well within D1's bound parameters.
  const inserted = fresh.length > 0 ? await db.insert(clientReportRecipients).values(fresh).onConflictDoNothing().returning() : [];
  return inserted.filter((r) => r.status === "pending");
}

/** Every pending address by client (a few per client at most), for the admin's list. */
export async function pendingByUser(db: Db): Promise<Map<string, string[]>> {
  const rows = await db.select({ userId: clientReportRecipients.userId, email: clientReportRecipients.email }).from(clientReportRecipients).where(eq(clientReportRecipients.status, "pending"));
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.userId, [...(out.get(r.userId) ?? []), r.email]);
  return out;
}

/** The row of an address that gets reports without asking (the account's own): created confirmed when missing. */
export async function ensureConfirmedRecipient(db: Db, userId: string, email: string): Promise<ClientReportRecipientRow> {
  await db
    .insert(clientReportRecipients)
    .values({ userId, email, status: "confirmed", addedBy: "user", unsubscribeToken: recipientToken(), confirmedAt: new Date().toISOString() })
    .onConflictDoNothing();
  const rows = await db.select().from(clientReportRecipients).where(and(eq(clientReportRecipients.userId, userId), eq(clientReportRecipients.email, email))).limit(1);
  return rows[0]!;
}

export async function recipientByConfirmToken(db: Db, token: string): Promise<ClientReportRecipientRow | null> {
  const rows = await db.select().from(clientReportRecipients).where(eq(clientReportRecipients.confirmToken, token)).limit(1);
  return rows[0] ?? null;
}

export async function recipientByUnsubscribeToken(db: Db, token: string): Promise<ClientReportRecipientRow | null> {
  const rows = await db.select().from(clientReportRecipients).where(eq(clientReportRecipients.unsubscribeToken, token)).limit(1);
  return rows[0] ?? null;
}

/** Confirms the pending address of `token` (once: the token goes); null when the token is unknown or used. */
export async function confirmRecipient(db: Db, token: string): Promise<ClientReportRecipientRow | null> {
  const rows = await db
    .update(clientReportRecipients)
    .set({ status: "confirmed", confirmToken: null, confirmedAt: new Date().toISOString() })
    .where(and(eq(clientReportRecipients.confirmToken, token), eq(clientReportRecipients.status, "pending")))
    .returning();
  return rows[0] ?? null;
}

/**
 * Removes the address of `token` from its client's report: its row and its place in the list. When the list is left
 * empty (the report would fall back to the account's address) or it was the account's own default, the report is
 * switched off: an unsubscribed address never gets the next one. Answers the removed row, or null (unknown or used).
 */
export async function unsubscribeRecipient(db: Db, token: string): Promise<ClientReportRecipientRow | null> {
  const rows = await db.delete(clientReportRecipients).where(eq(clientReportRecipients.unsubscribeToken, token)).returning();
  const row = rows[0];
  if (!row) return null;
  const settings = (await db.select().from(clientReportSettings).where(eq(clientReportSettings.userId, row.userId)).limit(1))[0];
  if (settings) {
    let list: string[];
    try {
      const v = JSON.parse(settings.recipients) as unknown;
      list = Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
    } catch {
      list = [];
    }
    const left = list.filter((a) => a !== row.email);
    await db
      .update(clientReportSettings)
      .set({ recipients: JSON.stringify(left), ...(left.length === 0 ? { enabled: false } : {}), updatedAt: new Date().toISOString() })
      .where(eq(clientReportSettings.userId, row.userId));
  }
  return row;
}
