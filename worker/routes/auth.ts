// /auth/v1: our own auth service, wire-compatible with the GoTrue subset @supabase/auth-js uses.
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context";
import { getDb, type Db } from "../db/client";
import { listOutbox, outboxSender } from "../db/outbox";
import { clearKey, countEvent, currentCount, retryAfterSeconds, type Limit } from "../db/rate-limits";
import { consumeRecoveryToken, saveRecoveryToken } from "../db/recovery";
import {
  createSession,
  deleteSession,
  deleteSessionsOfUser,
  findRefreshToken,
  rotateRefreshToken,
} from "../db/sessions";
import {
  createUserWithProfile,
  findUserByEmail,
  findUserById,
  loadAuthContext,
  normalizeEmail,
  updateUser,
  type UserRow,
} from "../db/users";
import type { Env } from "../env";
import { HttpError } from "../errors";
import { authError, cleanMetadata, echoApiVersion, sessionJson, userJson } from "../auth/gotrue";
import { DUMMY_HASH, hashPassword, passwordProblem, verifyPassword } from "../auth/password";
import {
  ACCESS_TOKEN_TTL_SECONDS,
  childRefreshToken,
  newOpaqueToken,
  sha256Hex,
  signAccessToken,
  verifyAccessToken,
} from "../auth/tokens";

/** Two tabs refreshing with the same token within this window get the same child, not a revocation. */
export const REUSE_GRACE_SECONDS = 10;

const limits = {
  signInEmail: (email: string): Limit => ({ key: `signin:email:${email}`, max: 10, windowSeconds: 900 }),
  signInIp: (ip: string): Limit => ({ key: `signin:ip:${ip}`, max: 50, windowSeconds: 900 }),
  signUpIp: (ip: string): Limit => ({ key: `signup:ip:${ip}`, max: 30, windowSeconds: 3600 }),
  recoverEmail: (email: string): Limit => ({ key: `recover:email:${email}`, max: 5, windowSeconds: 3600 }),
};

const RATE_LIMIT_MESSAGE = "Too many attempts. Please wait a few minutes and try again.";

const Credentials = z.object({
  email: z.string().trim().email().max(254),
  password: z.string().min(1).max(1024),
});
const SignUpBody = Credentials.extend({ data: z.unknown().optional() });
const RefreshBody = z.object({ refresh_token: z.string().min(1).max(512) });
const UpdateUserBody = z.object({
  email: z.string().trim().email().max(254).optional(),
  password: z.string().min(1).max(1024).optional(),
  data: z.unknown().optional(),
});
const RecoverBody = z.object({ email: z.string().trim().email().max(254) });
const VerifyBody = z.object({
  type: z.enum(["recovery", "magiclink", "email"]),
  token_hash: z.string().min(1).max(512).optional(),
  token: z.string().min(1).max(512).optional(),
  email: z.string().trim().email().optional(),
});

function clientIp(c: Context) {
  return c.req.header("CF-Connecting-IP") ?? c.req.header("X-Real-IP") ?? "local";
}

function origin(c: Context<AppEnv>) {
  return c.env.APP_ORIGIN || new URL(c.req.url).origin;
}

async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}

function adminEmails(env: Env): Set<string> {
  return new Set(
    (env.ADMIN_EMAILS ?? "")
      .split(",")
      .map((e) => normalizeEmail(e))
      .filter(Boolean),
  );
}

async function issueSession(c: Context<AppEnv>, db: Db, user: UserRow) {
  const refresh = newOpaqueToken();
  const sessionId = await createSession(db, {
    userId: user.id,
    refreshTokenHash: await sha256Hex(refresh),
    userAgent: c.req.header("User-Agent")?.slice(0, 300),
    ip: clientIp(c),
  });
  const now = new Date().toISOString();
  await updateUser(db, user.id, { lastSignInAt: now });
  const access = await signAccessToken(c.env, user, sessionId);
  return sessionJson({ ...user, lastSignInAt: now }, access, refresh, ACCESS_TOKEN_TTL_SECONDS);
}

/** Resolves the bearer token of an /auth/v1 request to its user and session, GoTrue-style errors. */
async function bearerUser(c: Context<AppEnv>, db: Db) {
  const header = c.req.header("Authorization") ?? "";
  const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  if (!token) return { error: authError(c, 401, "no_authorization", "This endpoint requires a Bearer token") };
  const verified = await verifyAccessToken(c.env, token);
  if (!verified.ok) {
    return {
      error: authError(
        c,
        403,
        "bad_jwt",
        verified.reason === "expired" ? "invalid JWT: token is expired" : "invalid JWT: unable to parse or verify signature",
      ),
    };
  }
  const ctx = await loadAuthContext(db, verified.claims.sub, verified.claims.session_id);
  if (!ctx) {
    return { error: authError(c, 403, "session_not_found", "Session from session_id claim in JWT does not exist") };
  }
  const user = await findUserById(db, ctx.id);
  if (!user) return { error: authError(c, 403, "user_not_found", "User from sub claim in JWT does not exist") };
  return { user, sessionId: verified.claims.session_id };
}

function tooMany(c: Context, limit: Limit) {
  c.header("Retry-After", String(retryAfterSeconds(limit)));
  return authError(c, 429, "over_request_rate_limit", RATE_LIMIT_MESSAGE);
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
    const db = getDb(c.env.DB);
    const ipLimit = limits.signUpIp(clientIp(c));
    if ((await countEvent(db, ipLimit)) > ipLimit.max) return tooMany(c, ipLimit);
    const parsed = SignUpBody.safeParse(await readJson(c));
    if (!parsed.success) {
      return authError(c, 400, "validation_failed", "A valid email address and a password are required.");
    }

    const { email, password, data } = parsed.data;
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
      // Admin status is decided here, on the server; a client's data.is_admin is dropped.
      userMetadata: cleanMetadata(data),
      isAdmin: adminEmails(c.env).has(normalizeEmail(email)),
    }).catch(async (e: unknown) => {
      // Two sign-ups racing for one address: the unique index decides, the loser gets the GoTrue error.
      if (await findUserByEmail(db, email)) return null;
      throw e;
    });
    if (!user) return authError(c, 422, "user_already_exists", "User already registered");
    return c.json(await issueSession(c, db, user));
  })
  .post("/token", async (c) => {
    const grant = c.req.query("grant_type");
    const db = getDb(c.env.DB);
    if (grant === "password") {
      const parsed = Credentials.safeParse(await readJson(c));
      if (!parsed.success) {
        return authError(c, 400, "validation_failed", "A valid email address and a password are required.");
      }
      const email = normalizeEmail(parsed.data.email);
      const emailLimit = limits.signInEmail(email);
      const ipLimit = limits.signInIp(clientIp(c));
      const [byEmail, byIp] = await Promise.all([currentCount(db, emailLimit), currentCount(db, ipLimit)]);
      if (byEmail >= emailLimit.max) return tooMany(c, emailLimit);
      if (byIp >= ipLimit.max) return tooMany(c, ipLimit);

      const user = await findUserByEmail(db, email);
      // Unknown email and wrong password cost one hash each and answer alike.
      const ok = await verifyPassword(parsed.data.password, user?.passwordHash ?? DUMMY_HASH);
      if (!user || !ok) {
        await Promise.all([countEvent(db, emailLimit), countEvent(db, ipLimit)]);
        return authError(c, 400, "invalid_credentials", "Invalid login credentials");
      }
      await clearKey(db, emailLimit.key);
      return c.json(await issueSession(c, db, user));
    }
    if (grant === "refresh_token") {
      const parsed = RefreshBody.safeParse(await readJson(c));
      if (!parsed.success) return authError(c, 400, "validation_failed", "refresh_token is required");
      try {
        return await refresh(c, db, parsed.data.refresh_token);
      } catch (e) {
        if (e instanceof HttpError) throw e;
        // auth-js signs the user out on a 4xx but retries a 503: a database hiccup must not log anyone out.
        console.error("refresh failed", e);
        return authError(c, 503, "unexpected_failure", "The sign-in service is briefly unavailable. Please try again.");
      }
    }
    return authError(c, 400, "unsupported_grant_type", "Unsupported grant type: only password and refresh_token are enabled.");
  })
  .post("/logout", async (c) => {
    const db = getDb(c.env.DB);
    const found = await bearerUser(c, db);
    if ("error" in found) return found.error;
    const scope = c.req.query("scope") ?? "global";
    if (scope === "local") await deleteSession(db, found.sessionId);
    else if (scope === "others") await deleteSessionsOfUser(db, found.user.id, found.sessionId);
    else if (scope === "global") await deleteSessionsOfUser(db, found.user.id);
    else return authError(c, 400, "validation_failed", "scope must be global, local or others");
    return c.body(null, 204);
  })
  .get("/user", async (c) => {
    const db = getDb(c.env.DB);
    const found = await bearerUser(c, db);
    if ("error" in found) return found.error;
    return c.json(userJson(found.user));
  })
  .put("/user", async (c) => {
    const db = getDb(c.env.DB);
    const found = await bearerUser(c, db);
    if ("error" in found) return found.error;
    const parsed = UpdateUserBody.safeParse(await readJson(c));
    if (!parsed.success) return authError(c, 400, "validation_failed", "Invalid user attributes.");
    const { email, password, data } = parsed.data;
    const patch: Parameters<typeof updateUser>[2] = {};
    if (password !== undefined) {
      const weak = passwordProblem(password);
      if (weak) return authError(c, 422, "weak_password", weak.message, { weak_password: { reasons: weak.reasons } });
      patch.passwordHash = await hashPassword(password);
    }
    if (email !== undefined && normalizeEmail(email) !== found.user.email) {
      if (await findUserByEmail(db, email)) {
        return authError(c, 422, "email_exists", "A user with this email address has already been registered");
      }
      patch.email = normalizeEmail(email);
    }
    if (data !== undefined) {
      let current: Record<string, unknown> = {};
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
    return c.json(userJson((await findUserById(db, found.user.id))!));
  })
  .post("/recover", async (c) => {
    const parsed = RecoverBody.safeParse(await readJson(c));
    if (!parsed.success) return authError(c, 400, "validation_failed", "A valid email address is required.");
    const db = getDb(c.env.DB);
    const email = normalizeEmail(parsed.data.email);
    const limit = limits.recoverEmail(email);
    if ((await countEvent(db, limit)) > limit.max) return tooMany(c, limit);
    const user = await findUserByEmail(db, email);
    // Always the same answer, so the endpoint does not reveal who has an account.
    if (user) {
      const token = newOpaqueToken();
      await saveRecoveryToken(db, user.id, await sha256Hex(token));
      const base = origin(c);
      const redirect = safeRedirect(c.req.query("redirect_to"), base) ?? `${base}/reset-password`;
      const link = `${base}/auth/v1/verify?token=${token}&type=recovery&redirect_to=${encodeURIComponent(redirect)}`;
      await outboxSender(db).send({
        to: user.email,
        subject: "Reset your Porchlight password",
        body: `Someone asked to reset the password for ${user.email}.\n\nOpen this link within an hour to choose a new password:\n${link}\n\nIf it was not you, ignore this message.`,
      });
    }
    return c.json({});
  })
  .post("/verify", async (c) => {
    const parsed = VerifyBody.safeParse(await readJson(c));
    if (!parsed.success) return authError(c, 400, "validation_failed", "Invalid verification request.");
    const token = parsed.data.token_hash ?? parsed.data.token;
    if (!token) return authError(c, 400, "validation_failed", "token_hash or token is required.");
    const db = getDb(c.env.DB);
    const userId = await consumeRecoveryToken(db, await sha256Hex(token));
    const user = userId ? await findUserById(db, userId) : undefined;
    if (!user || (parsed.data.email && normalizeEmail(parsed.data.email) !== user.email)) {
      return authError(c, 403, "otp_expired", "Email link is invalid or has expired");
    }
    return c.json(await issueSession(c, db, user));
  })
  .get("/verify", async (c) => {
    const base = origin(c);
    const redirect = safeRedirect(c.req.query("redirect_to"), base) ?? `${base}/reset-password`;
    const token = c.req.query("token");
    const db = getDb(c.env.DB);
    const userId = token ? await consumeRecoveryToken(db, await sha256Hex(token)) : null;
    const user = userId ? await findUserById(db, userId) : undefined;
    if (!user) {
      const err = new URLSearchParams({
        error: "access_denied",
        error_code: "otp_expired",
        error_description: "Email link is invalid or has expired",
      });
      return c.redirect(`${redirect}#${err}`, 303);
    }
    const s = await issueSession(c, db, user);
    const hash = new URLSearchParams({
      access_token: s.access_token,
      refresh_token: s.refresh_token,
      expires_in: String(s.expires_in),
      expires_at: String(s.expires_at),
      token_type: "bearer",
      type: "recovery",
    });
    return c.redirect(`${redirect}#${hash}`, 303);
  })
  // Local development has no mail provider: the outbox is where recovery links land.
  .get("/outbox", async (c) => {
    if (c.env.ENVIRONMENT !== "development") return authError(c, 404, "not_found", "Not found");
    return c.json({ messages: await listOutbox(getDb(c.env.DB), c.req.query("email")) });
  });

function safeRedirect(target: string | undefined, base: string): string | null {
  if (!target) return null;
  try {
    const url = new URL(target, base);
    return url.origin === new URL(base).origin ? url.toString() : null;
  } catch {
    return null;
  }
}

async function refresh(c: Context<AppEnv>, db: Db, token: string) {
  const tokenHash = await sha256Hex(token);
  const row = await findRefreshToken(db, tokenHash);
  if (!row) return authError(c, 400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
  const child = await childRefreshToken(c.env, token);
  if (row.revokedAt) {
    const age = (Date.now() - Date.parse(row.revokedAt)) / 1000;
    const childRow = await findRefreshToken(db, await sha256Hex(child));
    if (age > REUSE_GRACE_SECONDS || !childRow || childRow.revokedAt) {
      // A spent token came back: someone may hold a stolen copy. End the whole session.
      await deleteSession(db, row.sessionId);
      return authError(c, 400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
    }
  } else {
    await rotateRefreshToken(db, row, await sha256Hex(child));
  }
  const user = await findUserById(db, row.userId);
  if (!user) return authError(c, 400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
  const access = await signAccessToken(c.env, user, row.sessionId);
  return c.json(sessionJson(user, access, child, ACCESS_TOKEN_TTL_SECONDS));
}
