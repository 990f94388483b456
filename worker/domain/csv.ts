// CSV writing (RFC 4180, every cell quoted) that is safe to open in a spreadsheet: cells that would start a formula are defused.
/** A leading =, +, -, @, tab or carriage return makes spreadsheets evaluate a cell; a quote prefix stops that. */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  // A number is never a formula: a negative one (a western longitude) stays a number the sheet can add up.
  if (typeof value !== "number" && FORMULA_START.test(text)) text = `'${text}`;
  // Every cell quoted: no reader has to guess where a cell with a separator, quote or line break ends.
  return `"${text.replace(/"/g, '""')}"`;
}

/** Rows joined with CRLF, as RFC 4180 says, ending in a line break. */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null | undefined>>): string {
  return rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
