// The clients view (issue 41): one row per client, stored, kept current by the capabilities' own events. An event
// names the client and the group of figures that changed; that group is read from its capability (one query) and the
// row written with the health mark worked out again (one statement). The cron fills the rows no event has touched yet,
// a few clients a run. The view itself is one indexed read.
import { getDb, type Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import type { ClientFigureGroup, Events } from "../../platform/events";
import { CLIENT_FIGURE_GROUPS } from "../../platform/events";
import { GUARDED_FIELD_LABELS, type GuardedField } from "../../platform/providers/rules/gbp-location";
import { reviewClientFiguresRead } from "../reviews";
import { rankClientFiguresRead } from "../rank";
import { citationClientFiguresRead } from "../citations";
import { aiClientFiguresRead } from "../ai-visibility";
import { postClientFiguresRead } from "../content";
import { reportClientFiguresRead } from "../client-reports";
import { usageClientFiguresRead } from "../usage";
import { meterSettings } from "../../domain/metering";
import { clientContext, clientContextRead, clientsToFill, saveSummary, type ClientContext } from "./client-queries";
import { runReads, type BatchedRead } from "../../platform/db/batched-read";
import { clientHealth, type HealthInput } from "./rules/health";

/** Each group's reader: the capability's own queries for one client's figures, read in the caller's batch. */
const READERS: Record<ClientFigureGroup, (env: Env, db: Db, userId: string) => BatchedRead<unknown>> = {
  reviews: (_env, db, userId) => reviewClientFiguresRead(db, userId),
  rank: (_env, db, userId) => rankClientFiguresRead(db, userId),
  citations: (_env, db, userId) => citationClientFiguresRead(db, userId),
  ai: (_env, db, userId) => aiClientFiguresRead(db, userId),
  posts: (_env, db, userId) => postClientFiguresRead(db, userId),
  report: (_env, db, userId) => reportClientFiguresRead(db, userId),
  // The allowance in force follows the operator's meter settings.
  usage: (env, db, userId) => usageClientFiguresRead(db, userId, meterSettings(env)),
};

/** Clients filled a cron run (each is seven small queries): 500 clients in under an hour and a half. */
const FILL_PER_RUN = 30;

function healthOf(ctx: ClientContext, groups: Partial<Record<ClientFigureGroup, unknown>>) {
  const parse = (g: ClientFigureGroup) => (g in groups ? groups[g] : ctx.summary?.[g] ? JSON.parse(ctx.summary[g] as string) : null) as never;
  const input: HealthInput = {
    google: ctx.google,
    attention: ctx.attention,
    googleChanges: ctx.googleFields.map((f) => GUARDED_FIELD_LABELS[f as GuardedField]?.toLowerCase() ?? f),
    reviews: parse("reviews"),
    rank: parse("rank"),
    citations: parse("citations"),
    ai: parse("ai"),
    posts: parse("posts"),
    report: parse("report"),
    usage: parse("usage"),
  };
  return clientHealth(input);
}

/** A group changed: read it from its capability with the client's context (one batch), write it with the health mark (one statement). */
export async function refreshGroup(env: Env, db: Db, userId: string, group: ClientFigureGroup) {
  const [figures, ctx] = await runReads(db, READERS[group](env, db, userId), clientContextRead(db, userId));
  if (!ctx) return;
  await saveSummary(db, userId, { [group]: figures }, healthOf(ctx, { [group]: figures }));
}

/** The client's attention items changed: only the mark is worked out again. */
export async function refreshHealth(db: Db, userIds: string[]) {
  for (const userId of new Set(userIds)) {
    const ctx = await clientContext(db, userId);
    if (ctx) await saveSummary(db, userId, {}, healthOf(ctx, {}));
  }
}

/** Every group of one client read together (a client no event has touched yet, or one refreshed by hand). */
export async function refreshClient(env: Env, db: Db, userId: string, now = new Date().toISOString()) {
  const [ctx, ...figures] = await runReads(db, clientContextRead(db, userId), ...CLIENT_FIGURE_GROUPS.map((g) => READERS[g](env, db, userId)));
  if (!ctx) return;
  const groups = Object.fromEntries(CLIENT_FIGURE_GROUPS.map((g, i) => [g, figures[i]])) as Record<ClientFigureGroup, unknown>;
  await saveSummary(db, userId, groups, healthOf(ctx, groups), now);
}

/** The cron's part: the clients whose row was never filled, or not in a day, a few a run. */
export async function fillClientRows(env: Env, now = new Date()) {
  const db = getDb(env);
  const due = await clientsToFill(db, new Date(now.getTime() - 24 * 3600_000).toISOString(), FILL_PER_RUN);
  for (const userId of due) await refreshClient(env, db, userId, now.toISOString());
  return { filled: due.length };
}

export const clientReactions = {
  "client.figures-changed": async ({ env, db, userId, group }: Events["client.figures-changed"]) => refreshGroup(env, db, userId, group),
};
