// GET /api/reports/:id/views (admins): who read a shared report — opens, first and last open, sections read,
// chat started and print, newest events first (the admin report view's timeline).
import { Hono } from "hono";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { reportTimeline } from "./events-queries";
import { getReportVersion } from "./queries";
import type { ReportEventName, ReportTimelineResponse } from "./rules/events";
import { ErrorCode, HttpError } from "../../platform/errors";

export const reportViewRoutes = new Hono<AppEnv>().get("/:id/views", requireUser, requireAdmin, async (c) => {
  const id = c.req.param("id");
  const db = getDb(c.env);
  // Thrown (rendered by onError): the typed client then sees one success shape for unwrap().
  if (id.length > 64 || !(await getReportVersion(db, id))) throw new HttpError(404, ErrorCode.notFound, "Report not found");
  const t = await reportTimeline(db, id);
  const body: ReportTimelineResponse = {
    stats: {
      opens: t.stats?.opens ?? 0,
      first_opened_at: t.stats?.firstOpenedAt ?? null,
      last_opened_at: t.stats?.lastOpenedAt ?? null,
      visits: Number(t.counts.visits ?? 0),
      chat_started: Number(t.counts.chatStarted ?? 0),
      prints: Number(t.counts.prints ?? 0),
    },
    sections: t.sections.map((s) => ({ section: s.section, visits: Number(s.visits) })),
    events: t.events.map((e) => ({ event: e.event as ReportEventName, section: e.section || null, at: e.at, visit: e.visit })),
  };
  return c.json(body);
});
