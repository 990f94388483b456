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
