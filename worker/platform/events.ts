// The event point: a capability announces what happened to it; the capabilities that care react. Who reacts to what is
// wired once, in worker/registry.ts, so the announcer never imports the capabilities that react (nor they it).
import type { Db } from "./db/client";
import type { Env } from "./env";

/** Every event, with what its announcer hands the reactions. */
export type Events = {
  /** A prospect's findings changed (an audit step, a citation scan, a grid scan, an AI Visibility scan landed). */
  "prospect.findings-changed": { env: Env; db: Db; prospectId: string };
  /** A prospect's report changed in the database outside the report's own code (a tag edit's trigger, a deletion). */
  "prospect.report-changed": { reportId?: string };
  /** The agency's brand was saved or removed. */
  "brand.changed": Record<string, never>;
  /** A report was written and is ready to read. */
  "report.ready": { env: Env; reportId: string };
  /** The owner's reply to Google reviews went live (published through the reviews queue). */
  "review.answered": { env: Env; db: Db; reviewIds: string[] };
  /**
   * One of a business's figures changed (a review synced or answered, a grid or scan finished, a post published or
   * failed, a monthly report sent or opened, usage recorded): the agency's clients view reads that group again.
   */
  "client.figures-changed": { env: Env; db: Db; userId: string; group: ClientFigureGroup };
  /** The Google profile guard found changes to decide (Google's edits, or edits made outside Porchlight). */
  "gbp.changes-found": { env: Env; db: Db; userId: string; changes: GuardChangeNotice[] };
  /** Changes were decided (accepted, rejected) or Google no longer shows them. */
  "gbp.changes-resolved": { env: Env; db: Db; changeIds: string[] };
  /**
   * A prospect did something the lead loop hears of (its report opened, a chat started, a lead left): `kind` is the
   * alert or webhook event's name (worker/platform/notifications/rules/lead-events.ts).
   */
  "prospect.activity": { env: Env; db: Db; prospectId: string; kind: string; at: string; dedupeKey: string };
  /** An admin set a prospect's stage (PATCH /api/prospects/:id `{stage}`); the pipeline moves it. */
  "prospect.stage-set": { env: Env; db: Db; prospectId: string; stage: string; by: string };
  /** An account's address was confirmed (its mailed link, or a reset through the mailbox). */
  "account.confirmed": { env: Env; db: Db; userId: string; email: string };
  /** A location gained or lost its verification (the merchant's voice on Google). */
  "gbp.verification-changed": { env: Env; db: Db; userId: string; locationName: string; locationTitle: string; verified: boolean; action: string; reason: string | null; at: string };
};

/** The groups of a client's figures on the agency's clients view, each kept by the capability it belongs to. */
export const CLIENT_FIGURE_GROUPS = ["reviews", "rank", "citations", "ai", "posts", "report", "usage"] as const;
export type ClientFigureGroup = (typeof CLIENT_FIGURE_GROUPS)[number];

/** One change the guard found, as the reactions read it (values already in words). */
export type GuardChangeNotice = {
  id: string;
  locationName: string;
  locationTitle: string;
  field: string;
  source: string;
  beforeText: string;
  afterText: string;
  detectedAt: string;
};
export type EventName = keyof Events;

export type Reaction<N extends EventName> = (event: Events[N]) => unknown;
/** What one capability does on the events it cares about (its index.ts hands these to the registry). */
export type Reactions = { [N in EventName]?: Reaction<N> };

const wired = new Map<EventName, Reaction<never>[]>();

/** Wires a reaction (the registry does this once, at start, in the capabilities' order). */
export function react<N extends EventName>(name: N, reaction: Reaction<N>): void {
  wired.set(name, [...(wired.get(name) ?? []), reaction as Reaction<never>]);
}

/** Runs the event's reactions one after another, in the order they were wired; resolves when the last has finished. */
export async function announce<N extends EventName>(name: N, event: Events[N]): Promise<void> {
  for (const reaction of wired.get(name) ?? []) await (reaction as Reaction<N>)(event);
}
