// Token estimate, model cost table and cost rounding (spec part 2 §9).
import { describe, expect, it } from 'vitest';
import { itReturns } from '../each';
import { COST_PER_1K, costFor, costTableKey, estimateTokens, formatCost, roundCost } from '../../../worker/domain/usage-cost';

describe('estimateTokens', () => {
  itReturns('%j → %i tokens (length / 4, rounded up)', estimateTokens, [
    ['', 0],
    ['a', 1],
    ['abcd', 1],
    ['abcde', 2],
    ['x'.repeat(8), 2],
    ['x'.repeat(4001), 1001],
  ]);
});

describe('COST_PER_1K', () => {
  it.each([
    ['gpt-4', 0.03, 0.06],
    ['gpt-4-32k', 0.06, 0.12],
    ['gpt-3.5-turbo', 0.0015, 0.002],
    ['gpt-3.5-turbo-16k', 0.003, 0.004],
    ['claude-2', 0.008, 0.024],
    ['claude-instant-1', 0.0008, 0.0024],
    ['gemini-1.0-pro', 0.00025, 0.0005],
    ['gemini-2.0-flash-lite', 0.0001, 0.0002],
    ['gemini-2.0-pro', 0.00035, 0.0007],
    ['default', 0.001, 0.002],
    ['gemini-2.5-flash', 0.0003, 0.0025],
    ['gemini-2.5-flash-lite', 0.0001, 0.0004],
    ['gemini-2.0-flash', 0.0001, 0.0004],
  ] as const)('%s costs %f in, %f out per 1,000 tokens', (model, input, output) => {
    expect(COST_PER_1K[model]).toEqual({ input, output });
  });

  it('has exactly the spec rows plus the three Gemini flash rows', () => {
    expect(Object.keys(COST_PER_1K)).toHaveLength(13);
  });
});

describe('costFor', () => {
  it.each([
    ['gpt-4', 0.03 + 0.06],
    ['gpt-4-32k', 0.06 + 0.12],
    ['gpt-3.5-turbo', 0.0015 + 0.002],
    ['gpt-3.5-turbo-16k', 0.003 + 0.004],
    ['claude-2', 0.008 + 0.024],
    ['claude-instant-1', 0.0008 + 0.0024],
    ['gemini-1.0-pro', 0.00025 + 0.0005],
    ['gemini-2.0-flash-lite', 0.0001 + 0.0002],
    ['gemini-2.0-pro', 0.00035 + 0.0007],
    ['gemini-2.5-flash', 0.0003 + 0.0025],
    ['gemini-2.5-flash-lite', 0.0001 + 0.0004],
    ['gemini-2.0-flash', 0.0001 + 0.0004],
  ])('%s: 1,000 in + 1,000 out costs the sum of its rates', (model, cost) => {
    expect(costFor(model, 1000, 1000)).toBeCloseTo(cost, 12);
  });

  it('weights input and output separately', () => {
    expect(costFor('gpt-4', 2000, 500)).toBe(0.09);
    expect(costFor('gemini-2.5-flash', 1000, 2000)).toBe(0.0053);
    expect(costFor('claude-2', 0, 1000)).toBe(0.024);
    expect(costFor('claude-2', 0, 0)).toBe(0);
  });

  it.each([
    ['google/gemini-2.5-flash', 'gemini-2.5-flash'],
    ['google/gemini-2.5-flash-lite', 'gemini-2.5-flash-lite'],
    ['google/gemini-2.5-flash-lite-preview-06-17', 'gemini-2.5-flash-lite'],
    ['google/gemini-2.0-flash-001', 'gemini-2.0-flash'],
    ['google/gemini-2.0-flash-lite-001', 'gemini-2.0-flash-lite'],
    ['google/gemini-2.0-flash-exp:free', 'gemini-2.0-flash'],
    ['openai/gpt-4-32k-0613', 'gpt-4-32k'],
    ['openai/gpt-4', 'gpt-4'],
    ['openai/gpt-3.5-turbo-16k', 'gpt-3.5-turbo-16k'],
    ['openai/gpt-3.5-turbo-0125', 'gpt-3.5-turbo'],
    ['anthropic/claude-instant-1.2', 'claude-instant-1'],
    ['anthropic/claude-2:beta', 'claude-2'],
    ['GOOGLE/Gemini-2.5-Flash', 'gemini-2.5-flash'],
    ['meta-llama/llama-3-70b', 'default'],
    ['', 'default'],
  ])('%j is priced as %s (the longest key it contains)', (id, key) => {
    expect(costTableKey(id)).toBe(key);
    const rate = COST_PER_1K[key as keyof typeof COST_PER_1K];
    expect(costFor(id, 1000, 1000)).toBeCloseTo(rate.input + rate.output, 12);
  });

  it('lite beats flash: flash-lite ids never get the flash price', () => {
    expect(costFor('google/gemini-2.5-flash-lite', 1000, 1000)).toBe(0.0005);
    expect(costFor('google/gemini-2.5-flash', 1000, 1000)).toBe(0.0028);
    expect(costFor('google/gemini-2.0-flash-lite-001', 1000, 1000)).toBe(0.0003);
    expect(costFor('google/gemini-2.0-flash-001', 1000, 1000)).toBe(0.0005);
  });

  it('unknown models use the default rate', () => {
    expect(costFor('mistral/mixtral-8x7b', 1000, 1000)).toBe(0.003);
  });

  it('rounds to 6 decimals, half up, without float noise', () => {
    expect(costFor('gemini-2.5-flash-lite', 1, 1)).toBe(0.000001); // 0.0000005 → 0.000001
    expect(costFor('gemini-2.0-flash-lite', 1, 0)).toBe(0); // 0.0000001 → 0
    expect(costFor('gemini-2.5-flash', 7, 3)).toBe(0.00001); // 0.0000021 + 0.0000075 = 0.0000096
    expect(costFor('gpt-3.5-turbo', 1234, 567)).toBe(0.002985); // 0.001851 + 0.001134
    expect(costFor('gemini-1.0-pro', 10, 0)).toBe(0.000003); // 0.0000025 rounds up
    expect(roundCost(0.1 + 0.2)).toBe(0.3);
    expect(roundCost(1.0000005)).toBe(1.000001);
    expect(roundCost(0.0123454)).toBe(0.012345);
  });
});

describe('formatCost', () => {
  itReturns('in cents (issue 26): %f → %s', formatCost, [
    [0, '$0.00'],
    [0.0053, '$0.01'],
    [0.015, '$0.02'],
    [0.585, '$0.59'],
    [0.09, '$0.09'],
    [1.5, '$1.50'],
    [1234.5, '$1,234.50'],
    [0.0000025, '< $0.01'],
    [0.0049, '< $0.01'],
  ]);
});
