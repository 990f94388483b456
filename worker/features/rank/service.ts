// What the rank routes ask of the capability beyond its grid and tracker engines: the 402 of a grid past the allowance,
// and starting to track a keyword (the plan's limit, the business located, the first check sent).
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import type { ProfileRow } from "../../platform/auth/users";
import { readAllowance } from "../../platform/metering/budgets";
import { settingsOf, userPayer } from "../../platform/metering/meter";
import { RankErrorCode, resolveBusiness, type BusinessRefusal } from "./business";
import { countTrackedKeywords, insertTrackedKeyword, ownerKeyOf, type TrackedKeywordRow } from "./queries";
import type { TrackKeywordRequest } from "./rules/tracker";
import { TRACKED_KEYWORD_LIMITS } from "./rules/view";
import { sendChecks } from "./tracker";

/** The 402 of a grid whose searches do not fit what is left of the allowance. */
export function gridAllowanceRefusal(estimate: { searches: number; estimateUsd: number; allowanceLeftUsd: number | null }) {
  const left = estimate.allowanceLeftUsd === null ? "" : ` ($${estimate.allowanceLeftUsd.toFixed(2)})`;
  return {
    code: RankErrorCode.allowanceExceeded,
    message: `This grid needs ${estimate.searches} searches (about $${estimate.estimateUsd.toFixed(2)}), more than is left of your allowance this month${left}. Choose a smaller grid.`,
  };
}

/** The user's own business, or a prospect's, with its listing located (the searches paid by the user). */
export async function businessFor(env: Env, db: Db, target: { own?: true; prospectId?: string }, user: { id: string; profile: ProfileRow | null }) {
  const payer = await userPayer(env, db, user.id);
  return resolveBusiness(env, db, target, { userId: user.id, profile: user.profile }, payer);
}

/** How many keywords the user may track (by plan; null for an acting admin: no limit) and how many they track. */
export async function keywordAllowance(env: Env, db: Db, userId: string, actingAdmin: boolean): Promise<{ limit: number | null; used: number }> {
  const [limit, used] = await Promise.all([
    actingAdmin ? null : readAllowance(db, userId, settingsOf(env)).then((read) => (read.allowance.plan === "Self Service" ? TRACKED_KEYWORD_LIMITS.selfService : TRACKED_KEYWORD_LIMITS.free)),
    countTrackedKeywords(db, userId),
  ]);
  return { limit, used };
}

type TrackRefusal = { status: 403 | 409; code: string; message: string } | BusinessRefusal;

/** A keyword tracked for the business and its first check sent; refused past the plan's limit or when tracked already. */
export async function trackKeyword(
  env: Env,
  db: Db,
  user: { id: string; profile: ProfileRow | null; actingAdmin: boolean },
  body: TrackKeywordRequest,
): Promise<{ ok: true; row: TrackedKeywordRow } | { ok: false; refusal: TrackRefusal }> {
  const { limit, used } = await keywordAllowance(env, db, user.id, user.actingAdmin);
  if (limit !== null && used >= limit) {
    return { ok: false, refusal: { status: 403, code: RankErrorCode.keywordLimit, message: `Your plan tracks up to ${limit} keywords, and you track ${used}. Delete one, or upgrade, to add another.` } };
  }
  const resolved = await businessFor(env, db, body, user);
  if (!resolved.ok) return resolved;
  const { owner, business, website } = resolved.value;
  const checkId = crypto.randomUUID();
  const row = await insertTrackedKeyword(
    db,
    {
      id: crypto.randomUUID(),
      kind: owner.kind,
      userId: user.id,
      prospectId: owner.kind === "prospect" ? owner.prospectId : null,
      ownerKey: ownerKeyOf(owner),
      business: JSON.stringify(business),
      website,
      keyword: body.keyword,
      frequency: body.frequency,
      lastCheckAt: new Date().toISOString(),
    },
    checkId,
  );
  if (!row) return { ok: false, refusal: { status: 409, code: RankErrorCode.keywordExists, message: `“${body.keyword}” is tracked for this business already.` } };
  try {
    await sendChecks(env, [checkId]);
  } catch (error) {
    // Not lost: the cron sends unfinished checks again.
    log.error("rank: first check not sent; the sweep sends it later", { keywordId: row.id }, error);
  }
  return { ok: true, row };
}
