// Tests the NAP normaliser: the traps agencies complain of (DBA names, suite numbers, phone formats) are never flagged,
// a call-tracking number is a warning with both numbers, and a really different address fails.
import { describe, it, expect } from "vitest";
import { itReturns } from "../each";
import {
  compareAddresses,
  compareNames,
  comparePhones,
  nameVariants,
  normalizeAddress,
  normalizeName,
  normalizePhone,
  phonesInText,
} from "../../../worker/domain/nap";

describe("normalizeName", () => {
  itReturns("%s → %s", normalizeName, [
    ["Smith Plumbing LLC", "smith plumbing"],
    ["Smith Plumbing, L.L.C.", "smith plumbing"],
    ["The Smith Plumbing Co.", "smith plumbing"],
    ["SMITH PLUMBING INC", "smith plumbing"],
    ["Smith & Sons Roofing, Inc.", "smith and sons roofing"],
    ["Smith and Sons Roofing Corp", "smith and sons roofing"],
    ["Joe's Heating & Air Ltd", "joes heating and air"],
    ["Café Électrique", "cafe electrique"],
    ["The Co", "co"],
  ]);

  it("splits a legal name from its DBA", () => {
    expect(nameVariants("Smith Holdings LLC dba Joe's Plumbing")).toEqual(["smith holdings", "joes plumbing"]);
    expect(nameVariants("Smith Holdings LLC d/b/a Joe's Plumbing")).toEqual(["smith holdings", "joes plumbing"]);
  });
});

describe("compareNames", () => {
  it.each([
    ["Smith Plumbing", "Smith Plumbing LLC"],
    ["smith plumbing llc", "SMITH PLUMBING, INC."],
    ["The Smith Plumbing Company", "Smith Plumbing"],
    ["Smith & Sons", "Smith and Sons"],
    ["Joe's Plumbing", "Smith Holdings LLC DBA Joe's Plumbing"],
    ["Smith Plumbing", "Smith Plumbing & Drain Cleaning"],
  ])("%s and %s agree", (site, listing) => {
    expect(compareNames(site, listing).verdict).toBe("pass");
  });

  it("warns, never fails, on a name that differs, with both names as evidence", () => {
    const result = compareNames("Bright Spark Electric", "Acme Roofing");
    expect(result.verdict).toBe("warn");
    expect(result.evidence).toContain("Bright Spark Electric");
    expect(result.evidence).toContain("Acme Roofing");
  });

  it.each([
    [null, "Acme"],
    ["", "Acme"],
    ["Acme", undefined],
  ])("is unknown when a side is missing (%s, %s)", (site, listing) => {
    const result = compareNames(site, listing);
    expect(result.verdict).toBe("unknown");
    expect(result.reason).toBeTruthy();
  });
});

describe("normalizeAddress", () => {
  itReturns("%s → %s", normalizeAddress, [
    ["123 Main Street, Suite 200, Springfield, IL 62701", "123 main st springfield il 62701"],
    ["123 Main St. Ste 200 Springfield IL 62701-1234", "123 main st springfield il 62701"],
    ["123 MAIN ST #200, SPRINGFIELD, ILLINOIS 62701, USA", "123 main st springfield il 62701"],
    ["123 Main St, Unit B-4, Springfield, IL 62701", "123 main st springfield il 62701"],
    ["45 North Oak Avenue, Apt. 3", "45 n oak ave"],
    ["45 Oak Ave Suite A", "45 oak ave"],
    ["45 Oak Ave, STE 100B", "45 oak ave"],
    ["12 Post Office Road", "12 post office rd"],
    ["8 Unit Street", "8 unit st"],
    ["9 Sunset Boulevard", "9 sunset blvd"],
    ["77 Pine Road", "77 pine rd"],
    ["5 Elm Drive", "5 elm dr"],
    ["8 Maple Lane", "8 maple ln"],
    ["2 Cedar Court", "2 cedar ct"],
    ["100 Lakeshore Parkway", "100 lakeshore pkwy"],
    ["4100 Highway 61 South", "4100 hwy 61 s"],
    ["1 Main St, Miami, FL 33101", "1 main st miami fl 33101"],
    ["12 West 5th Street, New York, New York 10001", "12 w 5th st ny ny 10001"],
  ]);
});

describe("compareAddresses", () => {
  it.each([
    ["123 Main Street, Suite 200, Springfield, IL 62701", "123 Main St, Springfield, IL 62701, USA"],
    ["123 Main St #200", "123 Main Street, Springfield, IL 62701"],
    ["45 N. Oak Ave., Springfield", "45 North Oak Avenue, Springfield, IL"],
    ["123 main st ste 5, springfield il 62701-0001", "123 MAIN STREET, SPRINGFIELD, IL 62701"],
    ["1 Main St, Miami, Florida 33101", "1 Main Street, Miami, FL 33101"],
  ])("%s and %s agree", (site, listing) => {
    expect(compareAddresses(site, listing).verdict).toBe("pass");
  });

  it.each([
    ["125 Main Street, Springfield, IL 62701", "123 Main Street, Springfield, IL 62701"],
    ["123 Main Street, Springfield, IL 62702", "123 Main Street, Springfield, IL 62701"],
    ["123 Oak Street, Springfield, IL 62701", "123 Main Street, Springfield, IL 62701"],
  ])("%s and %s are different addresses", (site, listing) => {
    const result = compareAddresses(site, listing);
    expect(result.verdict).toBe("fail");
    expect(result.evidence).toContain(site);
    expect(result.evidence).toContain(listing);
  });

  it("is unknown when the site states no address", () => {
    expect(compareAddresses(null, "123 Main St").verdict).toBe("unknown");
  });
});

describe("normalizePhone", () => {
  itReturns("%s → %s", normalizePhone, [
    ["(555) 123-4567", "5551234567"],
    ["555.123.4567", "5551234567"],
    ["555-123-4567", "5551234567"],
    ["+1 555 123 4567", "5551234567"],
    ["1-555-123-4567", "5551234567"],
    ["tel:+15551234567", "5551234567"],
    ["(555) 123-4567 ext. 12", "5551234567"],
    ["555-123-4567 x3", "5551234567"],
    ["+1 (555) 123-4567;ext=9", "5551234567"],
    ["123-4567", null],
    ["+44 20 7946 0958", null],
  ]);
});

describe("phonesInText", () => {
  it("finds each number once, whatever its format", () => {
    expect(phonesInText("Call (555) 123-4567 or 555.123.4567 today; after hours +1 555 987 6543.")).toEqual([
      "5551234567",
      "5559876543",
    ]);
  });

  it("does not read a ZIP code or a year as a phone", () => {
    expect(phonesInText("Springfield, IL 62701 · since 1998 · 24/7")).toEqual([]);
  });
});

describe("comparePhones", () => {
  it.each([
    [["(555) 123-4567"], "+1 555-123-4567"],
    [["tel:5551234567"], "(555) 123-4567"],
    [["555.123.4567 ext 2"], "555-123-4567"],
    [["(555) 999-0000", "(555) 123-4567"], "555-123-4567"],
  ])("%j and %s agree", (site, listing) => {
    expect(comparePhones(site, listing).verdict).toBe("pass");
  });

  it("reports a call-tracking number as a warning with both numbers, never a failure", () => {
    const result = comparePhones(["(555) 800-1111"], "(555) 123-4567");
    expect(result.verdict).toBe("warn");
    expect(result.evidence).toContain("(555) 800-1111");
    expect(result.evidence).toContain("(555) 123-4567");
  });

  it.each([
    [[], "(555) 123-4567"],
    [["call us"], "(555) 123-4567"],
    [["(555) 123-4567"], null],
  ])("is unknown when a side has no readable number (%j, %s)", (site, listing) => {
    expect(comparePhones(site, listing).verdict).toBe("unknown");
  });
});
