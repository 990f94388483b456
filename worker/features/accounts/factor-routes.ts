// /auth/v1/factors: GoTrue-compatible TOTP enrolment, challenge, verification and removal, as auth-js's `mfa.*` calls them,
// and one-time recovery codes (ours: GoTrue has none) under /factors/recovery-codes: made with aal2, shown once, each
// raising one aal1 session to aal2 once.
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import {
  challengeExpired,
  CHALLENGE_TTL_SECONDS,
  completeChallenge,
  createChallenge,
  createFactor,
  deleteFactor,
  deleteStaleChallenges,
  findChallenge,
  findFactor,
  listFactors,
  recoveryCodeStatus,
  replaceRecoveryCodes,
  useFactorStep,
  useRecoveryCode,
} from "../../platform/auth/mfa";
import { formatRecoveryCode, RecoveryCode } from "./rules/account";
import { newRecoveryCodes, recoveryCodeHash } from "../../platform/auth/recovery-codes";
import { addRefreshToken, findSession } from "../../platform/auth/sessions";
import type { UserRow } from "../../platform/auth/users";
import type { Db } from "../../platform/db/client";
import { authError, sessionJson } from "../../platform/auth/gotrue";
import { mfaVerifyLimited, mfaVerifySucceeded, tooManyAttempts } from "../../platform/auth/limits";
import { readBody } from "../../platform/auth/requests";
import { bearerUser } from "../../platform/auth/session";
import { newTotpSecret, totpEnrolment, totpStep } from "../../platform/auth/totp";
import { ACCESS_TOKEN_TTL_SECONDS, assuranceOf, newOpaqueToken, sha256Hex, signAccessToken } from "../../platform/auth/tokens";
import { ENCRYPTION_KEY_MISSING, encryptionConfigured, encryptionUnavailableMessage, openSecret, sealSecret } from "../../platform/crypto/secret-box";
import { tellAgency } from "../../platform/notifications/tell-agency";
import { log } from "../../platform/log";
import { loadBrand } from "../../platform/brand/load";

/** GoTrue's limit on verified factors per user. */
export const MAX_VERIFIED_FACTORS = 10;

const EnrollBody = z.object({
  factor_type: z.string().max(20),
  friendly_name: z.string().trim().max(100).optional(),
  issuer: z.string().trim().max(100).optional(),
});
const VerifyBody = z.object({ challenge_id: z.string().min(1).max(100), code: z.string().trim().max(20) });
const ChallengeBody = z.object({ channel: z.string().max(20).optional() }).passthrough().optional();
/** A route that reads nothing: no body, or an empty object. */
const NoBody = z.object({}).passthrough().optional();

const RecoveryVerifyBody = z.object({ code: z.string().max(40) });

const factorContext = (factorId: string) => `mfa-factor:${factorId}`;

/** As GoTrue after a good code: new tokens for the same session, now aal2. */
async function aal2Tokens(c: Context<AppEnv>, db: Db, user: UserRow, sessionId: string) {
  const session = (await findSession(db, sessionId))!;
  const refresh = newOpaqueToken();
  await addRefreshToken(db, { sessionId: session.id, userId: user.id, refreshTokenHash: await sha256Hex(refresh) });
  const access = await signAccessToken(c.env, user, session.id, assuranceOf(session));
  return sessionJson(user, access, refresh, ACCESS_TOKEN_TTL_SECONDS, await listFactors(db, user.id));
}

export const authFactorRoutes = new Hono<AppEnv>()
  // ——— recovery codes (before /:id, whose patterns would take these paths) ———
  .get("/recovery-codes", async (c) => {
    const db = getDb(c.env);
    const found = await bearerUser(c, db);
    if ("error" in found) return found.error;
    const status = await recoveryCodeStatus(db, found.user.id);
    return c.json({ total: status.total, remaining: status.remaining, created_at: status.createdAt });
  })
  .post("/recovery-codes", async (c) => {
    const db = getDb(c.env);
    const found = await bearerUser(c, db);
    if ("error" in found) return found.error;
    // No body is needed, but one that does not parse is refused, as on every auth route.
    const body = await readBody(c, NoBody, "Send no body, or an empty JSON object.");
    if ("error" in body) return body.error;
    if (!found.context.hasVerifiedFactor) {
      return authError(c, 422, "mfa_factor_not_found", "Set up an authenticator app first: recovery codes stand in for its code.");
    }
    // A password alone never makes (or replaces) codes: that would hand the second step to whoever has the password.
    if (!found.context.aal2) return authError(c, 422, "insufficient_aal", "AAL2 required to create recovery codes");
    const codes = newRecoveryCodes();
    const createdAt = await replaceRecoveryCodes(
      db,
      found.user.id,
      await Promise.all(codes.map((code) => recoveryCodeHash(c.env, found.user.id, code))),
    );
    c.header("Cache-Control", "no-store");
    return c.json({ codes: codes.map(formatRecoveryCode), created_at: createdAt });
  })
  .post("/recovery-codes/verify", async (c) => {
    const db = getDb(c.env);
    const found = await bearerUser(c, db);
    if ("error" in found) return found.error;
    const body = await readBody(c, RecoveryVerifyBody, "code is required.");
    if ("error" in body) return body.error;
    if (!found.context.hasVerifiedFactor) return authError(c, 422, "mfa_factor_not_found", "This account has no two-factor sign-in to recover.");
    // Counted with the authenticator codes, before the check: guessing stays slow whatever the answers.
    const limited = await mfaVerifyLimited(db, found.user.id);
    if (limited) return tooManyAttempts(c, limited);
    const code = RecoveryCode.safeParse(body.data.code);
    const used = code.success && (await useRecoveryCode(db, found.user.id, await recoveryCodeHash(c.env, found.user.id, code.data), found.sessionId));
    if (!used) return authError(c, 422, "mfa_verification_failed", "Invalid recovery code entered, or it was already used");
    await mfaVerifySucceeded(db, found.user.id);
    return c.json(await aal2Tokens(c, db, found.user, found.sessionId));
  })

  // ——— TOTP factors ———
  .post("/", async (c) => {
    const db = getDb(c.env);
    const found = await bearerUser(c, db);
    if ("error" in found) return found.error;
    const body = await readBody(c, EnrollBody, "factor_type is required.");
    if ("error" in body) return body.error;
    if (body.data.factor_type === "phone") return authError(c, 422, "mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone");
    if (body.data.factor_type === "webauthn") return authError(c, 422, "mfa_webauthn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn");
    if (body.data.factor_type !== "totp") return authError(c, 400, "validation_failed", "factor_type needs to be totp");
    if (!encryptionConfigured(c.env)) {
      // Set-up wording stays in the log and on the admin Set-up checklist; the customer reads what happened.
      log.error("factors: enrolment refused", { reason: ENCRYPTION_KEY_MISSING });
      c.executionCtx.waitUntil(tellAgency(c.env, "encryption"));
      return authError(c, 503, "server_misconfigured", encryptionUnavailableMessage("Two-factor sign-in"));
    }

    const factors = await listFactors(db, found.user.id);
    const verified = factors.filter((f) => f.status === "verified");
    // As GoTrue: a user who already has a factor adds another only from a session that used one.
    if (verified.length > 0 && !found.context.aal2) {
      return authError(c, 422, "insufficient_aal", "AAL2 required to enroll a new factor");
    }
    if (verified.length >= MAX_VERIFIED_FACTORS) {
      return authError(c, 422, "too_many_enrolled_mfa_factors", "Maximum number of verified factors reached, unenroll to continue");
    }
    const friendlyName = body.data.friendly_name || null;
    if (friendlyName && verified.some((f) => f.friendlyName === friendlyName)) {
      return authError(c, 422, "mfa_factor_name_conflict", `A factor with the friendly name "${friendlyName}" for this user already exists`);
    }
    const id = crypto.randomUUID();
    const secret = newTotpSecret();
    const factor = await createFactor(db, {
      id,
      userId: found.user.id,
      friendlyName,
      secretCiphertext: await sealSecret(c.env, "totp-secret", factorContext(id), secret),
    });
    return c.json({
      id: factor.id,
      type: "totp",
      friendly_name: factor.friendlyName ?? "",
      totp: totpEnrolment(secret, body.data.issuer || (await loadBrand(db)).name, found.user.email),
    });
  })
  .post("/:id/challenge", async (c) => {
    const db = getDb(c.env);
    const found = await bearerUser(c, db);
    if ("error" in found) return found.error;
    const body = await readBody(c, ChallengeBody, "Invalid challenge request.");
    if ("error" in body) return body.error;
    const factor = await findFactor(db, found.user.id, c.req.param("id"));
    if (!factor) return authError(c, 404, "mfa_factor_not_found", "Factor not found");
    await deleteStaleChallenges(db, factor.id);
    const challenge = await createChallenge(db, factor.id, found.sessionId);
    return c.json({ id: challenge.id, type: "totp", expires_at: Math.floor(Date.parse(challenge.createdAt) / 1000) + CHALLENGE_TTL_SECONDS });
  })
  .post("/:id/verify", async (c) => {
    const db = getDb(c.env);
    const found = await bearerUser(c, db);
    if ("error" in found) return found.error;
    const body = await readBody(c, VerifyBody, "challenge_id and code are required.");
    if ("error" in body) return body.error;
    const factor = await findFactor(db, found.user.id, c.req.param("id"));
    if (!factor) return authError(c, 404, "mfa_factor_not_found", "Factor not found");
    const challenge = await findChallenge(db, factor.id, body.data.challenge_id);
    if (!challenge || challenge.verifiedAt) return authError(c, 404, "mfa_challenge_not_found", "MFA challenge not found");
    if (challengeExpired(challenge)) {
      return authError(c, 422, "mfa_challenge_expired", "MFA challenge has expired, verify against another challenge or create a new challenge.");
    }
    // Counted before the code is checked, so guessing is slow whatever the answers.
    const limited = await mfaVerifyLimited(db, found.user.id);
    if (limited) return tooManyAttempts(c, limited);

    const secret = await openSecret(c.env, "totp-secret", factorContext(factor.id), factor.secretCiphertext);
    const step = totpStep(secret, body.data.code);
    if (step === null) return authError(c, 422, "mfa_verification_failed", "Invalid TOTP code entered");
    if (!(await useFactorStep(db, factor.id, step))) {
      return authError(c, 422, "mfa_code_reused", "This code has already been used. Wait for the next code from your authenticator app.");
    }
    if (!(await completeChallenge(db, challenge.id, factor.id, found.sessionId))) {
      return authError(c, 404, "mfa_challenge_not_found", "MFA challenge not found");
    }
    await mfaVerifySucceeded(db, found.user.id);
    return c.json(await aal2Tokens(c, db, found.user, found.sessionId));
  })
  .delete("/:id", async (c) => {
    const db = getDb(c.env);
    const found = await bearerUser(c, db);
    if ("error" in found) return found.error;
    const factor = await findFactor(db, found.user.id, c.req.param("id"));
    if (!factor) return authError(c, 404, "mfa_factor_not_found", "Factor not found");
    // A password alone never removes a verified factor.
    if (factor.status === "verified" && !found.context.aal2) {
      return authError(c, 422, "insufficient_aal", "AAL2 required to unenroll verified factor");
    }
    await deleteFactor(db, found.user.id, factor.id);
    return c.json({ id: factor.id });
  });
