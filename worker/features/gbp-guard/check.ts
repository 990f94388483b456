// The guard's check of a location (issue 41): the owner's fields (locations.get), Google's version with its diffMask
// (locations.getGoogleUpdated) and the verification state (getVoiceOfMerchantState), compared with what was known:
// Google's edits and changes made outside Porchlight become changes to decide, a lost verification is announced.
// Nightly from the cron (one claim per location and night), or at once on "Check now".
import type { Db } from "../../platform/db/client";
import { getDb } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import { announce } from "../../platform/events";
import type { JobOutcome } from "../../platform/jobs/consumer";
import { claim } from "../../platform/jobs/claim";
import { resendStale } from "../../platform/jobs/sweep";
import { log } from "../../platform/log";
import { emitOwnEvents, type OwnEvent } from "../../platform/notifications/emit";
import { getGoogleUpdated, getLocationFields, getVoiceOfMerchantState, GoogleError, googleConfig } from "../../platform/providers/google";
import { guardedFieldsOf, type GbpLocationFields, type VoiceOfMerchantState } from "../../platform/providers/rules/gbp-location";
import { findConnection, withAccessToken } from "../integrations";
import {
  claimCheckNow,
  claimNight,
  failChecks,
  guardCheckJob,
  locationsByIds,
  releaseCheck,
  saveCheck,
  staleChecks,
  syncWatchedLocations,
  unresolvedChanges,
  type GuardChangeRow,
  type GuardLocationRow,
  type NewChange,
} from "./queries";
import { fieldText, pickFields, sameFieldValue } from "./rules/fields";
import { GUARDED_FIELDS, GUARD_LOCATIONS_PER_MESSAGE, GUARD_MAX_ATTEMPTS, GUARD_STALE_CLAIM_MS, GUARD_WORDING, type GuardedField } from "./rules/guard";

/** How many locations one cron run claims for the night (the rest are claimed by the next runs, 5 minutes apart). */
const NIGHT_CLAIM_LIMIT = 500;

const parseFields = (json: string | null): GbpLocationFields | null => (json ? (JSON.parse(json) as GbpLocationFields) : null);

/** The UTC date a check belongs to: one check per location and night. */
export function guardNight(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export async function sendChecks(env: Env, ids: string[]) {
  const messages = [];
  for (let i = 0; i < ids.length; i += GUARD_LOCATIONS_PER_MESSAGE) messages.push({ body: { locationIds: ids.slice(i, i + GUARD_LOCATIONS_PER_MESSAGE) } });
  for (let i = 0; i < messages.length; i += 100) await env.GBP_GUARD.sendBatch(messages.slice(i, i + 100));
}

/**
 * The guard's part of the cron: watched locations kept in step with the connections, tonight's checks claimed and
 * queued (each location once a night), lost checks sent again, and checks past their attempts shown as failed.
 */
export async function sweepGuard(env: Env, now = new Date()) {
  if (!googleConfig(env)) return { queued: 0, resent: 0 };
  const db = getDb(env);
  const at = now.toISOString();
  await syncWatchedLocations(db);
  const tonight = await claimNight(db, guardNight(now), at, NIGHT_CLAIM_LIMIT);
  await sendChecks(env, tonight);
  const staleBefore = new Date(now.getTime() - GUARD_STALE_CLAIM_MS).toISOString();
  const stale = await staleChecks(db, staleBefore, GUARD_MAX_ATTEMPTS);
  const resent = await resendStale(stale, (id) => id, (ids) => sendChecks(env, ids));
  return { queued: tonight.length, resent };
}

/** Check now, for one owner's locations (already queued or being checked: left as they are). */
export async function checkNow(env: Env, db: Db, userId: string): Promise<number> {
  await syncWatchedLocations(db);
  const ids = await claimCheckNow(db, userId, new Date().toISOString());
  await sendChecks(env, ids);
  return ids.length;
}

type Read = { owner: GbpLocationFields; google: GbpLocationFields; diff: GuardedField[]; voice: VoiceOfMerchantState };

/** One gbp-guard message: its locations claimed (queued → checking) and checked one after another. */
export async function processGuardChecks(env: Env, ids: string[], attempts: number): Promise<JobOutcome> {
  const db = getDb(env);
  const now = new Date();
  const staleBefore = new Date(now.getTime() - GUARD_STALE_CLAIM_MS).toISOString();
  const claimed = await claim(db, guardCheckJob, [ids], { now: now.toISOString(), staleBefore });
  let retry: string | null = null;
  for (const row of claimed) {
    const outcome = await checkLocation(env, db, row);
    if (outcome === "done") continue;
    if (attempts >= GUARD_MAX_ATTEMPTS) await failChecks(db, [row.id], new Date().toISOString(), outcome.reason);
    else {
      await releaseCheck(db, row.id, new Date().toISOString(), outcome.reason);
      retry = outcome.reason;
    }
  }
  return retry ? { kind: "retry", reason: retry } : undefined;
}

/** Dead-lettered checks: "could not be checked", with the last reason, never "no changes". */
export async function failGuardChecksForDeadLetter(env: Env, ids: string[]) {
  const db = getDb(env);
  const rows = await locationsByIds(db, ids);
  for (const row of rows) await failChecks(db, [row.id], new Date().toISOString(), row.lastError ?? "Google did not answer.");
}

async function read(env: Env, db: Db, userId: string, locationName: string): Promise<Read | { refused: string } | null> {
  const connection = await findConnection(db, userId);
  if (!connection || connection.status !== "connected") return { refused: "Google Business Profile is not connected." };
  const config = googleConfig(env)!;
  return withAccessToken(env, db, connection, async (token) => {
    const owner = await getLocationFields(config, token, locationName);
    const updated = await getGoogleUpdated(config, token, locationName);
    const voice = await getVoiceOfMerchantState(config, token, locationName);
    // A field with the owner's own edit waiting to go live differs because of that edit, not Google's.
    const pending = new Set(guardedFieldsOf(updated.pendingMask));
    const diff = guardedFieldsOf(updated.diffMask).filter((f) => !pending.has(f));
    return { owner, google: updated.location, diff, voice };
  });
}

const valueJson = (fields: GbpLocationFields, field: GuardedField) => JSON.stringify(pickFields(fields, [field]));

async function checkLocation(env: Env, db: Db, row: GuardLocationRow): Promise<"done" | { reason: string }> {
  let found: Read | { refused: string } | null;
  try {
    found = await read(env, db, row.userId, row.locationName);
  } catch (error) {
    if (!(error instanceof GoogleError)) throw error;
    log.warn("gbp-guard: check failed", { location: row.id, kind: error.kind, status: error.status });
    if (error.kind === "unavailable") return { reason: `Google did not answer (${error.message}).` };
    found = { refused: error.message };
  }
  const now = new Date().toISOString();
  if (!found || "refused" in found) {
    await failChecks(db, [row.id], now, `${GUARD_WORDING.couldNotCheck}: ${found?.refused ?? "no answer"}`);
    return "done";
  }
  const { owner, google, diff, voice } = found;
  const unresolved = await unresolvedChanges(db, row.userId, row.locationName);
  const openOf = (field: GuardedField, source: "google" | "outside") => unresolved.find((c) => c.field === field && c.source === source && c.status === "open");
  const inserted: NewChange[] = [];
  const updatedAfter: { id: string; after: string }[] = [];
  for (const field of diff) {
    const known = openOf(field, "google");
    const after = valueJson(google, field);
    if (!known) {
      if (!unresolved.some((c) => c.field === field)) inserted.push({ userId: row.userId, locationName: row.locationName, field, source: "google", before: valueJson(owner, field), after, detectedAt: now });
    } else if (!sameFieldValue(field, JSON.parse(known.after) as GbpLocationFields, pickFields(google, [field]))) updatedAfter.push({ id: known.id, after });
  }
  const gone = unresolved.filter((c) => c.source === "google" && c.status === "open" && !diff.includes(c.field)).map((c) => c.id);
  const snapshot = parseFields(row.snapshot);
  if (snapshot) {
    // Every guarded field, not only those Google answered: a field someone removed is absent from the answer.
    for (const field of GUARDED_FIELDS.filter((f) => !sameFieldValue(f, snapshot, owner))) {
      if (unresolved.some((c) => c.field === field) || inserted.some((c) => c.field === field)) continue;
      inserted.push({ userId: row.userId, locationName: row.locationName, field, source: "outside", before: valueJson(snapshot, field), after: valueJson(owner, field), detectedAt: now });
    }
  }
  const voiceChanged = row.hasVoiceOfMerchant === null ? !voice.hasVoiceOfMerchant : row.hasVoiceOfMerchant !== voice.hasVoiceOfMerchant;
  const fresh = await saveCheck(db, {
    location: {
      id: row.id,
      status: "checked",
      snapshot: JSON.stringify(owner),
      lastCheckedAt: now,
      lastError: null,
      hasVoiceOfMerchant: voice.hasVoiceOfMerchant,
      voiceAction: voice.action,
      voiceReason: voice.reason,
      ...(voiceChanged ? { voiceChangedAt: now } : {}),
    },
    inserted,
    gone,
    updatedAfter,
    now,
  });
  await tell(env, db, row, { fresh, gone, voiceChanged, voice, at: now });
  return "done";
}

/** What a check found, told to whoever reacts (the attention queue) and to the agency's webhooks. */
async function tell(env: Env, db: Db, row: GuardLocationRow, p: { fresh: GuardChangeRow[]; gone: string[]; voiceChanged: boolean; voice: VoiceOfMerchantState; at: string }) {
  if (p.fresh.length) await announce("gbp.changes-found", { env, db, userId: row.userId, changes: p.fresh.map((c) => changeNotice(c, row.locationTitle)) });
  if (p.gone.length) await announce("gbp.changes-resolved", { env, db, changeIds: p.gone });
  if (p.voiceChanged) {
    await announce("gbp.verification-changed", { env, db, userId: row.userId, locationName: row.locationName, locationTitle: row.locationTitle, verified: p.voice.hasVoiceOfMerchant, action: p.voice.action, reason: p.voice.reason, at: p.at });
  }
  const events: OwnEvent[] = p.fresh
    .filter((c) => c.source === "google")
    .map((c) => ({ alert: null, webhook: "gbp.google_updated", at: c.detectedAt, dedupeKey: `gbp_google_updated:${c.id}`, data: { user_id: row.userId, location: row.locationName, field: c.field, owner_value: fieldText(c.field, JSON.parse(c.before)), google_value: fieldText(c.field, JSON.parse(c.after)) } }));
  if (p.voiceChanged) {
    events.push({ alert: null, webhook: "gbp.verification_changed", at: p.at, dedupeKey: `gbp_verification:${row.id}:${p.at}`, data: { user_id: row.userId, location: row.locationName, verified: p.voice.hasVoiceOfMerchant, action: p.voice.action, reason: p.voice.reason } });
  }
  await emitOwnEvents(env, row.userId, events);
}

function changeNotice(c: GuardChangeRow, locationTitle: string) {
  const before = JSON.parse(c.before) as GbpLocationFields;
  const after = JSON.parse(c.after) as GbpLocationFields;
  return { id: c.id, locationName: c.locationName, locationTitle, field: c.field, source: c.source, beforeText: fieldText(c.field, before), afterText: fieldText(c.field, after), detectedAt: c.detectedAt };
}
