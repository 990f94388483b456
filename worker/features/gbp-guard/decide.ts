// Accepting or rejecting a change the guard found (issue 41). Accept keeps what Google (or the outside edit) shows:
// for Google's edit, the location is patched with Google's value; reject patches it with the owner's value (Google:
// "to reject, patch with your preferred value"). Before any value is sent, it is checked against the known suspension
// triggers; a risky value is sent only when the person confirms. One decision at a time per change (compare-and-set).
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import { announce } from "../../platform/events";
import { ErrorCode, HttpError } from "../../platform/errors";
import { log } from "../../platform/log";
import { GoogleError, googleConfig, patchLocation } from "../../platform/providers/google";
import type { GbpLocationFields, GuardedField } from "../../platform/providers/rules/gbp-location";
import { getProfile } from "../../platform/auth/users";
import { findConnection, withAccessToken } from "../integrations";
import { claimDecision, findChange, findWatchedLocation, settleDecision, type GuardChangeRow } from "./queries";
import { pickFields } from "./rules/fields";
import { editRisks, type EditRisk } from "./rules/risk";
import { GUARD_WORDING, GuardErrorCode } from "./rules/guard";

export type Decision = "accept" | "reject";

/** What a decision would send to Google (null: nothing, an outside edit accepted stays as it is). */
export function valueToSend(change: GuardChangeRow, decision: Decision): GbpLocationFields | null {
  if (decision === "reject") return JSON.parse(change.before) as GbpLocationFields;
  return change.source === "google" ? (JSON.parse(change.after) as GbpLocationFields) : null;
}

/** The risks of sending what `decision` sends, judged against the business's real name and city from its profile. */
export async function decisionRisks(db: Db, change: GuardChangeRow, decision: Decision): Promise<EditRisk[]> {
  const next = valueToSend(change, decision);
  if (!next) return [];
  const profile = await getProfile(db, change.userId);
  const current = JSON.parse(decision === "reject" ? change.after : change.before) as GbpLocationFields;
  const city = profile?.companyLocation?.split(",")[0]?.trim() || null;
  return editRisks({ field: change.field, current, next, realName: profile?.companyName ?? null, city });
}

export class RiskyEdit extends HttpError {
  constructor(readonly risks: EditRisk[]) {
    super(409, GuardErrorCode.risky, risks.map((r) => r.message).join(" "));
  }
}

/**
 * Decides a change for `userId`'s location (the owner, or the admin acting for them: `by`). Throws an HttpError for
 * what the person must see: decided already (409), risky without confirmation (409 with the risks), Google refusing
 * (502) or not answering (503); the change is then open again with Google's words kept.
 */
export async function decide(env: Env, db: Db, change: GuardChangeRow, decision: Decision, p: { by: string; confirmRisks: boolean }): Promise<GuardChangeRow> {
  if (change.status !== "open") throw new HttpError(409, GuardErrorCode.changeResolved, GUARD_WORDING.alreadyResolved);
  const risks = await decisionRisks(db, change, decision);
  if (risks.length && !p.confirmRisks) throw new RiskyEdit(risks);
  const claimed = await claimDecision(db, change.id, decision === "accept" ? "accepting" : "rejecting", new Date().toISOString());
  if (!claimed) throw new HttpError(409, GuardErrorCode.changeResolved, GUARD_WORDING.alreadyResolved);
  const next = valueToSend(claimed, decision);
  try {
    if (next) await sendToGoogle(env, db, claimed.userId, claimed.locationName, next, claimed.field as GuardedField);
  } catch (error) {
    const failure = googleFailure(error, { change: claimed.id });
    await settleDecision(db, claimed, { status: "open", error: failure.message }, new Date().toISOString());
    throw failure.error;
  }
  const now = new Date().toISOString();
  const snapshot = await snapshotAfter(db, claimed, decision);
  await settleDecision(db, claimed, { status: decision === "accept" ? "accepted" : "rejected", by: p.by, snapshot }, now);
  await announce("gbp.changes-resolved", { env, db, changeIds: [claimed.id] });
  return (await findChange(db, claimed.id))!;
}

/** Patches one field of a location with `value` (the owner's Google connection); throws GoogleError or a 409 HttpError. */
export async function sendToGoogle(env: Env, db: Db, userId: string, locationName: string, value: GbpLocationFields, field: GuardedField) {
  const connection = await findConnection(db, userId);
  const config = googleConfig(env);
  if (!config || !connection || connection.status !== "connected") throw new HttpError(409, GuardErrorCode.notConnected, GUARD_WORDING.notConnected);
  await withAccessToken(env, db, connection, (token) => patchLocation(config, token, locationName, pickFields(value, [field]), [field]));
}

/** What a failed send says: Google's words kept (`message`), and the error the person sees (503 unanswered, 502 refused). */
export function googleFailure(error: unknown, context: Record<string, string>): { message: string; error: unknown } {
  const message = error instanceof GoogleError ? error.message : error instanceof HttpError ? error.message : "Google could not be reached.";
  if (!(error instanceof GoogleError)) return { message, error };
  log.warn("gbp-guard: Google refused an edit", { ...context, kind: error.kind, status: error.status });
  if (error.kind === "unavailable") return { message, error: new HttpError(503, ErrorCode.unavailable, `Google did not answer, so nothing changed. Try again in a minute. (${error.message})`) };
  return { message, error: new HttpError(502, GuardErrorCode.googleRefused, `${GUARD_WORDING.googleRefused}: ${error.message}`) };
}

/** The location's snapshot with the decided field as the owner's value now is, so the next check does not see our own edit as an outside one. */
async function snapshotAfter(db: Db, change: GuardChangeRow, decision: Decision): Promise<string | null> {
  const location = await findWatchedLocation(db, change.userId, change.locationName);
  if (!location?.snapshot) return null;
  const kept = JSON.parse(decision === "reject" ? change.before : change.after) as GbpLocationFields;
  return JSON.stringify({ ...(JSON.parse(location.snapshot) as GbpLocationFields), ...pickFields(kept, [change.field]) });
}
