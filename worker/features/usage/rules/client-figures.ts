// The AI usage figures on the agency's clients view (issue 41): this calendar month's (UTC) spend against the monthly
// allowance, as the meter counts them (worker/platform/metering/budgets.ts). Refreshed when usage rows are stored.
// Pure: the web reads the shape.

export type UsageClientFigures = {
  /** Settled spend this calendar month (UTC), in cents: every paid call (AI, voice, search). */
  spentCents: number;
  /** The monthly allowance in force, in cents; null: no monthly allowance. */
  allowanceCents: number | null;
};

/** Millionths of a dollar per cent. */
const MICRO_PER_CENT = 10_000;

export function usageClientFiguresOf(input: { settledMicro: number; monthlyUsd: number | null }): UsageClientFigures {
  return {
    spentCents: Math.round(input.settledMicro / MICRO_PER_CENT),
    allowanceCents: input.monthlyUsd === null ? null : Math.round(input.monthlyUsd * 100),
  };
}
