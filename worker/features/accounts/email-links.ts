// The links the auth service mails (confirm an address, reset a password) and what opening one does: a confirmation
// confirms the address (and, for ADMIN_EMAILS, makes it admin), a recovery link lets its user in to set a password.
import { announce } from "../../platform/events";
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import { adminEmails } from "../../platform/auth/admin-emails";
import { confirmByRecovery, confirmEmail, saveEmailConfirmation, type ConfirmationKind } from "../../platform/auth/email-confirmations";
import { consumeRecoveryToken, saveRecoveryToken } from "../../platform/auth/recovery";
import { findUserById, type UserRow } from "../../platform/auth/users";
import { newOpaqueToken, sha256Hex } from "../../platform/auth/tokens";
import { sendAppMail } from "../../platform/mail/send";

/** Where mailed links point (the app's origin), and whether the outbox keeps them readable (local development only). */
export type MailLinks = { origin: string; readable: boolean };

/** A recovery (or magic) link signs in to set a password; every other type confirms an address. */
export function isRecoveryLink(type: string): boolean {
  return type === "recovery" || type === "magiclink";
}

/** `target` when it is on the app's own origin, else null (a link never sends anyone elsewhere). */
export function safeRedirect(target: string | undefined, base: string): string | null {
  if (!target) return null;
  try {
    const url = new URL(target, base);
    return url.origin === new URL(base).origin ? url.toString() : null;
  } catch {
    return null;
  }
}

/**
 * Emails the link that confirms an address: the user's own at sign-up (and, for ADMIN_EMAILS, makes
 * it admin), or the new one asked for by an email change, which takes effect only through the link.
 */
export async function sendConfirmation(env: Env, db: Db, links: MailLinks, user: { id: string; email: string }, kind: ConfirmationKind = "signup") {
  const token = newOpaqueToken();
  await saveEmailConfirmation(db, user.id, user.email, await sha256Hex(token), Date.now(), kind);
  const base = links.origin;
  const link = `${base}/auth/v1/verify?token=${token}&type=${kind}&redirect_to=${encodeURIComponent(`${base}/dashboard`)}`;
  await sendAppMail(env, db, kind === "signup" ? "confirm_signup" : "email_change", { to: user.email, link }, { readable: links.readable });
}

/** Emails the password-reset link; it lands on `redirectTo` when that is on the app's origin, else the reset page. */
export async function sendRecovery(env: Env, db: Db, links: MailLinks, user: { id: string; email: string }, redirectTo: string | undefined) {
  const token = newOpaqueToken();
  await saveRecoveryToken(db, user.id, await sha256Hex(token));
  const base = links.origin;
  const redirect = safeRedirect(redirectTo, base) ?? `${base}/reset-password`;
  const link = `${base}/auth/v1/verify?token=${token}&type=recovery&redirect_to=${encodeURIComponent(redirect)}`;
  await sendAppMail(env, db, "reset_password", { to: user.email, link }, { readable: links.readable });
}

/** Uses a confirmation or recovery link's token (each works once): the user it confirms or recovers, or undefined. */
export async function userOfEmailLink(env: Env, db: Db, type: string, token: string | undefined): Promise<UserRow | undefined> {
  if (!token) return undefined;
  const tokenHash = await sha256Hex(token);
  const listed = (e: string) => adminEmails(env).has(e);
  let userId: string | null;
  if (!isRecoveryLink(type)) userId = await confirmEmail(db, tokenHash, listed);
  else {
    userId = await consumeRecoveryToken(db, tokenHash);
    // The reset link came through the mailbox: that confirms the address as its own link would (issue 39).
    if (userId) await confirmByRecovery(db, userId, listed);
  }
  const user = userId ? await findUserById(db, userId) : undefined;
  // A confirmed address: a client invitation waiting for it is taken (worker/features/pipeline).
  if (user) await announce("account.confirmed", { env, db, userId: user.id, email: user.email });
  return user;
}

/** The fragment a link that did not work redirects with (auth-js reads it as GoTrue's). */
export const EXPIRED_LINK_FRAGMENT = new URLSearchParams({
  error: "access_denied",
  error_code: "otp_expired",
  error_description: "Email link is invalid or has expired",
}).toString();

/** The fragment a link that worked redirects with: the new session, as GoTrue hands it to auth-js. */
export function sessionFragment(
  session: { access_token: string; refresh_token: string; expires_in: number; expires_at: number },
  type: string,
): string {
  return new URLSearchParams({
    access_token: session.access_token,
    refresh_token: session.refresh_token,
    expires_in: String(session.expires_in),
    expires_at: String(session.expires_at),
    token_type: "bearer",
    type: isRecoveryLink(type) ? "recovery" : type === "email_change" ? "email_change" : "signup",
  }).toString();
}
