// Two-factor sign-in (GoTrue's TOTP factors, and our one-time recovery codes): enrolling an authenticator app,
// verifying its code or a recovery code, and the aal2 session a good code gives.
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { loadBrand } from "../../platform/brand/load";
import { ENCRYPTION_KEY_MISSING, encryptionConfigured, encryptionUnavailableMessage, openSecret, sealSecret } from "../../platform/crypto/secret-box";
import { tellAgency } from "../../platform/notifications/tell-agency";
import { sessionJson } from "../../platform/auth/gotrue";
import { mfaVerifyLimited, mfaVerifySucceeded } from "../../platform/auth/limits";
import { challengeExpired, completeChallenge, createFactor, findChallenge, findFactor, listFactors, replaceRecoveryCodes, useFactorStep, useRecoveryCode } from "../../platform/auth/mfa";
import { newRecoveryCodes, recoveryCodeHash } from "../../platform/auth/recovery-codes";
import { addRefreshToken, findSession } from "../../platform/auth/sessions";
import { newTotpSecret, totpEnrolment, totpStep } from "../../platform/auth/totp";
import { ACCESS_TOKEN_TTL_SECONDS, assuranceOf, newOpaqueToken, sha256Hex, signAccessToken } from "../../platform/auth/tokens";
import type { UserRow } from "../../platform/auth/users";
import { formatRecoveryCode, RecoveryCode } from "./rules/account";
import { rateLimited, refused, type BearerCaller, type Refused } from "./refusals";

/** GoTrue's limit on verified factors per user. */
export const MAX_VERIFIED_FACTORS = 10;

const factorContext = (factorId: string) => `mfa-factor:${factorId}`;

const FACTOR_NOT_FOUND = refused(404, "mfa_factor_not_found", "Factor not found");
const CHALLENGE_NOT_FOUND = refused(404, "mfa_challenge_not_found", "MFA challenge not found");

/** As GoTrue after a good code: new tokens for the same session, now aal2. */
export async function aal2Session(env: Env, db: Db, user: UserRow, sessionId: string) {
  const session = (await findSession(db, sessionId))!;
  const refresh = newOpaqueToken();
  await addRefreshToken(db, { sessionId: session.id, userId: user.id, refreshTokenHash: await sha256Hex(refresh) });
  const access = await signAccessToken(env, user, session.id, assuranceOf(session));
  return sessionJson(user, access, refresh, ACCESS_TOKEN_TTL_SECONDS, await listFactors(db, user.id));
}

/** The refusal of a factor type GoTrue knows but we do not enrol (or one it does not know), or null for TOTP. */
function factorTypeRefusal(factorType: string): Refused | null {
  if (factorType === "phone") return refused(422, "mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone");
  if (factorType === "webauthn") return refused(422, "mfa_webauthn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn");
  return factorType === "totp" ? null : refused(400, "validation_failed", "factor_type needs to be totp");
}

/**
 * A new, unverified TOTP factor and what the authenticator app needs (its secret sealed at rest). `background` keeps
 * the agency's alert running after the answer when the secret cannot be sealed.
 */
export async function enrolTotpFactor(
  env: Env,
  db: Db,
  caller: BearerCaller,
  body: { factor_type: string; friendly_name?: string; issuer?: string },
  background: (work: Promise<unknown>) => void,
) {
  const typeRefused = factorTypeRefusal(body.factor_type);
  if (typeRefused) return typeRefused;
  if (!encryptionConfigured(env)) {
    // Set-up wording stays in the log and on the admin Set-up checklist; the customer reads what happened.
    log.error("factors: enrolment refused", { reason: ENCRYPTION_KEY_MISSING });
    background(tellAgency(env, "encryption"));
    return refused(503, "server_misconfigured", encryptionUnavailableMessage("Two-factor sign-in"));
  }
  const verified = (await listFactors(db, caller.user.id)).filter((f) => f.status === "verified");
  // As GoTrue: a user who already has a factor adds another only from a session that used one.
  if (verified.length > 0 && !caller.context.aal2) return refused(422, "insufficient_aal", "AAL2 required to enroll a new factor");
  if (verified.length >= MAX_VERIFIED_FACTORS) {
    return refused(422, "too_many_enrolled_mfa_factors", "Maximum number of verified factors reached, unenroll to continue");
  }
  const friendlyName = body.friendly_name || null;
  if (friendlyName && verified.some((f) => f.friendlyName === friendlyName)) {
    return refused(422, "mfa_factor_name_conflict", `A factor with the friendly name "${friendlyName}" for this user already exists`);
  }
  const id = crypto.randomUUID();
  const secret = newTotpSecret();
  const secretCiphertext = await sealSecret(env, "totp-secret", factorContext(id), secret);
  const factor = await createFactor(db, { id, userId: caller.user.id, friendlyName, secretCiphertext });
  const totp = totpEnrolment(secret, body.issuer || (await loadBrand(db)).name, caller.user.email);
  return { ok: true as const, factor: { id: factor.id, type: "totp", friendly_name: factor.friendlyName ?? "", totp } };
}

/** A code from the factor's app answering one of its challenges: the session reaches aal2 (each code used once). */
export async function verifyTotpCode(env: Env, db: Db, caller: BearerCaller, factorId: string, body: { challenge_id: string; code: string }) {
  const factor = await findFactor(db, caller.user.id, factorId);
  if (!factor) return FACTOR_NOT_FOUND;
  const challenge = await findChallenge(db, factor.id, body.challenge_id);
  if (!challenge || challenge.verifiedAt) return CHALLENGE_NOT_FOUND;
  if (challengeExpired(challenge)) {
    return refused(422, "mfa_challenge_expired", "MFA challenge has expired, verify against another challenge or create a new challenge.");
  }
  // Counted before the code is checked, so guessing is slow whatever the answers.
  const limited = await mfaVerifyLimited(db, caller.user.id);
  if (limited) return rateLimited(limited);
  const secret = await openSecret(env, "totp-secret", factorContext(factor.id), factor.secretCiphertext);
  const step = totpStep(secret, body.code);
  if (step === null) return refused(422, "mfa_verification_failed", "Invalid TOTP code entered");
  if (!(await useFactorStep(db, factor.id, step))) {
    return refused(422, "mfa_code_reused", "This code has already been used. Wait for the next code from your authenticator app.");
  }
  if (!(await completeChallenge(db, challenge.id, factor.id, caller.sessionId))) return CHALLENGE_NOT_FOUND;
  await mfaVerifySucceeded(db, caller.user.id);
  return { ok: true as const, session: await aal2Session(env, db, caller.user, caller.sessionId) };
}

/** A one-time recovery code standing in for the app's code: the session reaches aal2, the code is spent. */
export async function verifyRecoveryCode(env: Env, db: Db, caller: BearerCaller, code: string) {
  if (!caller.context.hasVerifiedFactor) return refused(422, "mfa_factor_not_found", "This account has no two-factor sign-in to recover.");
  // Counted with the authenticator codes, before the check: guessing stays slow whatever the answers.
  const limited = await mfaVerifyLimited(db, caller.user.id);
  if (limited) return rateLimited(limited);
  const parsed = RecoveryCode.safeParse(code);
  const used = parsed.success && (await useRecoveryCode(db, caller.user.id, await recoveryCodeHash(env, caller.user.id, parsed.data), caller.sessionId));
  if (!used) return refused(422, "mfa_verification_failed", "Invalid recovery code entered, or it was already used");
  await mfaVerifySucceeded(db, caller.user.id);
  return { ok: true as const, session: await aal2Session(env, db, caller.user, caller.sessionId) };
}

/** A new set of recovery codes (the old set gone), shown this once: only from a session that used the second factor. */
export async function replaceRecoveryCodeSet(env: Env, db: Db, caller: BearerCaller) {
  if (!caller.context.hasVerifiedFactor) return refused(422, "mfa_factor_not_found", "Set up an authenticator app first: recovery codes stand in for its code.");
  // A password alone never makes (or replaces) codes: that would hand the second step to whoever has the password.
  if (!caller.context.aal2) return refused(422, "insufficient_aal", "AAL2 required to create recovery codes");
  const codes = newRecoveryCodes();
  const hashes = await Promise.all(codes.map((code) => recoveryCodeHash(env, caller.user.id, code)));
  const createdAt = await replaceRecoveryCodes(db, caller.user.id, hashes);
  return { ok: true as const, codes: codes.map(formatRecoveryCode), createdAt };
}
