// The columns every job table declares alike (issue 40): its status word, how many times it was tried, and when a
// worker claimed it by compare-and-set; a unit of a scan (an audit step, a grid point, a citation check) also keeps
// why it ended as it did and when. Spread into sqliteTable: `...jobColumns(STATUSES, "queued")`.
import { integer, text } from "drizzle-orm/sqlite-core";

/** The status words of a scan's units (grid points, keyword checks, citation checks). */
export const UNIT_STATUSES = ["pending", "running", "retrying", "done", "failed"] as const;

/** How many times the job was tried (the outbox's mail has no claim time: it keeps this alone). */
export const attemptsColumn = () => integer("attempts").notNull().default(0);

/** How many times the job was tried, and when a worker claimed it (null: not claimed). */
export function claimColumns() {
  return {
    attempts: attemptsColumn(),
    claimedAt: text("claimed_at"),
  };
}

/** `status` (one of `statuses`, starting at `initial`) with the claim's columns. */
export function jobColumns<const S extends readonly [string, ...string[]]>(statuses: S, initial: S[number]) {
  return {
    status: text("status", { enum: statuses }).notNull().default(initial),
    ...claimColumns(),
  };
}

/** A unit of a scan: a job that keeps why it ended as it did (`reason`) and when (`finished_at`). */
export function unitColumns<const S extends readonly [string, ...string[]]>(statuses: S, initial: S[number]) {
  return {
    ...jobColumns(statuses, initial),
    reason: text("reason"),
    finishedAt: text("finished_at"),
  };
}
