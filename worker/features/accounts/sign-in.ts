// Signing up, signing in with a password and refreshing a session: what the GoTrue routes ask, with GoTrue's refusals.
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import { HttpError } from "../../platform/errors";
import { log } from "../../platform/log";
import { cleanMetadata, sessionJson } from "../../platform/auth/gotrue";
import { signInAttempt, signInSucceeded } from "../../platform/auth/limits";
import { listFactors } from "../../platform/auth/mfa";
import { DUMMY_HASH, hashPassword, passwordProblem, verifyPassword } from "../../platform/auth/password";
import { rotateSession } from "../../platform/auth/refresh";
import { ACCESS_TOKEN_TTL_SECONDS, assuranceOf, signAccessToken } from "../../platform/auth/tokens";
import { createUserWithProfile, findUserByEmail, normalizeEmail, type UserRow } from "../../platform/auth/users";
import { sendConfirmation, type MailLinks } from "./email-links";
import { rateLimited, refused, type Refused } from "./refusals";

/** GoTrue's refusal of a weak password, with its reasons. */
export function weakPasswordRefusal(password: string): Refused | null {
  const weak = passwordProblem(password);
  return weak ? refused(422, "weak_password", weak.message, { weak_password: { reasons: weak.reasons } }) : null;
}

const ALREADY_REGISTERED = refused(422, "user_already_exists", "User already registered");

/** A new account, its address to confirm by the emailed link. */
export async function signUp(
  env: Env,
  db: Db,
  links: MailLinks,
  { email, password, data }: { email: string; password: string; data?: unknown },
): Promise<{ ok: true; user: UserRow } | Refused> {
  const weak = weakPasswordRefusal(password);
  if (weak) return weak;
  if (await findUserByEmail(db, email)) return ALREADY_REGISTERED;
  const user = await createUserWithProfile(db, {
    email,
    passwordHash: await hashPassword(password),
    userMetadata: cleanMetadata(data),
    // Never admin at sign-up: ADMIN_EMAILS takes effect when the address is confirmed by its emailed
    // link (anyone can type a listed address). A client's data.is_admin is dropped.
    isAdmin: false,
  }).catch(async (e: unknown) => {
    // Two sign-ups racing for one address: the unique index decides, the loser gets the GoTrue error.
    if (await findUserByEmail(db, email)) return null;
    throw e;
  });
  if (!user) return ALREADY_REGISTERED;
  await sendConfirmation(env, db, links, user);
  return { ok: true, user };
}

/** The user whose email and password these are, the attempt counted (per address and per client) before any hash. */
export async function passwordSignIn(db: Db, credentials: { email: string; password: string }, ip: string): Promise<{ ok: true; user: UserRow } | Refused> {
  const email = normalizeEmail(credentials.email);
  // Counted before the hash, atomically: a burst cannot try more passwords than the limit.
  const limited = await signInAttempt(db, email, ip);
  if (limited) return rateLimited(limited);
  const user = await findUserByEmail(db, email);
  // Unknown email and wrong password cost one hash each and answer alike.
  const ok = await verifyPassword(credentials.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) return refused(400, "invalid_credentials", "Invalid login credentials");
  await signInSucceeded(db, email, ip);
  return { ok: true, user };
}

/** A refresh token exchanged for a new session (GoTrue's session object), the token rotated. */
export async function refreshSession(env: Env, db: Db, refreshToken: string) {
  try {
    const rotated = await rotateSession(env, db, refreshToken);
    if (!rotated.ok) return refused(400, rotated.errorCode, rotated.message);
    const access = await signAccessToken(env, rotated.user, rotated.sessionId, assuranceOf(rotated.session));
    const factors = await listFactors(db, rotated.user.id);
    return { ok: true as const, session: sessionJson(rotated.user, access, rotated.refreshToken, ACCESS_TOKEN_TTL_SECONDS, factors) };
  } catch (e) {
    if (e instanceof HttpError) throw e;
    // auth-js signs the user out on a 4xx but retries a 503: a database hiccup must not log anyone out.
    log.error("refresh failed", {}, e);
    return refused(503, "unexpected_failure", "The sign-in service is briefly unavailable. Please try again.");
  }
}
