// Token estimate and per-model AI cost (spec part 2 §9), shared by the worker and the web.

/** USD per 1,000 tokens, as [input, output]. */
export interface ModelRate {
  input: number;
  output: number;
}

/**
 * Cost per 1,000 tokens by model. The first rows are the spec's table verbatim; the Gemini 2.x
 * flash rows are today's prices for the models the product actually uses by default.
 */
export const COST_PER_1K = {
  'gpt-4': { input: 0.03, output: 0.06 },
  'gpt-4-32k': { input: 0.06, output: 0.12 },
  'gpt-3.5-turbo': { input: 0.0015, output: 0.002 },
  'gpt-3.5-turbo-16k': { input: 0.003, output: 0.004 },
  'claude-2': { input: 0.008, output: 0.024 },
  'claude-instant-1': { input: 0.0008, output: 0.0024 },
  'gemini-1.0-pro': { input: 0.00025, output: 0.0005 },
  'gemini-2.0-flash-lite': { input: 0.0001, output: 0.0002 },
  'gemini-2.0-pro': { input: 0.00035, output: 0.0007 },
  'gemini-2.5-flash': { input: 0.0003, output: 0.0025 },
  'gemini-2.5-flash-lite': { input: 0.0001, output: 0.0004 },
  'gemini-2.0-flash': { input: 0.0001, output: 0.0004 },
  default: { input: 0.001, output: 0.002 },
} as const satisfies Record<string, ModelRate>;

export type CostTableKey = keyof typeof COST_PER_1K;

// Longest first, so the most specific key contained in a model id wins.
const MODEL_KEYS_BY_SPECIFICITY = (Object.keys(COST_PER_1K) as CostTableKey[])
  .filter((key) => key !== 'default')
  .sort((a, b) => b.length - a.length);

/** Spec: text length divided by 4, rounded up. */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  return Math.ceil(text.length / 4);
}

/**
 * The cost-table key for a model id. Ids may carry a provider prefix ("google/gemini-2.5-flash")
 * or a suffix ("-001", ":free"), so the longest table key contained in the id is chosen.
 */
export function costTableKey(model: string): CostTableKey {
  const id = model.trim().toLowerCase();
  return MODEL_KEYS_BY_SPECIFICITY.find((key) => id.includes(key)) ?? 'default';
}

/** Rounds to 6 decimals, half up; toPrecision drops float noise (2.4999999999999996 → 2.5) first. */
export function roundCost(value: number): number {
  return Math.round(Number((value * 1e6).toPrecision(12))) / 1e6;
}

/** Estimated USD cost of one call, rounded to 6 decimals. */
export function costFor(model: string, inputTokens: number, outputTokens: number): number {
  const rate = COST_PER_1K[costTableKey(model)];
  return roundCost((inputTokens / 1000) * rate.input + (outputTokens / 1000) * rate.output);
}

/**
 * Money as people read it, everywhere in the app: whole cents ("$0.02", "$1,234.50"), "< $0.01" for a cost that is
 * more than nothing but rounds to no cent. Half a cent rounds up (a $0.015 search shows as "$0.02").
 */
export function formatCost(value: number): string {
  const cents = Math.round(Number((roundCost(value) * 100).toPrecision(12)));
  if (value > 0 && cents === 0) return "< $0.01";
  return `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
