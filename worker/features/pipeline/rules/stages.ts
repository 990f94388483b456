// The pipeline's stages and how a prospect moves through them (issue 42). Pure: the web imports it.
import { z } from "zod";

export const STAGES = ["new", "contacted", "engaged", "replied", "meeting", "won", "lost"] as const;
export type Stage = (typeof STAGES)[number];
export const STAGE_LABELS: Record<Stage, string> = {
  new: "New",
  contacted: "Contacted",
  engaged: "Engaged",
  replied: "Replied",
  meeting: "Meeting",
  won: "Won",
  lost: "Lost",
};

/** What moved a prospect, as its timeline says it. */
export const MOVE_CAUSES = ["admin", "mail_sent", "report_opened", "chat_started", "chat_lead", "widget_lead", "replied", "converted"] as const;
export type MoveCause = (typeof MOVE_CAUSES)[number];
export const CAUSE_LABELS: Record<MoveCause, string> = {
  admin: "Moved by",
  mail_sent: "A mail was sent",
  report_opened: "Opened the report",
  chat_started: "Started a chat",
  chat_lead: "Left contact details in the chat",
  widget_lead: "Asked for an audit through the widget",
  replied: "Replied",
  converted: "Became a client",
};

/** The stage an event moves a prospect to. */
const CAUSE_STAGE: Record<Exclude<MoveCause, "admin">, Stage> = {
  mail_sent: "contacted",
  report_opened: "engaged",
  chat_started: "engaged",
  chat_lead: "engaged",
  widget_lead: "engaged",
  replied: "replied",
  converted: "won",
};

/**
 * Where an event moves a prospect from `current`: only forward, never out of won or lost (a person decided those), and
 * nothing when it is already there or further on. Null: it stays.
 */
export function autoMove(current: Stage, cause: Exclude<MoveCause, "admin">): Stage | null {
  const to = CAUSE_STAGE[cause];
  if (current === "won" || current === "lost") return null;
  if (to === "won") return to;
  return STAGES.indexOf(to) > STAGES.indexOf(current) ? to : null;
}

/** The activity (an alert kind or a webhook event of the lead loop) that moves a prospect, if it does. */
export function causeOfActivity(kind: string): Exclude<MoveCause, "admin" | "converted"> | null {
  if (kind === "report_opened" || kind === "report_reopened" || kind === "report_read") return "report_opened";
  if (kind === "chat_started" || kind === "chat_lead" || kind === "widget_lead") return kind;
  return null;
}

export const PIPELINE_CARDS_PER_STAGE = 100;

export const PipelineQuery = z.object({
  stage: z.enum(STAGES).optional(),
  tag: z.string().trim().max(100).optional(),
  /** "me", an admin's user id, or absent for everyone's. */
  owner: z.string().trim().min(1).max(100).optional(),
  q: z.string().trim().max(100).optional(),
});
export type PipelineQuery = z.infer<typeof PipelineQuery>;

export type PipelineCard = {
  prospectId: string;
  name: string;
  area: string;
  keyword: string;
  tag: string | null;
  email: string;
  owner: { id: string; email: string } | null;
  stage: Stage;
  movedAt: string | null;
  reportId: string | null;
  /** The last thing that happened (its words) and when. */
  last: { text: string; at: string } | null;
  /** The account the prospect became (won and converted). */
  clientId: string | null;
  invitedAt: string | null;
};

export type PipelineResponse = {
  stages: { stage: Stage; label: string; count: number }[];
  cards: PipelineCard[];
  tags: string[];
  admins: { id: string; email: string }[];
};

export type TimelineEntry = { kind: string; text: string; at: string; by: string | null };
export type ProspectTimeline = { prospectId: string; stage: Stage; entries: TimelineEntry[] };

export const PIPELINE_WORDING = {
  failed: "Failed to load the pipeline: ",
  empty: "No prospects yet: import some on Prospects, or let the widget bring them in.",
  noMatch: "No prospects match these filters.",
  convertNeedsEmail: "Add the prospect's email address first: the invitation goes there.",
  convertNotWon: "Move the prospect to Won first.",
  converted: "Invitation sent. Their account is set up from this prospect when they sign up.",
  alreadyClient: "This prospect is already a client.",
  emailTaken: "That address already has an account: it cannot be invited as a new client.",
} as const;
