// Table tests of a pure function: one test a row, the function's answer for the row's input compared with the row's
// expected value. The title is it.each's printf format over the row ("%s → %s").
import { expect, it } from "vitest";

type Row<I, O> = readonly [input: I, expected: O];

/** One test a row: `fn(input)` is `expected` (toBe: the same primitive, null or object). */
export function itReturns<I, O>(title: string, fn: (input: I) => O, rows: readonly Row<I, O>[]): void {
  it.each(rows.map((row) => [...row] as [I, O]))(title, (input, expected) => {
    expect(fn(input)).toBe(expected);
  });
}

/** One test a row: `fn(input)` deeply equals `expected` (toEqual), for answers that are objects or lists. */
export function itReturnsEqual<I, O>(title: string, fn: (input: I) => O, rows: readonly Row<I, O>[]): void {
  it.each(rows.map((row) => [...row] as [I, O]))(title, (input, expected) => {
    expect(fn(input)).toEqual(expected);
  });
}
