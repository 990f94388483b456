// Tests the prospect paste parser, its messages and the duplicate rule.
import { describe, it, expect } from "vitest";
import { itReturns } from "../each";
import {
  INVALID_WEBSITE_ROW,
  INVALID_EMAIL_ROW,
  HEADER_SKIPPED,
  EMPTY_SUBMIT,
  INVALID_ROW_FORMAT,
  NO_VALID_DATA,
  NOT_SIGNED_IN,
  ProspectImportRequest,
  formatPartialSuccess,
  formatRowError,
  formatSuccess,
  isSameProspect,
  parseProspectPaste,
  partitionDuplicates,
  prospectCountTitle,
  type ParseResult,
} from "../../../worker/features/prospects/rules/import";

function parsed(text: string) {
  const result: ParseResult = parseProspectPaste(text);
  if (!result.ok) throw new Error(`expected ok, got ${result.error}`);
  return result;
}

describe("messages", () => {
  it("uses the spec's wording, with the literal \\t sequences", () => {
    expect(INVALID_ROW_FORMAT).toBe(
      "Invalid row format. Expected format: Description" +
        "\\" + "tName" + "\\" + "tLocation" + "\\" + "tPhone" + "\\" + "tEmail" + "\\" + "tFull Name",
    );
    expect(INVALID_ROW_FORMAT).not.toContain("\t");
    expect(EMPTY_SUBMIT).toBe("Please enter prospect data");
    expect(NO_VALID_DATA).toBe("No valid data found");
    expect(NOT_SIGNED_IN).toBe("You must be logged in to create a prospect");
  });

  it("formats the result messages", () => {
    expect(formatSuccess(3)).toBe("Created 3 prospects successfully!");
    expect(formatPartialSuccess(2, 1)).toBe("Created 2 prospects successfully. 1 failed.");
    expect(formatRowError(4, "Boom")).toBe("Row 4: Boom");
  });

  itReturns("titles a count of %i as %j", prospectCountTitle, [
    [0, "0 prospects created"],
    [1, "1 prospect created"],
    [2, "2 prospects created"],
    [11, "11 prospects created"],
  ]);
});

describe("parseProspectPaste", () => {
  it("parses a full row and derives phone, keyword, tag, company and questions", () => {
    const result = parsed("Roof repair and replacement\tAcme Roofing\tAustin, TX\t(512) 555-0100\tinfo@acme.com\tJane Doe");
    expect(result.total).toBe(1);
    expect(result.errors).toEqual([]);
    expect(result.skipped).toEqual([]);
    expect(result.rows).toEqual([
      {
        row: 1,
        name: "Acme Roofing",
        description: "Roof repair and replacement",
        area: "Austin, TX",
        phone: "15125550100",
        email: "info@acme.com",
        keyword: "roofer in austin",
        tag: "Roofing",
        company_name: "Acme Roofing",
        website: null,
        questions: [
          "Is your project located in or near Austin, TX?",
          expect.stringMatching(/roofing work/i),
          expect.stringMatching(/budget/i),
        ],
      },
    ]);
  });

  it("accepts three fields, leaving phone and email empty", () => {
    const [row] = parsed("Emergency plumbing\tPipe Pros\tDenver, CO").rows;
    expect(row).toMatchObject({ name: "Pipe Pros", area: "Denver, CO", phone: "", email: "", tag: "Plumbing", keyword: "plumber in denver" });
  });

  it("ignores the sixth field and anything after the seventh", () => {
    const [row] = parsed("HVAC\tCool Air\tPhoenix\t6025550100\tcool@air.com\tJohn Smith\tcoolair.com\textra").rows;
    expect(row).toMatchObject({ name: "Cool Air", email: "cool@air.com", phone: "16025550100", website: "https://coolair.com" });
    expect(JSON.stringify(row)).not.toContain("John Smith");
    expect(JSON.stringify(row)).not.toContain("extra");
  });

  it("reads the optional 7th column as the website; a row whose 7th column is not a URL is that row's error, the rest kept", () => {
    const result = parsed(
      [
        "Plumbing\tJoe's Plumbing\tAustin, TX\t5125550142\tjoe@plumb.com\tJoe Smith\thttps://www.joesplumbing.com/",
        "Roofing\tRidge Roofing\tAustin, TX\t\t\t\tnot a website",
        "Painting\tBrush Co\tReno\t\t\t\t",
        "HVAC\tCool Air\tPhoenix\t\t\t\tjavascript:alert(1)",
        "HVAC\tWarm Air\tPhoenix\t\t\tAnn\twarmair.com",
      ].join("\n"),
    );
    expect(result.rows.map((r) => [r.row, r.website])).toEqual([
      [1, "https://www.joesplumbing.com/"],
      [3, null],
      [5, "https://warmair.com"],
    ]);
    expect(result.errors).toEqual([
      { row: 2, message: INVALID_WEBSITE_ROW },
      { row: 4, message: INVALID_WEBSITE_ROW },
    ]);
  });

  it("skips a header row of column titles and says so, instead of a Website error on row 1 (issue 26)", () => {
    const result = parsed(
      ["Description\tName\tLocation\tPhone\tEmail\tFull Name\tWebsite", "Plumbing\tJoe's Plumbing\tAustin, TX\t5125550142\tjoe@plumb.com\tJoe\tjoesplumbing.com"].join("\n"),
    );
    expect(result.header).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.rows.map((r) => [r.row, r.name])).toEqual([[2, "Joe's Plumbing"]]);
    expect(parsed("Roofing\tAcme\tAustin").header).toBe(false);
    expect(parseProspectPaste("business description\tbusiness name\tcity")).toEqual({ ok: false, error: NO_VALID_DATA });
    expect(HEADER_SKIPPED).toBe("Row 1 looks like column titles, so it was skipped.");
  });

  it("reports a malformed email as that row's error and keeps the rest (issue 26)", () => {
    const result = parsed(["Roofing\tAcme\tAustin\t\tnot-an-email", "Painting\tBrush Co\tReno\t\tpaint@brush.co", "HVAC\tCool Air\tPhoenix"].join("\n"));
    expect(result.errors).toEqual([{ row: 1, message: INVALID_EMAIL_ROW }]);
    expect(result.rows.map((r) => [r.row, r.email])).toEqual([
      [2, "paint@brush.co"],
      [3, ""],
    ]);
  });

  it("reports a row with fewer than 3 fields with the spec's message and its row number", () => {
    const result = parsed("Roofing\tAcme\tAustin\nPlumbing\tPipe Pros\nPainting\tBrush Co\tReno");
    expect(result.total).toBe(3);
    expect(result.rows.map((r) => r.row)).toEqual([1, 3]);
    expect(result.errors).toEqual([{ row: 2, message: INVALID_ROW_FORMAT }]);
    expect(formatRowError(result.errors[0]!.row, result.errors[0]!.message)).toBe(`Row 2: ${INVALID_ROW_FORMAT}`);
  });

  it("silently skips rows whose name or location is blank", () => {
    const result = parsed("Roofing\t  \tAustin\nPlumbing\tPipe Pros\t \t5125550100\nPainting\tBrush Co\tReno");
    expect(result.total).toBe(3);
    expect(result.skipped).toEqual([1, 2]);
    expect(result.errors).toEqual([]);
    expect(result.rows.map((r) => r.name)).toEqual(["Brush Co"]);
    expect(result.rows[0]!.row).toBe(3);
  });

  it("numbers rows among non-empty lines only", () => {
    const result = parsed("\n\nRoofing\tAcme\tAustin\n   \n\nPlumbing\tPipe Pros\tDenver\n");
    expect(result.total).toBe(2);
    expect(result.rows.map((r) => r.row)).toEqual([1, 2]);
  });

  it("handles CRLF line endings without leaving carriage returns in fields", () => {
    const result = parsed("Roofing\tAcme\tAustin\t5125550100\tinfo@acme.com\r\nPlumbing\tPipe Pros\tDenver\r\n");
    expect(result.total).toBe(2);
    expect(result.rows[0]!.email).toBe("info@acme.com");
    expect(result.rows[1]!.area).toBe("Denver");
    expect(JSON.stringify(result.rows)).not.toContain("\\r");
  });

  it("trims every field", () => {
    const [row] = parsed("  Lawn care \t  Green Co \t Boise, ID \t 208 555 0100 \t  hi@green.co ").rows;
    expect(row).toMatchObject({ description: "Lawn care", name: "Green Co", area: "Boise, ID", phone: "12085550100", email: "hi@green.co" });
  });

  it.each([[""], ["   "], ["\n\n  \n"], ["\t\t\r\n"]])("refuses empty or whitespace text %j", (text) => {
    expect(parseProspectPaste(text)).toEqual({ ok: false, error: EMPTY_SUBMIT });
  });

  it("says no valid data when the only lines are invisible characters", () => {
    expect(parseProspectPaste("\u200B\n\u200B\t\u200B")).toEqual({ ok: false, error: NO_VALID_DATA });
  });
});

describe("ProspectImportRequest", () => {
  it("defaults allowDuplicates to false", () => {
    expect(ProspectImportRequest.parse({ text: "a\tb\tc" })).toEqual({ text: "a\tb\tc", allowDuplicates: false });
  });

  it("rejects text over 2,000,000 characters and a missing text", () => {
    expect(ProspectImportRequest.safeParse({ text: "x".repeat(2_000_001) }).success).toBe(false);
    expect(ProspectImportRequest.safeParse({ text: "x".repeat(2_000_000) }).success).toBe(true);
    expect(ProspectImportRequest.safeParse({}).success).toBe(false);
  });
});

describe("isSameProspect", () => {
  const acme = { name: "Acme Roofing", phone: "15125550100", area: "Austin, TX" };

  it.each([
    ["same name and phone, different area", { name: " acme roofing ", phone: "(512) 555-0100", area: "Dallas" }, true],
    ["same name and area, different phone", { name: "ACME ROOFING", phone: "2145550100", area: "austin, tx " }, true],
    ["same name and area, no phones", { name: "Acme Roofing", phone: "", area: "Austin, TX" }, true],
    ["same name, different phone and area", { name: "Acme Roofing", phone: "2145550100", area: "Dallas" }, false],
    ["same name, both phones empty and areas differ", { name: "Acme Roofing", phone: null, area: "Dallas" }, false],
    ["different name, same phone and area", { name: "Acme Plumbing", phone: "15125550100", area: "Austin, TX" }, false],
  ])("%s → %s", (_label, other, expected) => {
    expect(isSameProspect(acme, other)).toBe(expected);
    expect(isSameProspect(other, acme)).toBe(expected);
  });

  it("does not treat two empty phones as a match", () => {
    expect(isSameProspect({ name: "A", phone: "", area: "X" }, { name: "A", phone: "", area: "Y" })).toBe(false);
  });
});

describe("partitionDuplicates", () => {
  const ids = () => {
    let n = 0;
    return () => `new-${++n}`;
  };

  it("skips rows matching a stored prospect (same name and phone, or same name and area)", () => {
    const rows = [
      { name: "Summit Roofing", phone: "15125551000", area: "Dallas, TX" },
      { name: "summit roofing ", phone: "", area: "austin, tx" },
      { name: "Summit Roofing", phone: "19995550000", area: "Houston, TX" },
    ];
    const existing = [{ id: "p1", name: "Summit Roofing", phone: "15125551000", area: "Austin, TX" }];
    const { accepted, duplicates } = partitionDuplicates(rows, existing, ids());
    expect(duplicates.map((d) => [d.row.area, d.existingId])).toEqual([
      ["Dallas, TX", "p1"],
      ["austin, tx", "p1"],
    ]);
    expect(accepted).toEqual([{ row: rows[2], id: "new-1" }]);
  });

  it("treats a repeat of an earlier row of the same paste as a duplicate of that row", () => {
    const rows = [
      { name: "Blue Ridge Plumbing", phone: "", area: "Denver, CO" },
      { name: "Blue Ridge Plumbing", phone: "", area: "Denver, CO" },
    ];
    const { accepted, duplicates } = partitionDuplicates(rows, [], ids());
    expect(accepted.map((a) => a.id)).toEqual(["new-1"]);
    expect(duplicates).toEqual([{ row: rows[1], existingId: "new-1" }]);
  });
});
