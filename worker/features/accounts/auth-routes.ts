// /auth/v1: our own auth service, wire-compatible with the GoTrue subset @supabase/auth-js uses.
import { Hono, type Context } from "hono";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { listOutbox } from "../../platform/mail/outbox";
import { sendAppMail } from "../../platform/mail/send";
import { consumeRecoveryToken, saveRecoveryToken } from "../../platform/auth/recovery";
import { confirmByRecovery, confirmEmail, pendingEmailChange, saveEmailConfirmation, type ConfirmationKind } from "../../platform/auth/email-confirmations";
import { log } from "../../platform/log";
import { appOrigin } from "../../platform/origin";
import { consumePasswordReset, deleteSession, deleteSessionsOfUser } from "../../platform/auth/sessions";
import { createUserWithProfile, findUserByEmail, findUserById, normalizeEmail, updateUser } from "../../platform/auth/users";
import { HttpError } from "../../platform/errors";
import { authError, cleanMetadata, echoApiVersion, sessionJson, userJson } from "../../platform/auth/gotrue";
import { recoverLimited, resendLimited, signInAttempt, signInSucceeded, signUpLimited, tooManyAttempts } from "../../platform/auth/limits";
import { DUMMY_HASH, hashPassword, passwordProblem, verifyPassword } from "../../platform/auth/password";
import { rotateSession } from "../../platform/auth/refresh";
import { Credentials, readBody, RecoverBody, RefreshBody, ResendBody, SignUpBody, UpdateUserBody, VerifyBody } from "../../platform/auth/requests";
import { bearerUser, clientIp, issueSession } from "../../platform/auth/session";
import { ACCESS_TOKEN_TTL_SECONDS, assuranceOf, newOpaqueToken, sha256Hex, signAccessToken } from "../../platform/auth/tokens";
import { listFactors } from "../../platform/auth/mfa";
import { adminEmails } from "../../platform/auth/admin-emails";

const CREDENTIALS_REQUIRED = "A valid email address and a password are required.";

function origin(c: Context<AppEnv>) {
  return appOrigin(c.env, c.req.url);
}

/** Local development on this machine: the only place mail links may be read back from the outbox. */
export function localDevelopment(c: Context<AppEnv>): boolean {
  const host = new URL(c.req.url).hostname;
  return c.env.ENVIRONMENT === "development" && (host === "localhost" || host === "127.0.0.1" || host === "[::1]");
}

/**
 * Emails the link that confirms an address: the user's own at sign-up (and, for ADMIN_EMAILS, makes
 * it admin), or the new one asked for by an email change, which takes effect only through the link.
 */
async function sendConfirmation(
  c: Context<AppEnv>,
  db: ReturnType<typeof getDb>,
  user: { id: string; email: string },
  kind: ConfirmationKind = "signup",
) {
  const token = newOpaqueToken();
  await saveEmailConfirmation(db, user.id, user.email, await sha256Hex(token), Date.now(), kind);
  const base = origin(c);
  const link = `${base}/auth/v1/verify?token=${token}&type=${kind}&redirect_to=${encodeURIComponent(`${base}/dashboard`)}`;
  await sendAppMail(c.env, db, kind === "signup" ? "confirm_signup" : "email_change", { to: user.email, link }, { readable: localDevelopment(c) });
}

/** Reads a confirmation or recovery link's token: the user it confirms or recovers, or null. */
async function useEmailLink(c: Context<AppEnv>, db: ReturnType<typeof getDb>, type: string, tokenHash: string) {
  const listed = (e: string) => adminEmails(c.env).has(e);
  if (type !== "recovery" && type !== "magiclink") return confirmEmail(db, tokenHash, listed);
  const userId = await consumeRecoveryToken(db, tokenHash);
  // The reset link came through the mailbox: that confirms the address as its own link would (issue 39).
  if (userId) await confirmByRecovery(db, userId, listed);
  return userId;
}


export const authRoutes = new Hono<AppEnv>()
  .use(async (c, next) => {
    echoApiVersion(c);
    await next();
  })
  .get("/health", (c) =>
    c.json({ version: "porchlight-auth/1", name: "GoTrue", description: "Porchlight's GoTrue-compatible auth service" }),
  )
  .get("/settings", (c) =>
    c.json({
      external: { email: true, phone: false, anonymous_users: false },
      disable_signup: false,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: "",
      saml_enabled: false,
    }),
  )
  .post("/signup", async (c) => {
    const db = getDb(c.env);
    const limited = await signUpLimited(db, clientIp(c));
    if (limited) return tooManyAttempts(c, limited);
    const body = await readBody(c, SignUpBody, CREDENTIALS_REQUIRED);
    if ("error" in body) return body.error;

    const { email, password, data } = body.data;
    const weak = passwordProblem(password);
    if (weak) {
      return authError(c, 422, "weak_password", weak.message, { weak_password: { reasons: weak.reasons } });
    }
    if (await findUserByEmail(db, email)) {
      return authError(c, 422, "user_already_exists", "User already registered");
    }
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
    if (!user) return authError(c, 422, "user_already_exists", "User already registered");
    await sendConfirmation(c, db, user);
    return c.json(await issueSession(c, db, user));
  })
  .post("/token", async (c) => {
    const grant = c.req.query("grant_type");
    const db = getDb(c.env);
    if (grant === "password") {
      const body = await readBody(c, Credentials, CREDENTIALS_REQUIRED);
      if ("error" in body) return body.error;
      const email = normalizeEmail(body.data.email);
      const ip = clientIp(c);
      // Counted before the hash, atomically: a burst cannot try more passwords than the limit.
      const limited = await signInAttempt(db, email, ip);
      if (limited) return tooManyAttempts(c, limited);

      const user = await findUserByEmail(db, email);
      // Unknown email and wrong password cost one hash each and answer alike.
      const ok = await verifyPassword(body.data.password, user?.passwordHash ?? DUMMY_HASH);
      if (!user || !ok) return authError(c, 400, "invalid_credentials", "Invalid login credentials");
      await signInSucceeded(db, email, ip);
      return c.json(await issueSession(c, db, user));
    }
    if (grant === "refresh_token") {
      const body = await readBody(c, RefreshBody, "refresh_token is required");
      if ("error" in body) return body.error;
      try {
        const rotated = await rotateSession(c.env, db, body.data.refresh_token);
        if (!rotated.ok) return authError(c, 400, rotated.errorCode, rotated.message);
        const access = await signAccessToken(c.env, rotated.user, rotated.sessionId, assuranceOf(rotated.session));
        const factors = await listFactors(db, rotated.user.id);
        return c.json(sessionJson(rotated.user, access, rotated.refreshToken, ACCESS_TOKEN_TTL_SECONDS, factors));
      } catch (e) {
        if (e instanceof HttpError) throw e;
        // auth-js signs the user out on a 4xx but retries a 503: a database hiccup must not log anyone out.
        log.error("refresh failed", {}, e);
        return authError(c, 503, "unexpected_failure", "The sign-in service is briefly unavailable. Please try again.");
      }
    }
    return authError(c, 400, "unsupported_grant_type", "Unsupported grant type: only password and refresh_token are enabled.");
  })
  .post("/logout", async (c) => {
    const db = getDb(c.env);
    const found = await bearerUser(c, db);
    if ("error" in found) return found.error;
    const scope = c.req.query("scope") ?? "global";
    if (scope !== "local" && scope !== "others" && scope !== "global") return authError(c, 400, "validation_failed", "scope must be global, local or others");
    // With two-factor sign-in on, a password alone (aal1) ends only its own session: signing out the others needs
    // the code. 422, not 401/403: auth-js reads those as "already signed out" and would report success.
    const passwordOnly = found.context.hasVerifiedFactor && !found.context.aal2;
    if (scope === "others" && passwordOnly) {
      return authError(c, 422, "insufficient_aal", "Enter the code from your authenticator app (or a recovery code) before signing out your other sessions.");
    }
    if (scope === "local" || passwordOnly) await deleteSession(db, found.sessionId);
    else await deleteSessionsOfUser(db, found.user.id, scope === "others" ? found.sessionId : undefined);
    return c.body(null, 204);
  })
  .get("/user", async (c) => {
    const db = getDb(c.env);
    const found = await bearerUser(c, db);
    if ("error" in found) return found.error;
    const [factors, newEmail] = await Promise.all([listFactors(db, found.user.id), pendingEmailChange(db, found.user.id)]);
    return c.json({ ...userJson(found.user, factors), new_email: newEmail ?? undefined });
  })
  .put("/user", async (c) => {
    const db = getDb(c.env);
    const found = await bearerUser(c, db);
    if ("error" in found) return found.error;
    const body = await readBody(c, UpdateUserBody, "Invalid user attributes.");
    if ("error" in body) return body.error;
    const { email, password, data, current_password: currentPassword } = body.data;
    const newEmail = email !== undefined && normalizeEmail(email) !== found.user.email ? normalizeEmail(email) : null;
    const patch: Parameters<typeof updateUser>[2] = {};
    if (password !== undefined) {
      const weak = passwordProblem(password);
      if (weak) return authError(c, 422, "weak_password", weak.message, { weak_password: { reasons: weak.reasons } });
    }
    // As GoTrue: with two-factor sign-in on, the password and the email change only in an aal2 session.
    if ((password !== undefined || newEmail) && found.context.hasVerifiedFactor && !found.context.aal2) {
      return authError(c, 401, "insufficient_aal", "AAL2 session is required to update email or password when MFA is enabled.");
    }
    if (newEmail && (await findUserByEmail(db, newEmail))) {
      return authError(c, 422, "email_exists", "A user with this email address has already been registered");
    }
    if (password !== undefined || newEmail) {
      const proven = await proveCurrentPassword(c, db, found, currentPassword, { passwordOnly: !newEmail });
      if (proven) return proven;
    }
    if (password !== undefined) patch.passwordHash = await hashPassword(password);
    if (data !== undefined) {
      let current: Record<string, unknown>;
      try {
        current = JSON.parse(found.user.userMetadata) as Record<string, unknown>;
      } catch {
        current = {};
      }
      patch.userMetadata = JSON.stringify({ ...cleanMetadata(current), ...cleanMetadata(data) });
    }
    if (Object.keys(patch).length) await updateUser(db, found.user.id, patch);
    // A new password signs out every other session.
    if (patch.passwordHash) await deleteSessionsOfUser(db, found.user.id, found.sessionId);
    // A new address takes effect only when its emailed link is opened (it may be someone else's).
    if (newEmail) await sendConfirmation(c, db, { id: found.user.id, email: newEmail }, "email_change");
    const user = (await findUserById(db, found.user.id))!;
    return c.json({ ...userJson(user, await listFactors(db, user.id)), new_email: (await pendingEmailChange(db, user.id)) ?? undefined });
  })
  .post("/recover", async (c) => {
    const body = await readBody(c, RecoverBody, "A valid email address is required.");
    if ("error" in body) return body.error;
    const db = getDb(c.env);
    const email = normalizeEmail(body.data.email);
    const limited = await recoverLimited(db, email, clientIp(c));
    if (limited) return tooManyAttempts(c, limited);
    const user = await findUserByEmail(db, email);
    // Always the same answer, so the endpoint does not reveal who has an account.
    if (user) {
      const token = newOpaqueToken();
      await saveRecoveryToken(db, user.id, await sha256Hex(token));
      const base = origin(c);
      const redirect = safeRedirect(c.req.query("redirect_to"), base) ?? `${base}/reset-password`;
      const link = `${base}/auth/v1/verify?token=${token}&type=recovery&redirect_to=${encodeURIComponent(redirect)}`;
      await sendAppMail(c.env, db, "reset_password", { to: user.email, link }, { readable: localDevelopment(c) });
    }
    return c.json({});
  })
  // GoTrue's resend (auth-js `resend({ type: "signup", email })`): the confirmation link again, for an account whose
  // address is not confirmed yet. Always the same answer, so it does not reveal who has an account; rate-limited as recover.
  .post("/resend", async (c) => {
    const body = await readBody(c, ResendBody, "A valid email address is required.");
    if ("error" in body) return body.error;
    const db = getDb(c.env);
    const email = normalizeEmail(body.data.email);
    const limited = await resendLimited(db, email, clientIp(c));
    if (limited) return tooManyAttempts(c, limited);
    const user = await findUserByEmail(db, email);
    if (user && user.emailConfirmedAt === null) await sendConfirmation(c, db, user);
    return c.json({});
  })
  .post("/verify", async (c) => {
    const body = await readBody(c, VerifyBody, "Invalid verification request.");
    if ("error" in body) return body.error;
    const token = body.data.token_hash ?? body.data.token;
    if (!token) return authError(c, 400, "validation_failed", "token_hash or token is required.");
    const db = getDb(c.env);
    const tokenHash = await sha256Hex(token);
    const userId = await useEmailLink(c, db, body.data.type, tokenHash);
    const user = userId ? await findUserById(db, userId) : undefined;
    if (!user || (body.data.email && normalizeEmail(body.data.email) !== user.email)) {
      return authError(c, 403, "otp_expired", "Email link is invalid or has expired");
    }
    const recovery = body.data.type === "recovery" || body.data.type === "magiclink";
    return c.json(await issueSession(c, db, user, { passwordReset: recovery, emailLink: !recovery }));
  })
  .get("/verify", async (c) => {
    const base = origin(c);
    const type = c.req.query("type") ?? "recovery";
    const recovery = type === "recovery" || type === "magiclink";
    const redirect = safeRedirect(c.req.query("redirect_to"), base) ?? `${base}${recovery ? "/reset-password" : "/dashboard"}`;
    const token = c.req.query("token");
    const db = getDb(c.env);
    const tokenHash = token ? await sha256Hex(token) : null;
    const userId = tokenHash ? await useEmailLink(c, db, type, tokenHash) : null;
    const user = userId ? await findUserById(db, userId) : undefined;
    if (!user) {
      const err = new URLSearchParams({
        error: "access_denied",
        error_code: "otp_expired",
        error_description: "Email link is invalid or has expired",
      });
      return c.redirect(`${redirect}#${err}`, 303);
    }
    const s = await issueSession(c, db, user, { passwordReset: recovery, emailLink: !recovery });
    const hash = new URLSearchParams({
      access_token: s.access_token,
      refresh_token: s.refresh_token,
      expires_in: String(s.expires_in),
      expires_at: String(s.expires_at),
      token_type: "bearer",
      type: recovery ? "recovery" : type === "email_change" ? "email_change" : "signup",
    });
    return c.redirect(`${redirect}#${hash}`, 303);
  })
  // Local development has no mail provider: the outbox is where mail links land, readable only on this machine.
  .get("/outbox", async (c) => {
    if (!localDevelopment(c)) return authError(c, 404, "not_found", "Not found");
    return c.json({ messages: await listOutbox(getDb(c.env), c.req.query("email")) });
  });

/**
 * A password or email change needs the current password (a stolen access token alone must not take the
 * account). The one exception: a session opened by a recovery link sets a new password once without it.
 * Returns the error to answer with, or null when proven.
 */
async function proveCurrentPassword(
  c: Context<AppEnv>,
  db: ReturnType<typeof getDb>,
  found: { user: { email: string; passwordHash: string }; sessionId: string },
  currentPassword: string | undefined,
  opts: { passwordOnly: boolean },
) {
  if (currentPassword === undefined) {
    if (opts.passwordOnly && (await consumePasswordReset(db, found.sessionId))) return null;
    return authError(c, 400, "reauthentication_needed", "Enter your current password to change your password or email.");
  }
  const ip = clientIp(c);
  // Counted like a sign-in: a stolen access token cannot guess the password faster here.
  const limited = await signInAttempt(db, found.user.email, ip);
  if (limited) return tooManyAttempts(c, limited);
  if (!(await verifyPassword(currentPassword, found.user.passwordHash))) {
    return authError(c, 400, "invalid_credentials", "The current password is incorrect.");
  }
  await signInSucceeded(db, found.user.email, ip);
  return null;
}

function safeRedirect(target: string | undefined, base: string): string | null {
  if (!target) return null;
  try {
    const url = new URL(target, base);
    return url.origin === new URL(base).origin ? url.toString() : null;
  } catch {
    return null;
  }
}
