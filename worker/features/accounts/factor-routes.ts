// /auth/v1/factors: GoTrue-compatible TOTP enrolment, challenge, verification and removal, as auth-js's `mfa.*` calls them,
// and one-time recovery codes (ours: GoTrue has none) under /factors/recovery-codes: made with aal2, shown once, each
// raising one aal1 session to aal2 once.
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import {
  CHALLENGE_TTL_SECONDS,
  createChallenge,
  deleteFactor,
  deleteStaleChallenges,
  findFactor,
  recoveryCodeStatus,
} from "../../platform/auth/mfa";
import { authError } from "../../platform/auth/gotrue";
import { bearerUser } from "../../platform/auth/session";
import { bearerAndBody } from "./gotrue-request";
import { enrolTotpFactor, replaceRecoveryCodeSet, verifyRecoveryCode, verifyTotpCode } from "./factors";
import { authRefusal } from "./refusals";

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
    // No body is needed, but one that does not parse is refused, as on every auth route.
    const read = await bearerAndBody(c, db, NoBody, "Send no body, or an empty JSON object.");
    if ("error" in read) return read.error;
    const made = await replaceRecoveryCodeSet(c.env, db, read.found);
    if (!made.ok) return authRefusal(c, made.refusal);
    c.header("Cache-Control", "no-store");
    return c.json({ codes: made.codes, created_at: made.createdAt });
  })
  .post("/recovery-codes/verify", async (c) => {
    const db = getDb(c.env);
    const read = await bearerAndBody(c, db, RecoveryVerifyBody, "code is required.");
    if ("error" in read) return read.error;
    const { found, body } = read;
    const verified = await verifyRecoveryCode(c.env, db, found, body.code);
    return verified.ok ? c.json(verified.session) : authRefusal(c, verified.refusal);
  })

  // ——— TOTP factors ———
  .post("/", async (c) => {
    const db = getDb(c.env);
    const read = await bearerAndBody(c, db, EnrollBody, "factor_type is required.");
    if ("error" in read) return read.error;
    const { found, body } = read;
    const enrolled = await enrolTotpFactor(c.env, db, found, body, (work) => c.executionCtx.waitUntil(work));
    return enrolled.ok ? c.json(enrolled.factor) : authRefusal(c, enrolled.refusal);
  })
  .post("/:id/challenge", async (c) => {
    const db = getDb(c.env);
    const read = await bearerAndBody(c, db, ChallengeBody, "Invalid challenge request.");
    if ("error" in read) return read.error;
    const { found } = read;
    const factor = await findFactor(db, found.user.id, c.req.param("id"));
    if (!factor) return authError(c, 404, "mfa_factor_not_found", "Factor not found");
    await deleteStaleChallenges(db, factor.id);
    const challenge = await createChallenge(db, factor.id, found.sessionId);
    return c.json({ id: challenge.id, type: "totp", expires_at: Math.floor(Date.parse(challenge.createdAt) / 1000) + CHALLENGE_TTL_SECONDS });
  })
  .post("/:id/verify", async (c) => {
    const db = getDb(c.env);
    const read = await bearerAndBody(c, db, VerifyBody, "challenge_id and code are required.");
    if ("error" in read) return read.error;
    const { found, body } = read;
    const verified = await verifyTotpCode(c.env, db, found, c.req.param("id"), body);
    return verified.ok ? c.json(verified.session) : authRefusal(c, verified.refusal);
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
