// A client's health mark on the clients view (issue 41), from its figures and its open attention items: what needs
// acting on now, what to watch, each said in words for the mark's hover ("2 low reviews unanswered; Google changed the
// phone number"). Pure: the worker stores the mark, the web explains it.
import type { AttentionKind } from "./attention";

/** The figures the mark reads (each capability's group, as far as it has data; absent groups are ignored). */
export type HealthInput = {
  google: "none" | "connected" | "needs_reconnect";
  /** Open attention items by kind. */
  attention: Partial<Record<AttentionKind, number>>;
  /** The changed fields' labels of open Google edits ("phone number"). */
  googleChanges?: string[];
  reviews?: { lowUnanswered: number; unanswered: number } | null;
  rank?: { solvChange: number | null } | null;
  citations?: { wrong: number } | null;
  ai?: { direction: "up" | "down" | null } | null;
  posts?: { failed: number } | null;
  report?: { sentAt: string | null; openedAt: string | null } | null;
  usage?: { spentCents: number; allowanceCents: number | null } | null;
};

export const HEALTH_LEVELS = ["fine", "watch", "act"] as const;
export type HealthLevel = (typeof HEALTH_LEVELS)[number];
export const HEALTH_LABELS: Record<HealthLevel, string> = { fine: "Fine", watch: "Watch", act: "Needs action" };

export type Health = { level: HealthLevel; /** Higher is worse: the clients view sorts by it. */ score: number; reasons: string[] };

/** A map ranking fell this many SoLV points or more since the grid before it. */
export const SOLV_FALL_POINTS = 10;
/** A monthly report unopened this long after it was sent. */
export const REPORT_UNOPENED_MS = 7 * 24 * 3600_000;
export const ALLOWANCE_WARN_SHARE = 0.9;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function clientHealth(input: HealthInput, now = Date.now()): Health {
  const act: [number, string][] = [];
  const watch: [number, string][] = [];
  const a = input.attention;
  if (a.verification_lost) act.push([100, "The Google profile lost its verification"]);
  if (input.googleChanges?.length) act.push([60, `Google changed the ${input.googleChanges.join(", ")}`]);
  else if (a.google_updated) act.push([60, `${plural(a.google_updated, "profile change")} to decide`]);
  // Low reviews are to act on once they have waited a day, as the attention queue has them; newer ones are to watch.
  const waiting = a.low_review ?? 0;
  if (waiting) act.push([40 + Math.min(waiting, 10), `${plural(waiting, "low review")} unanswered`]);
  const fresh = Math.max(0, (input.reviews?.lowUnanswered ?? waiting) - waiting);
  if (fresh) watch.push([7, `${plural(fresh, "new low review")} to answer`]);
  if (input.google === "needs_reconnect" || a.google_reconnect) act.push([30, "Google needs reconnecting"]);
  const failed = input.posts?.failed ?? a.post_failed ?? 0;
  if (failed) watch.push([8, `${plural(failed, "post")} failed`]);
  const fall = input.rank?.solvChange;
  if (fall !== null && fall !== undefined && fall <= -SOLV_FALL_POINTS) watch.push([10, `Map ranking fell ${Math.round(-fall)} points`]);
  if (input.citations?.wrong) watch.push([6, `${plural(input.citations.wrong, "wrong listing")}`]);
  if (input.ai?.direction === "down") watch.push([6, "Named less often by AI assistants"]);
  const report = input.report;
  if (report?.sentAt && !report.openedAt && now - Date.parse(report.sentAt) > REPORT_UNOPENED_MS) watch.push([4, "Monthly report not opened after 7 days"]);
  const usage = input.usage;
  if (usage?.allowanceCents && usage.spentCents >= usage.allowanceCents * ALLOWANCE_WARN_SHARE) watch.push([5, `${Math.round((usage.spentCents / usage.allowanceCents) * 100)}% of the allowance used`]);
  if (input.google === "none") watch.push([1, "Google not connected"]);
  const level: HealthLevel = act.length ? "act" : watch.length ? "watch" : "fine";
  const all = [...act, ...watch];
  return { level, score: all.reduce((sum, [w]) => sum + w, 0), reasons: all.map(([, text]) => text) };
}

/** The mark's hover text: the reasons joined, or that nothing needs doing. */
export function healthText(h: Pick<Health, "level" | "reasons">): string {
  return h.reasons.length ? h.reasons.join("; ") : "Nothing needs doing";
}
