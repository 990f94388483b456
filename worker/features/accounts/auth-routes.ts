// /auth/v1: our own auth service, wire-compatible with the GoTrue subset @supabase/auth-js uses.
import { Hono, type Context } from "hono";
import type { AppEnv } from "../../platform/context";
import { getDb, type Db } from "../../platform/db/client";
import { listOutbox } from "../../platform/mail/outbox";
import { appOrigin } from "../../platform/origin";
import { deleteSession, deleteSessionsOfUser } from "../../platform/auth/sessions";
import { findUserByEmail, normalizeEmail, type UserRow } from "../../platform/auth/users";
import { authError, echoApiVersion } from "../../platform/auth/gotrue";
import { recoverLimited, resendLimited, signUpLimited, tooManyAttempts } from "../../platform/auth/limits";
import { Credentials, readBody, RecoverBody, RefreshBody, ResendBody, SignUpBody, UpdateUserBody, VerifyBody } from "../../platform/auth/requests";
import { bearerUser, clientIp, issueSession } from "../../platform/auth/session";
import { EXPIRED_LINK_FRAGMENT, isRecoveryLink, safeRedirect, sendConfirmation, sendRecovery, sessionFragment, userOfEmailLink, type MailLinks } from "./email-links";
import { ownUserJson, updateOwnUser } from "./own-user";
import { bearerAndBody } from "./gotrue-request";
import { authRefusal } from "./refusals";
import { passwordSignIn, refreshSession, signUp } from "./sign-in";

const CREDENTIALS_REQUIRED = "A valid email address and a password are required.";

function origin(c: Context<AppEnv>) {
  return appOrigin(c.env, c.req.url);
}

/** Local development on this machine: the only place mail links may be read back from the outbox. */
export function localDevelopment(c: Context<AppEnv>): boolean {
  const host = new URL(c.req.url).hostname;
  return c.env.ENVIRONMENT === "development" && (host === "localhost" || host === "127.0.0.1" || host === "[::1]");
}

/** Where this request's mailed links point, and whether the outbox keeps them readable. */
function mailLinks(c: Context<AppEnv>): MailLinks {
  return { origin: origin(c), readable: localDevelopment(c) };
}

/**
 * POST /recover and /resend: one address, rate-limited by address and client; `send` mails its account, if it has one.
 * Always the same answer, so neither endpoint reveals who has an account.
 */
async function mailToAddress(
  c: Context<AppEnv>,
  schema: typeof RecoverBody | typeof ResendBody,
  limitedFor: typeof recoverLimited,
  send: (db: Db, user: UserRow) => Promise<void>,
) {
  const body = await readBody(c, schema, "A valid email address is required.");
  if ("error" in body) return body.error;
  const db = getDb(c.env);
  const email = normalizeEmail(body.data.email);
  const limited = await limitedFor(db, email, clientIp(c));
  if (limited) return tooManyAttempts(c, limited);
  const user = await findUserByEmail(db, email);
  if (user) await send(db, user);
  return c.json({});
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
    const signedUp = await signUp(c.env, db, mailLinks(c), body.data);
    if (!signedUp.ok) return authRefusal(c, signedUp.refusal);
    return c.json(await issueSession(c, db, signedUp.user));
  })
  .post("/token", async (c) => {
    const grant = c.req.query("grant_type");
    const db = getDb(c.env);
    if (grant === "password") {
      const body = await readBody(c, Credentials, CREDENTIALS_REQUIRED);
      if ("error" in body) return body.error;
      const signedIn = await passwordSignIn(db, body.data, clientIp(c));
      if (!signedIn.ok) return authRefusal(c, signedIn.refusal);
      return c.json(await issueSession(c, db, signedIn.user));
    }
    if (grant === "refresh_token") {
      const body = await readBody(c, RefreshBody, "refresh_token is required");
      if ("error" in body) return body.error;
      const refreshed = await refreshSession(c.env, db, body.data.refresh_token);
      return refreshed.ok ? c.json(refreshed.session) : authRefusal(c, refreshed.refusal);
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
    return c.json(await ownUserJson(db, found.user));
  })
  .put("/user", async (c) => {
    const db = getDb(c.env);
    const read = await bearerAndBody(c, db, UpdateUserBody, "Invalid user attributes.");
    if ("error" in read) return read.error;
    const { found, body } = read;
    const updated = await updateOwnUser(c.env, db, found, body, { ip: clientIp(c), links: mailLinks(c) });
    if (!updated.ok) return authRefusal(c, updated.refusal);
    return c.json(await ownUserJson(db, updated.user));
  })
  .post("/recover", (c) => mailToAddress(c, RecoverBody, recoverLimited, (db, user) => sendRecovery(c.env, db, mailLinks(c), user, c.req.query("redirect_to"))))
  // GoTrue's resend (auth-js `resend({ type: "signup", email })`): the confirmation link again, for an account whose
  // address is not confirmed yet. Always the same answer, so it does not reveal who has an account; rate-limited as recover.
  .post("/resend", (c) =>
    mailToAddress(c, ResendBody, resendLimited, async (db, user) => {
      if (user.emailConfirmedAt === null) await sendConfirmation(c.env, db, mailLinks(c), user);
    }),
  )
  .post("/verify", async (c) => {
    const body = await readBody(c, VerifyBody, "Invalid verification request.");
    if ("error" in body) return body.error;
    const token = body.data.token_hash ?? body.data.token;
    if (!token) return authError(c, 400, "validation_failed", "token_hash or token is required.");
    const db = getDb(c.env);
    const user = await userOfEmailLink(c.env, db, body.data.type, token);
    if (!user || (body.data.email && normalizeEmail(body.data.email) !== user.email)) {
      return authError(c, 403, "otp_expired", "Email link is invalid or has expired");
    }
    const recovery = isRecoveryLink(body.data.type);
    return c.json(await issueSession(c, db, user, { passwordReset: recovery, emailLink: !recovery }));
  })
  .get("/verify", async (c) => {
    const base = origin(c);
    const type = c.req.query("type") ?? "recovery";
    const recovery = isRecoveryLink(type);
    const redirect = safeRedirect(c.req.query("redirect_to"), base) ?? `${base}${recovery ? "/reset-password" : "/dashboard"}`;
    const db = getDb(c.env);
    const user = await userOfEmailLink(c.env, db, type, c.req.query("token"));
    if (!user) return c.redirect(`${redirect}#${EXPIRED_LINK_FRAGMENT}`, 303);
    const session = await issueSession(c, db, user, { passwordReset: recovery, emailLink: !recovery });
    return c.redirect(`${redirect}#${sessionFragment(session, type)}`, 303);
  })
  // Local development has no mail provider: the outbox is where mail links land, readable only on this machine.
  .get("/outbox", async (c) => {
    if (!localDevelopment(c)) return authError(c, 404, "not_found", "Not found");
    return c.json({ messages: await listOutbox(getDb(c.env), c.req.query("email")) });
  });

