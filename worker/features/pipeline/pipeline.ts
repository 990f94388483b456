// The pipeline's moves (issue 42): what a prospect did moves it forward on its own (a report opened, a chat, a lead;
// the outreach's mails and replies later), an admin moves it anywhere; each move is kept on the prospect's timeline with
// its cause, and sent to the agency's webhooks as `prospect.stage_changed`. Won → client: an invitation mailed under the
// agency's brand; when its address is confirmed, the account is set up from the prospect.
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import type { Reactions } from "../../platform/events";
import { HttpError, ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";
import { emitProspectEvent } from "../../platform/notifications/emit";
import { sendAppMail } from "../../platform/mail/send";
import { findUserByEmail, normalizeEmail } from "../../platform/auth/users";
import { profiles } from "../../platform/auth/tables";
import { and, eq, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { saveClientReportSettings } from "../client-reports";
import { claimInvite, findInvite, moveStage, prospectForClient, recordActivity, saveInvite, stageOf } from "./queries";
import { autoMove, causeOfActivity, PIPELINE_WORDING, STAGES, type MoveCause, type Stage } from "./rules/stages";

/** Tells the agency's webhooks a prospect moved. */
async function announceMove(env: Env, m: { prospectId: string; name: string; from: Stage; to: Stage; cause: MoveCause; at: string; dedupeKey: string }) {
  await emitProspectEvent(env, { prospectId: m.prospectId, reportId: null, alert: null, webhook: "prospect.stage_changed", at: m.at, dedupeKey: `stage:${m.dedupeKey}`, data: { name: m.name, from: m.from, to: m.to, cause: m.cause } });
}

/** An event's move: forward only, once per event (its dedupe key), never out of won or lost. */
export async function advance(env: Env, db: Db, prospectId: string, cause: Exclude<MoveCause, "admin">, at: string, dedupeKey: string): Promise<Stage | null> {
  const now = await stageOf(db, prospectId);
  if (!now.exists) return null;
  const to = autoMove(now.stage, cause);
  if (!to) return null;
  if (!(await moveStage(db, { prospectId, from: now.stage, to, cause, by: null, at, dedupeKey }))) return null;
  await announceMove(env, { prospectId, name: now.name, from: now.stage, to, cause, at, dedupeKey });
  return to;
}

/** An admin's move, anywhere (a drag, or the stage picked by keyboard). */
export async function moveByAdmin(env: Env, db: Db, prospectId: string, to: Stage, by: string): Promise<Stage> {
  const now = await stageOf(db, prospectId);
  if (!now.exists) throw new HttpError(404, ErrorCode.notFound, "Prospect not found");
  if (now.stage === to) return to;
  const at = new Date().toISOString();
  const dedupeKey = `admin:${prospectId}:${crypto.randomUUID()}`;
  if (await moveStage(db, { prospectId, from: now.stage, to, cause: "admin", by, at, dedupeKey })) await announceMove(env, { prospectId, name: now.name, from: now.stage, to, cause: "admin", at, dedupeKey });
  return (await stageOf(db, prospectId)).stage;
}

/**
 * Won → client: the prospect moves to won (when it is not there yet) and its address gets an invitation to sign up,
 * mailed under the agency's brand. The account is set up when that address is confirmed (`accountConfirmed`).
 */
export async function convert(env: Env, db: Db, prospectId: string, by: string, origin: string): Promise<{ email: string; invitedAt: string }> {
  const prospect = await prospectForClient(db, prospectId);
  if (!prospect) throw new HttpError(404, ErrorCode.notFound, "Prospect not found");
  const email = normalizeEmail(prospect.email ?? "");
  if (!email || !email.includes("@")) throw new HttpError(422, "prospect_email_required", PIPELINE_WORDING.convertNeedsEmail);
  const invite = await findInvite(db, prospectId);
  if (invite?.userId) throw new HttpError(409, "already_client", PIPELINE_WORDING.alreadyClient);
  if (await findUserByEmail(db, email)) throw new HttpError(409, "email_taken", PIPELINE_WORDING.emailTaken);
  const now = await stageOf(db, prospectId);
  const at = new Date().toISOString();
  if (now.stage === "lost") throw new HttpError(409, "prospect_lost", "This prospect is marked lost: move it back before inviting it.");
  if (now.stage !== "won") await advance(env, db, prospectId, "converted", at, `converted:${prospectId}:${at}`);
  await saveInvite(db, { prospectId, email, invitedBy: by, invitedAt: at });
  const link = `${origin}/signup?${new URLSearchParams({ email }).toString()}`;
  await sendAppMail(env, db, "client_invite", { to: email, link, title: prospect.companyName || prospect.name }, { readable: false, dedupeKey: `client_invite:${prospectId}:${at}` });
  await recordActivity(db, { prospectId, kind: "invited", at, dedupeKey: `invited:${prospectId}:${at}` });
  return { email, invitedAt: at };
}

/** The confirmed address had an invitation: its profile filled from the prospect (what is empty), its monthly report on. */
async function accountConfirmed(env: Env, db: Db, userId: string, email: string) {
  const at = new Date().toISOString();
  const invite = await claimInvite(db, normalizeEmail(email), userId, at);
  if (!invite) return;
  const prospect = await prospectForClient(db, invite.prospectId);
  if (prospect) {
    // What the client already typed stays; an empty field takes the prospect's.
    const keep = (column: AnySQLiteColumn, value: string | null | undefined) => (value ? sql`coalesce(nullif(${column}, ''), ${value})` : sql`${column}`);
    await db
      .update(profiles)
      .set({
        companyName: keep(profiles.companyName, prospect.companyName || prospect.name),
        companyWebsite: keep(profiles.companyWebsite, prospect.website),
        companyPhone: keep(profiles.companyPhone, prospect.phone),
        companyLocation: keep(profiles.companyLocation, prospect.area),
        companyCategory: keep(profiles.companyCategory, prospect.keyword),
        companyDescription: keep(profiles.companyDescription, prospect.description),
        updatedAt: at,
      })
      .where(and(eq(profiles.id, userId), eq(profiles.isAdmin, false)));
  }
  await saveClientReportSettings(db, userId, { enabled: true, enabledBy: "admin" });
  await recordActivity(db, { prospectId: invite.prospectId, kind: "client_joined", at, dedupeKey: `client_joined:${invite.prospectId}` });
  log.info("pipeline: an invited client joined", { prospectId: invite.prospectId, userId });
}

export const pipelineReactions: Reactions = {
  "prospect.activity": async (e) => {
    await recordActivity(e.db, { prospectId: e.prospectId, kind: e.kind, at: e.at, dedupeKey: e.dedupeKey });
    const cause = causeOfActivity(e.kind);
    if (cause) await advance(e.env, e.db, e.prospectId, cause, e.at, e.dedupeKey);
  },
  "prospect.stage-set": async (e) => {
    if ((STAGES as readonly string[]).includes(e.stage)) await moveByAdmin(e.env, e.db, e.prospectId, e.stage as Stage, e.by);
  },
  "account.confirmed": (e) => accountConfirmed(e.env, e.db, e.userId, e.email),
};
