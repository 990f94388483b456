// The pipeline's named queries (issue 42): the board (each prospect with its stage, owner, report and last activity,
// counted per stage), a move (compare-and-set on the stage, the move on the timeline, in one batch), the timeline, and
// the client invitations.
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { profiles } from "../../platform/auth/tables";
import { prospects } from "../prospects/tables";
import { seoReports } from "../reports/tables";
import { clientInvites, prospectActivity, prospectStages } from "./tables";
import { PIPELINE_CARDS_PER_STAGE, type Stage } from "./rules/stages";

export type InviteRow = typeof clientInvites.$inferSelect;
export type ActivityRow = typeof prospectActivity.$inferSelect;

const stageSql = sql<Stage>`coalesce(${prospectStages.stage}, 'new')`;

function filters(p: { stage?: Stage; tag?: string; ownerId?: string | null; q?: string }): SQL | undefined {
  const needle = p.q?.trim().toLowerCase();
  return and(
    p.stage ? sql`${stageSql} = ${p.stage}` : undefined,
    p.tag ? eq(prospects.tag, p.tag) : undefined,
    p.ownerId ? eq(prospects.userId, p.ownerId) : undefined,
    needle ? sql`instr(${prospects.searchText}, ${needle}) > 0` : undefined,
  );
}

/** The board: at most 100 cards a stage (the most recently moved first), every stage's count, in one batch. */
export async function pipelineBoard(db: Db, p: { stage?: Stage; tag?: string; ownerId?: string | null; q?: string }) {
  const where = filters(p);
  const last = sql<string | null>`(select a.kind || char(31) || coalesce(a.to_stage, '') || char(31) || a.at from prospect_activity a where a.prospect_id = ${prospects.id} order by a.at desc limit 1)`;
  const ranked = db
    .select({
      prospectId: prospects.id,
      name: prospects.name,
      area: prospects.area,
      keyword: prospects.keyword,
      tag: prospects.tag,
      email: prospects.email,
      ownerId: prospects.userId,
      ownerEmail: sql<string | null>`${profiles.email}`.as("owner_email"),
      stage: sql<Stage>`coalesce(${prospectStages.stage}, 'new')`.as("stage"),
      movedAt: prospectStages.movedAt,
      createdAt: prospects.createdAt,
      reportId: sql<string | null>`${seoReports.id}`.as("report_id"),
      last: last.as("last"),
      clientId: sql<string | null>`${clientInvites.userId}`.as("client_id"),
      invitedAt: clientInvites.invitedAt,
      n: sql<number>`row_number() over (partition by ${stageSql} order by coalesce(${prospectStages.movedAt}, ${prospects.createdAt}) desc)`.as("n"),
    })
    .from(prospects)
    .leftJoin(prospectStages, eq(prospectStages.prospectId, prospects.id))
    .leftJoin(profiles, eq(profiles.id, prospects.userId))
    .leftJoin(seoReports, eq(seoReports.prospectId, prospects.id))
    .leftJoin(clientInvites, eq(clientInvites.prospectId, prospects.id))
    .where(where)
    .as("ranked");
  const [cards, counts, tags] = await db.batch([
    db.select().from(ranked).where(sql`${ranked.n} <= ${PIPELINE_CARDS_PER_STAGE}`),
    db
      .select({ stage: stageSql, n: sql<number>`count(*)` })
      .from(prospects)
      .leftJoin(prospectStages, eq(prospectStages.prospectId, prospects.id))
      .where(where)
      .groupBy(stageSql),
    db.selectDistinct({ tag: prospects.tag }).from(prospects).where(sql`${prospects.tag} is not null and ${prospects.tag} <> ''`).orderBy(prospects.tag).limit(200),
  ]);
  return { cards, counts, tags: tags.map((t) => t.tag!).filter(Boolean) };
}

export async function stageOf(db: Db, prospectId: string): Promise<{ exists: boolean; stage: Stage; name: string; email: string; ownerId: string | null }> {
  const row = await db
    .select({ name: prospects.name, email: prospects.email, ownerId: prospects.userId, stage: stageSql })
    .from(prospects)
    .leftJoin(prospectStages, eq(prospectStages.prospectId, prospects.id))
    .where(eq(prospects.id, prospectId))
    .get();
  return row ? { exists: true, ...row } : { exists: false, stage: "new", name: "", email: "", ownerId: null };
}

/**
 * Moves the prospect from `from` to `to` if it is still at `from` (compare-and-set: two events at once move it once),
 * and puts the move on its timeline, in one batch. False: it was no longer at `from`, or this move was kept already.
 */
export async function moveStage(db: Db, m: { prospectId: string; from: Stage; to: Stage; cause: string; by: string | null; at: string; dedupeKey: string }): Promise<boolean> {
  const [moved] = await db.batch([
    db
      .insert(prospectStages)
      .values({ prospectId: m.prospectId, stage: m.to, movedAt: m.at })
      .onConflictDoUpdate({ target: prospectStages.prospectId, set: { stage: m.to, movedAt: m.at, updatedAt: m.at }, setWhere: eq(prospectStages.stage, m.from) })
      .returning({ prospectId: prospectStages.prospectId }),
    db
      .insert(prospectActivity)
      .select(
        sql`select ${crypto.randomUUID()}, ${m.prospectId}, 'moved', ${m.from}, ${m.to}, ${m.cause}, ${m.by}, ${`moved:${m.dedupeKey}`}, ${m.at}, ${m.at}
          where changes() > 0 and (select stage from prospect_stages where prospect_id = ${m.prospectId}) = ${m.to}`,
      )
      .onConflictDoNothing(),
  ]);
  return moved.length > 0;
}

/** Something the prospect did, on its timeline once (its dedupe key). */
export async function recordActivity(db: Db, a: { prospectId: string; kind: string; at: string; dedupeKey: string }): Promise<void> {
  await db.insert(prospectActivity).values({ id: crypto.randomUUID(), prospectId: a.prospectId, kind: a.kind, dedupeKey: a.dedupeKey, at: a.at }).onConflictDoNothing();
}

/** The prospect's timeline, newest first, with the admins' addresses. */
export async function timelineOf(db: Db, prospectId: string, limit = 200) {
  return db
    .select({ activity: prospectActivity, byEmail: profiles.email })
    .from(prospectActivity)
    .leftJoin(profiles, eq(profiles.id, prospectActivity.by))
    .where(eq(prospectActivity.prospectId, prospectId))
    .orderBy(desc(prospectActivity.at), desc(prospectActivity.createdAt))
    .limit(limit);
}

export async function findInvite(db: Db, prospectId: string): Promise<InviteRow | null> {
  return (await db.select().from(clientInvites).where(eq(clientInvites.prospectId, prospectId)).get()) ?? null;
}

/** Keeps the invitation (a new one replaces an unanswered one: the address may have been corrected). */
export async function saveInvite(db: Db, row: Omit<InviteRow, "userId" | "acceptedAt">) {
  await db
    .insert(clientInvites)
    .values(row)
    .onConflictDoUpdate({ target: clientInvites.prospectId, set: { email: row.email, invitedBy: row.invitedBy, invitedAt: row.invitedAt }, setWhere: sql`${clientInvites.userId} is null` });
}

/** The open invitation for a confirmed address, claimed for its account (once). */
export async function claimInvite(db: Db, email: string, userId: string, at: string): Promise<InviteRow | null> {
  const [row] = await db
    .update(clientInvites)
    .set({ userId, acceptedAt: at })
    .where(and(eq(clientInvites.email, email), sql`${clientInvites.userId} is null`))
    .returning();
  return row ?? null;
}

export async function prospectForClient(db: Db, prospectId: string) {
  return (await db.select().from(prospects).where(eq(prospects.id, prospectId)).get()) ?? null;
}
