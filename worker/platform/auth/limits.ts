// Rate limits of the auth service: which D1 counters sign-up, sign-in and recovery touch, and when they refuse.
import type { Context } from "hono";
import type { Db } from "../db/client";
import { clearKey, countEvent, retryAfterSeconds, uncountEvent, type Limit } from "../db/rate-limits";
import { authError } from "./gotrue";

export const authLimits = {
  signInEmail: (email: string): Limit => ({ key: `signin:email:${email}`, max: 10, windowSeconds: 900 }),
  signInIp: (ip: string): Limit => ({ key: `signin:ip:${ip}`, max: 50, windowSeconds: 900 }),
  signUpIp: (ip: string): Limit => ({ key: `signup:ip:${ip}`, max: 30, windowSeconds: 3600 }),
  recoverEmail: (email: string): Limit => ({ key: `recover:email:${email}`, max: 5, windowSeconds: 3600 }),
  /** One address asking for many emails' links (mail bombing, probing): counted per address (IPv6 per /64) too. */
  recoverIp: (ip: string): Limit => ({ key: `recover:ip:${ip}`, max: 20, windowSeconds: 3600 }),
  /** The confirmation link again (issue 39): as recovery, a few an hour per address and per client address. */
  resendEmail: (email: string): Limit => ({ key: `resend:email:${email}`, max: 3, windowSeconds: 3600 }),
  resendIp: (ip: string): Limit => ({ key: `resend:ip:${ip}`, max: 20, windowSeconds: 3600 }),
  /** Two-factor codes per user, counted before the check and taken back on success. */
  mfaVerifyUser: (userId: string): Limit => ({ key: `mfa:verify:${userId}`, max: 10, windowSeconds: 900 }),
};

/** Counts one two-factor code for the user; returns the limit it went over, if any. */
export async function mfaVerifyLimited(db: Db, userId: string): Promise<Limit | null> {
  const limit = authLimits.mfaVerifyUser(userId);
  return (await countEvent(db, limit)) > limit.max ? limit : null;
}

/** A good code clears the user's failed ones. */
export async function mfaVerifySucceeded(db: Db, userId: string) {
  await clearKey(db, authLimits.mfaVerifyUser(userId).key);
}

const RATE_LIMIT_MESSAGE = "Too many attempts. Please wait a few minutes and try again.";

/** Counts one sign-up from this address; returns the limit it went over, if any. */
export async function signUpLimited(db: Db, ip: string): Promise<Limit | null> {
  const limit = authLimits.signUpIp(ip);
  return (await countEvent(db, limit)) > limit.max ? limit : null;
}

/** Counts one request from this address and one for this email; returns the limit it went over (the address's first). */
async function addressThenEmailLimited(db: Db, byIp: Limit, byEmail: Limit): Promise<Limit | null> {
  const [ipCount, emailCount] = await Promise.all([countEvent(db, byIp), countEvent(db, byEmail)]);
  if (ipCount > byIp.max) return byIp;
  return emailCount > byEmail.max ? byEmail : null;
}

/** Counts one recovery request for this email and from this address; returns the limit it went over, if any. */
export function recoverLimited(db: Db, email: string, ip: string): Promise<Limit | null> {
  return addressThenEmailLimited(db, authLimits.recoverIp(ip), authLimits.recoverEmail(email));
}

/** Counts one "send the link again" for this email and from this address; returns the limit it went over, if any. */
export function resendLimited(db: Db, email: string, ip: string): Promise<Limit | null> {
  return addressThenEmailLimited(db, authLimits.resendIp(ip), authLimits.resendEmail(email));
}

/**
 * Counts this sign-in attempt before any password is hashed (one atomic upsert per counter), so a
 * parallel burst cannot try more than the limit; a success then takes its count back. The window
 * is fixed (15 minutes): a lock-out slows an attacker and ends on its own, never for good.
 */
export async function signInAttempt(db: Db, email: string, ip: string): Promise<Limit | null> {
  const emailLimit = authLimits.signInEmail(email);
  const ipLimit = authLimits.signInIp(ip);
  const [byEmail, byIp] = await Promise.all([countEvent(db, emailLimit), countEvent(db, ipLimit)]);
  if (byEmail > emailLimit.max) return emailLimit;
  if (byIp > ipLimit.max) return ipLimit;
  return null;
}

/** A successful sign-in clears the email's failures and takes its own attempt back from the address counter. */
export async function signInSucceeded(db: Db, email: string, ip: string) {
  await Promise.all([clearKey(db, authLimits.signInEmail(email).key), uncountEvent(db, authLimits.signInIp(ip))]);
}

/** GoTrue's 429, with the seconds until the window resets. */
export function tooManyAttempts(c: Context, limit: Limit) {
  c.header("Retry-After", String(retryAfterSeconds(limit)));
  return authError(c, 429, "over_request_rate_limit", RATE_LIMIT_MESSAGE);
}
