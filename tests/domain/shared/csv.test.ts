// Tests CSV cells: every cell quoted, formula-starting text defused, numbers (negative ones too) left as numbers.
import { describe, it, expect } from "vitest";
import { itReturns } from "../each";
import { csvCell, toCsv } from "../../../worker/domain/csv";

describe("csvCell", () => {
  itReturns("%o → %s", csvCell, [
    ["plain", '"plain"'],
    ['say "hi"', '"say ""hi"""'],
    ["=SUM(A1)", `"'=SUM(A1)"`],
    ["-minus", `"'-minus"`],
    ["+1", `"'+1"`],
    ["@cmd", `"'@cmd"`],
    ["-74.5", `"'-74.5"`],
    [-74.5, '"-74.5"'],
    [0, '"0"'],
    [null, '""'],
    [undefined, '""'],
    [true, '"true"'],
  ]);
});

describe("toCsv", () => {
  it("joins rows with CRLF and ends in a line break", () => {
    expect(toCsv([["a", 1], ["b", -2]])).toBe('"a","1"\r\n"b","-2"\r\n');
  });
});
