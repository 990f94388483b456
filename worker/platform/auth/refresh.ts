// Refresh-token rotation: each token is used once, two tabs within the grace window share a child, reuse ends the session.
import type { Db } from "../db/client";
import { deleteSession, findRefreshToken, findSession, rotateRefreshToken, sessionExpired } from "./sessions";
import { findUserById, type UserRow } from "./users";
import type { Env } from "../env";
import { childRefreshToken, sha256Hex } from "./tokens";

/** Two tabs refreshing with the same token within this window get the same child, not a revocation. */
export const REUSE_GRACE_SECONDS = 10;

export type RefreshOutcome =
  | { ok: true; user: UserRow; sessionId: string; refreshToken: string; session: NonNullable<Awaited<ReturnType<typeof findSession>>> }
  | { ok: false; errorCode: "refresh_token_not_found" | "refresh_token_already_used" | "session_expired"; message: string };

const NOT_FOUND = {
  ok: false,
  errorCode: "refresh_token_not_found",
  message: "Invalid Refresh Token: Refresh Token Not Found",
} as const;

export async function rotateSession(env: Env, db: Db, token: string): Promise<RefreshOutcome> {
  const tokenHash = await sha256Hex(token);
  const row = await findRefreshToken(db, tokenHash);
  if (!row) return NOT_FOUND;
  const session = await findSession(db, row.sessionId);
  if (!session) return NOT_FOUND;
  if (sessionExpired(session)) {
    // Past its absolute or idle lifetime: auth-js signs out on this 400.
    await deleteSession(db, row.sessionId);
    return { ok: false, errorCode: "session_expired", message: "Session Expired" };
  }
  const child = await childRefreshToken(env, token);
  if (row.revokedAt) {
    const age = (Date.now() - Date.parse(row.revokedAt)) / 1000;
    const childRow = await findRefreshToken(db, await sha256Hex(child));
    if (age > REUSE_GRACE_SECONDS || !childRow || childRow.revokedAt) {
      // A spent token came back: someone may hold a stolen copy. End the whole session.
      await deleteSession(db, row.sessionId);
      return { ok: false, errorCode: "refresh_token_already_used", message: "Invalid Refresh Token: Already Used" };
    }
  } else {
    await rotateRefreshToken(db, row, await sha256Hex(child));
  }
  const user = await findUserById(db, row.userId);
  if (!user) return NOT_FOUND;
  return { ok: true, user, sessionId: row.sessionId, refreshToken: child, session };
}
