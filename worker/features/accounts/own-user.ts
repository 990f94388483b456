// The signed-in user's own record on /auth/v1/user: reading it, and changing its password, address or metadata.
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import { cleanMetadata, userJson } from "../../platform/auth/gotrue";
import { pendingEmailChange } from "../../platform/auth/email-confirmations";
import { signInAttempt, signInSucceeded } from "../../platform/auth/limits";
import { listFactors } from "../../platform/auth/mfa";
import { hashPassword, verifyPassword } from "../../platform/auth/password";
import { consumePasswordReset, deleteSessionsOfUser } from "../../platform/auth/sessions";
import { findUserByEmail, findUserById, normalizeEmail, updateUser, type UserRow } from "../../platform/auth/users";
import { sendConfirmation, type MailLinks } from "./email-links";
import { rateLimited, refused, type BearerCaller, type Refused } from "./refusals";
import { weakPasswordRefusal } from "./sign-in";

/** GoTrue's user object with its factors, and the address an email change waits to confirm. */
export async function ownUserJson(db: Db, user: UserRow) {
  const [factors, newEmail] = await Promise.all([listFactors(db, user.id), pendingEmailChange(db, user.id)]);
  return { ...userJson(user, factors), new_email: newEmail ?? undefined };
}

/**
 * A password or email change needs the current password (a stolen access token alone must not take the
 * account). The one exception: a session opened by a recovery link sets a new password once without it.
 * Returns the refusal, or null when proven.
 */
async function proveCurrentPassword(db: Db, caller: BearerCaller, currentPassword: string | undefined, ip: string, passwordOnly: boolean): Promise<Refused | null> {
  if (currentPassword === undefined) {
    if (passwordOnly && (await consumePasswordReset(db, caller.sessionId))) return null;
    return refused(400, "reauthentication_needed", "Enter your current password to change your password or email.");
  }
  // Counted like a sign-in: a stolen access token cannot guess the password faster here.
  const limited = await signInAttempt(db, caller.user.email, ip);
  if (limited) return rateLimited(limited);
  if (!(await verifyPassword(currentPassword, caller.user.passwordHash))) return refused(400, "invalid_credentials", "The current password is incorrect.");
  await signInSucceeded(db, caller.user.email, ip);
  return null;
}

/** The stored metadata with the client's keys over it (protected keys dropped from both). */
function mergedMetadata(stored: string, data: unknown): string {
  let current: Record<string, unknown>;
  try {
    current = JSON.parse(stored) as Record<string, unknown>;
  } catch {
    current = {};
  }
  return JSON.stringify({ ...cleanMetadata(current), ...cleanMetadata(data) });
}

/** PUT /user: a new password signs out every other session; a new address takes effect only through its emailed link. */
export async function updateOwnUser(
  env: Env,
  db: Db,
  caller: BearerCaller,
  body: { email?: string; password?: string; data?: unknown; current_password?: string },
  { ip, links }: { ip: string; links: MailLinks },
): Promise<{ ok: true; user: UserRow } | Refused> {
  const { email, password, data, current_password: currentPassword } = body;
  const newEmail = email !== undefined && normalizeEmail(email) !== caller.user.email ? normalizeEmail(email) : null;
  const weak = password !== undefined ? weakPasswordRefusal(password) : null;
  if (weak) return weak;
  const secretChange = password !== undefined || newEmail !== null;
  // As GoTrue: with two-factor sign-in on, the password and the email change only in an aal2 session.
  if (secretChange && caller.context.hasVerifiedFactor && !caller.context.aal2) {
    return refused(401, "insufficient_aal", "AAL2 session is required to update email or password when MFA is enabled.");
  }
  if (newEmail && (await findUserByEmail(db, newEmail))) return refused(422, "email_exists", "A user with this email address has already been registered");
  const proven = secretChange ? await proveCurrentPassword(db, caller, currentPassword, ip, !newEmail) : null;
  if (proven) return proven;
  const patch: Parameters<typeof updateUser>[2] = {};
  if (password !== undefined) patch.passwordHash = await hashPassword(password);
  if (data !== undefined) patch.userMetadata = mergedMetadata(caller.user.userMetadata, data);
  if (Object.keys(patch).length) await updateUser(db, caller.user.id, patch);
  if (patch.passwordHash) await deleteSessionsOfUser(db, caller.user.id, caller.sessionId);
  // The address may be someone else's: it changes when its link is opened.
  if (newEmail) await sendConfirmation(env, db, links, { id: caller.user.id, email: newEmail }, "email_change");
  return { ok: true, user: (await findUserById(db, caller.user.id))! };
}
