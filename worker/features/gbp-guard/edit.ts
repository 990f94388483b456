// The owner's own edit of a watched location through Porchlight (issue 41): the value is checked against the known
// suspension triggers first, judged against what Google shows now (read live; the last check's snapshot when Google
// does not answer), and sent only when it is safe or the person confirms; the snapshot then holds it, so the next
// nightly check does not report our own edit as someone else's.
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import { ErrorCode, HttpError } from "../../platform/errors";
import { getProfile } from "../../platform/auth/users";
import { googleConfig, getLocationFields } from "../../platform/providers/google";
import type { GbpLocationFields } from "../../platform/providers/rules/gbp-location";
import { findConnection, withAccessToken } from "../integrations";
import { findWatchedLocation, saveSnapshot, type GuardLocationRow } from "./queries";
import { googleFailure, RiskyEdit, sendToGoogle } from "./decide";
import { fieldText, pickFields } from "./rules/fields";
import { editRisks } from "./rules/risk";
import { editFields, type OwnerEdit } from "./rules/edit";
import { GUARD_WORDING } from "./rules/guard";

/** What Google shows for the location now; the last check's snapshot when it cannot be read. */
async function currentFields(env: Env, db: Db, location: GuardLocationRow): Promise<GbpLocationFields> {
  const snapshot = location.snapshot ? (JSON.parse(location.snapshot) as GbpLocationFields) : {};
  const config = googleConfig(env);
  const connection = await findConnection(db, location.userId);
  if (!config || connection?.status !== "connected") return snapshot;
  return withAccessToken(env, db, connection, (token) => getLocationFields(config, token, location.locationName)).catch(() => snapshot);
}

export async function ownerEdit(env: Env, db: Db, userId: string, input: OwnerEdit): Promise<{ field: string; text: string }> {
  const location = await findWatchedLocation(db, userId, input.locationName);
  if (!location) throw new HttpError(404, ErrorCode.notFound, GUARD_WORDING.locationNotFound);
  const field = input.edit.field;
  const next = editFields(input.edit);
  const [current, profile] = await Promise.all([currentFields(env, db, location), getProfile(db, userId)]);
  const city = profile?.companyLocation?.split(",")[0]?.trim() || null;
  const risks = editRisks({ field, current, next, realName: profile?.companyName ?? null, city });
  if (risks.length && !input.confirmRisks) throw new RiskyEdit(risks);
  try {
    await sendToGoogle(env, db, userId, location.locationName, next, field);
  } catch (error) {
    throw googleFailure(error, { location: location.locationName }).error;
  }
  const base = location.snapshot ? (JSON.parse(location.snapshot) as GbpLocationFields) : current;
  await saveSnapshot(db, location.id, JSON.stringify({ ...base, ...pickFields(next, [field]) }));
  return { field, text: fieldText(field, next) };
}
