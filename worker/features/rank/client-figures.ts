// The rank figures of one client for the agency's clients view (issue 41): the newest finished own grid and the same
// keyword's grid before it, the tracked keywords' last two completed checks, one batch. Apart from queries.ts because
// it works the figures out as the view does.
import { batchedRead, runReads } from "../../platform/db/batched-read";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { gridPoints, gridScans, keywordChecks, trackedKeywords } from "./tables";
import type { GridPointRow, KeywordCheckRow } from "./queries";
import { mapMovement, scanMetrics } from "./view";
import { rankClientFiguresOf, type RankClientFigures } from "./rules/client-figures";

/**
 * One client's rank figures (issue 41) in one D1 round trip (a batch of three reads): the points of the latest finished
 * own grid scan and of the same keyword's finished scan before it, the own keywords tracked (id and words), and each own keyword's
 * last two completed map-pack checks (all a change needs), the scans and checks picked by subqueries.
 */
export async function rankClientFigures(db: Db, userId: string): Promise<RankClientFigures> {
  const [figures] = await runReads(db, rankClientFiguresRead(db, userId));
  return figures;
}

/** rankClientFigures's queries, for a caller's batch. */
export function rankClientFiguresRead(db: Db, userId: string) {
  const latestId = sql`(select s.id from grid_scans s where s.user_id = ${userId} and s.kind = 'own' and s.status = 'done' order by s.finished_at desc limit 1)`;
  const previousId = sql`(select p.id from grid_scans p, grid_scans l where l.id = ${latestId} and p.user_id = l.user_id and p.kind = 'own' and p.status = 'done' and p.keyword = l.keyword and p.finished_at < l.finished_at order by p.finished_at desc limit 1)`;
  const lastTwoCompleted = sql`(select id from (
      select kc.id, row_number() over (partition by kc.keyword_id order by coalesce(kc.checked_at, kc.created_at) desc) as n
      from keyword_checks kc join tracked_keywords tk on tk.id = kc.keyword_id
      where tk.user_id = ${userId} and tk.kind = 'own' and (kc.map_status = 'not_found' or (kc.map_status = 'found' and kc.map_rank is not null))
    ) where n <= 2)`;
  return batchedRead([
    db
      .select({ latest: sql<number>`${gridScans.id} = ${latestId}`, finishedAt: gridScans.finishedAt, status: gridPoints.status, rank: gridPoints.rank })
      .from(gridScans)
      .leftJoin(gridPoints, eq(gridPoints.scanId, gridScans.id))
      .where(sql`${gridScans.id} in (${latestId}, ${previousId})`),
    db.select({ id: trackedKeywords.id, keyword: trackedKeywords.keyword }).from(trackedKeywords).where(and(eq(trackedKeywords.userId, userId), eq(trackedKeywords.kind, "own"))),
    db.select().from(keywordChecks).where(sql`${keywordChecks.id} in ${lastTwoCompleted}`).orderBy(asc(keywordChecks.createdAt)),
  ], ([points, keywords, checks]) => figuresOf(points, keywords, checks));
}

type PointRow = { latest: number; finishedAt: string | null; status: GridPointRow["status"] | null; rank: number | null };

function figuresOf(points: PointRow[], keywords: { id: string; keyword: string }[], checks: KeywordCheckRow[]): RankClientFigures {
  const metricsOf = (rows: typeof points) => scanMetrics(rows.flatMap((p) => (p.status ? [{ status: p.status, rank: p.rank }] : [])));
  const latest = points.filter((p) => Boolean(p.latest));
  const previous = points.filter((p) => !p.latest);
  const byKeyword = new Map<string, KeywordCheckRow[]>();
  for (const c of checks) byKeyword.set(c.keywordId, [...(byKeyword.get(c.keywordId) ?? []), c]);
  return rankClientFiguresOf({
    latest: latest.length ? { metrics: metricsOf(latest), finishedAt: latest[0]!.finishedAt } : null,
    previous: previous.length ? metricsOf(previous) : null,
    keywords: keywords.length,
    moves: keywords.flatMap((k) => {
      const mine = byKeyword.get(k.id);
      return mine ? [{ keywordId: k.id, keyword: k.keyword, checkedAt: mine[mine.length - 1]!.checkedAt ?? mine[mine.length - 1]!.createdAt, ...mapMovement(mine) }] : [];
    }),
  });
}
