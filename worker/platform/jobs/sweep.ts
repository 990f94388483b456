// The job engine's stale-claim sweep: what a cron finds unfinished past its cut (a claim whose worker died, or a message
// that was lost) is sent again, grouped by its parent (a scan). Sending twice is safe: the claims keep each item single.

/**
 * Sends `stale` again: grouped by `groupOf` (its parent's id; one group when omitted) in the order found, each group's
 * items handed to `send` (which splits them into messages). Answers how many items were sent.
 */
export async function resendStale<R, I>(
  stale: readonly R[],
  itemOf: (row: R) => I,
  send: (items: I[], group: string) => Promise<void>,
  groupOf: (row: R) => string = () => "",
): Promise<number> {
  const groups = new Map<string, I[]>();
  for (const row of stale) {
    const key = groupOf(row);
    groups.set(key, [...(groups.get(key) ?? []), itemOf(row)]);
  }
  for (const [group, items] of groups) await send(items, group);
  return stale.length;
}
