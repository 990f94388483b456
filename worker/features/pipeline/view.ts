// The pipeline's answers (issue 42): the board's cards and counts, and a prospect's timeline in words.
import type { Db } from "../../platform/db/client";
import { adminsList } from "./admins";
import { pipelineBoard, stageOf, timelineOf } from "./queries";
import { CAUSE_LABELS, STAGE_LABELS, STAGES, type MoveCause, type PipelineCard, type PipelineQuery, type PipelineResponse, type ProspectTimeline, type Stage } from "./rules/stages";

/** What an activity says on a card and in the timeline. */
const ACTIVITY_TEXT: Record<string, string> = {
  report_opened: "Opened the report",
  report_reopened: "Opened the report again",
  report_read: "Read most of the report",
  report_printed: "Printed the report",
  chat_started: "Started a chat",
  chat_lead: "Left contact details in the chat",
  widget_lead: "Asked for an audit through the widget",
  "prospect.created": "Added",
  "report.ready": "Report ready",
  invited: "Invited to become a client",
  client_joined: "Created their account: now a client",
};

export function activityText(kind: string, toStage: string | null, cause: string | null, byEmail: string | null): string {
  if (kind === "moved") {
    const to = STAGE_LABELS[toStage as Stage] ?? toStage ?? "";
    const why = cause === "admin" ? `by ${byEmail ?? "an admin"}` : (CAUSE_LABELS[cause as MoveCause] ?? cause ?? "").toLowerCase();
    return `Moved to ${to}${why ? ` (${why})` : ""}`;
  }
  return ACTIVITY_TEXT[kind] ?? kind;
}

export async function pipelineView(db: Db, query: PipelineQuery, callerId: string): Promise<PipelineResponse> {
  const ownerId = query.owner === "me" ? callerId : (query.owner ?? null);
  const [board, admins] = await Promise.all([pipelineBoard(db, { ...query, ownerId }), adminsList(db)]);
  const counts = new Map(board.counts.map((c) => [c.stage, Number(c.n)]));
  const cards: PipelineCard[] = board.cards.map((c) => {
    const [kind, toStage, at] = (c.last ?? "").split("\u001f");
    return {
      prospectId: c.prospectId,
      name: c.name,
      area: c.area,
      keyword: c.keyword,
      tag: c.tag,
      email: c.email,
      owner: c.ownerId ? { id: c.ownerId, email: c.ownerEmail ?? "" } : null,
      stage: c.stage,
      movedAt: c.movedAt,
      reportId: c.reportId,
      last: kind && at ? { text: activityText(kind, toStage || null, null, null), at } : null,
      clientId: c.clientId,
      invitedAt: c.invitedAt,
    };
  });
  return { stages: STAGES.map((stage) => ({ stage, label: STAGE_LABELS[stage], count: counts.get(stage) ?? 0 })), cards, tags: board.tags, admins };
}

export async function timelineView(db: Db, prospectId: string): Promise<ProspectTimeline | null> {
  const now = await stageOf(db, prospectId);
  if (!now.exists) return null;
  const rows = await timelineOf(db, prospectId);
  return {
    prospectId,
    stage: now.stage,
    entries: rows.map(({ activity: a, byEmail }) => ({ kind: a.kind, text: activityText(a.kind, a.toStage, a.cause, byEmail), at: a.at, by: a.by ? (byEmail ?? a.by) : null })),
  };
}
