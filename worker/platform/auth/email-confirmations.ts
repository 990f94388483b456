// One-time email-confirmation links (hashed, a day long): what turns an ADMIN_EMAILS sign-up into an admin.
import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { firstRow, type Db } from "../db/client";
import { auditLog, emailConfirmations, profiles, users } from "./tables";

export const CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000;

export type ConfirmationKind = "signup" | "email_change";

export async function saveEmailConfirmation(
  db: Db,
  userId: string,
  email: string,
  tokenHash: string,
  nowMs = Date.now(),
  kind: ConfirmationKind = "signup",
) {
  const row = { tokenHash, userId, email, kind, expiresAt: new Date(nowMs + CONFIRMATION_TTL_MS).toISOString() };
  if (kind === "signup") {
    await db.insert(emailConfirmations).values(row);
    return;
  }
  // Only the latest requested new address can be confirmed: older change links stop working.
  await db.batch([
    db
      .delete(emailConfirmations)
      .where(and(eq(emailConfirmations.userId, userId), eq(emailConfirmations.kind, "email_change"), isNull(emailConfirmations.usedAt))),
    db.insert(emailConfirmations).values(row),
  ]);
}

/** The new address waiting for its link, if any (GoTrue's `new_email`). */
export async function pendingEmailChange(db: Db, userId: string, nowMs = Date.now()) {
  const row = await firstRow(
    db,
    emailConfirmations,
    and(
      eq(emailConfirmations.userId, userId),
      eq(emailConfirmations.kind, "email_change"),
      isNull(emailConfirmations.usedAt),
      gt(emailConfirmations.expiresAt, new Date(nowMs).toISOString()),
    ),
  );
  return row?.email ?? null;
}

/**
 * Uses the link once: marks the user's address confirmed (when it is still the address the link
 * went to) or, for an email change, makes the link's address the user's; and, when `grantAdmin`
 * says that address is listed, makes the profile admin.
 * Returns the user id, or null when the link is unknown, used, expired, for an old address, or for
 * a new address someone else has taken meanwhile.
 */
export async function confirmEmail(db: Db, tokenHash: string, grantAdmin: (email: string) => boolean, nowMs = Date.now()) {
  const now = new Date(nowMs).toISOString();
  const used = await db
    .update(emailConfirmations)
    .set({ usedAt: now })
    .where(and(eq(emailConfirmations.tokenHash, tokenHash), isNull(emailConfirmations.usedAt), gt(emailConfirmations.expiresAt, now)))
    .returning({ userId: emailConfirmations.userId, email: emailConfirmations.email, kind: emailConfirmations.kind });
  const row = used[0];
  if (!row) return null;
  const confirmed =
    row.kind === "email_change"
      ? await changeEmail(db, row.userId, row.email, now)
      : await db
          .update(users)
          .set({ emailConfirmedAt: now, updatedAt: now })
          .where(and(eq(users.id, row.userId), eq(users.email, row.email)))
          .returning({ id: users.id });
  if (!confirmed[0]) return null;
  if (grantAdmin(row.email)) await grantListedAdmin(db, row.userId, now);
  return row.userId;
}

/** ADMIN_EMAILS takes effect with a confirmed address; never for a user an admin demoted (re-confirming does not undo that). */
async function grantListedAdmin(db: Db, userId: string, now: string) {
  const demoted = sql`exists (select 1 from ${auditLog} where ${auditLog.targetId} = ${userId} and ${auditLog.action} = 'admin_revoke')`;
  await db
    .update(profiles)
    .set({ isAdmin: true, updatedAt: now })
    .where(and(eq(profiles.id, userId), sql`not ${demoted}`));
}

/**
 * A password reset through its mailed link proves the mailbox as the confirmation link does (issue 39): the address
 * is confirmed (when it was not), with what confirming brings (ADMIN_EMAILS).
 */
export async function confirmByRecovery(db: Db, userId: string, grantAdmin: (email: string) => boolean, nowMs = Date.now()) {
  const now = new Date(nowMs).toISOString();
  const confirmed = await db
    .update(users)
    .set({ emailConfirmedAt: now, updatedAt: now })
    .where(and(eq(users.id, userId), isNull(users.emailConfirmedAt)))
    .returning({ email: users.email });
  if (confirmed[0] && grantAdmin(confirmed[0].email)) await grantListedAdmin(db, userId, now);
}

async function changeEmail(db: Db, userId: string, email: string, now: string) {
  const takenBy = () => firstRow(db, users, and(eq(users.email, email), ne(users.id, userId)));
  if (await takenBy()) return [];
  try {
    return await db
      .update(users)
      .set({ email, emailConfirmedAt: now, updatedAt: now })
      .where(eq(users.id, userId))
      .returning({ id: users.id });
  } catch (e) {
    if (await takenBy()) return []; // taken in the same instant: the unique index decided
    throw e;
  }
}
