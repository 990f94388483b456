// Tests phone normalisation, tag, keyword and question derivation, and the search text.
import { describe, it, expect } from "vitest";
import { itReturns } from "../each";
import {
  deriveKeyword,
  deriveTag,
  normalizePhone,
  prospectSearchText,
  qualifyingQuestions,
  questionsFromText,
  questionsToText,
} from "../../../worker/features/prospects/rules/prospect";
import { CATEGORIES, TRADE_NOUNS } from "../../../worker/domain/categories";

describe("normalizePhone", () => {
  it.each([
    ["a formatted 10-digit US number gets a 1 prefix", "(512) 555-0100", "15125550100"],
    ["10 bare digits get a 1 prefix", "5125550100", "15125550100"],
    ["11 digits are kept", "1-512-555-0100", "15125550100"],
    ["12 or more digits are kept", "441234567890", "441234567890"],
    ["fewer than 10 digits get a 1 prefix", "555-0100", "15550100"],
    ["+39 at the start keeps the 39", "+39 333 123 4567", "393331234567"],
    ["digits starting with 39 are kept as they are", "39 06 1234 5678", "390612345678"],
    ["+39 elsewhere in the text prefixes 39", "06-1234-5678 (+39)", "39061234567839"],
    ["a 10-digit number starting with 39 is Italian, not US", "3912345678", "3912345678"],
    ["empty input stays empty", "", ""],
    ["text with no digits stays empty", "n/a", ""],
  ])("%s", (_label, raw, expected) => {
    expect(normalizePhone(raw)).toBe(expected);
  });
});

describe("deriveTag", () => {
  itReturns("%j → %s", deriveTag, [
    ["Roof repair and replacement", "Roofing"],
    ["Kitchen remodeling", "Remodeling"],
    ["Whole-home Renovation experts", "Remodeling"],
    ["24/7 PLUMBING", "Plumbing"],
    ["Licensed electrician", "Electrical Services"],
    ["HVAC installs", "HVAC"],
    ["Air conditioning service", "HVAC"],
    ["Heating specialists", "HVAC"],
    ["Landscape design and build", "Landscaping & Lawn Care"],
    ["Weekly lawn mowing", "Landscaping & Lawn Care"],
    ["Garden care", "Landscaping & Lawn Care"],
    ["Pest removal", "Pest Control"],
    ["Termite treatment", "Pest Control"],
    ["House cleaning", "Cleaning Services"],
    ["Interior painting", "Painting"],
    ["Hardwood floors", "Flooring"],
    ["Handyman for hire", "Handyman Services"],
    ["Fence repair", "Handyman Services"],
    ["Window installation", "Window & Door Services"],
    ["Garage door installs", "Window & Door Services"],
    ["Vinyl siding", "Siding & Gutter Services"],
    ["Gutter guards", "Siding & Gutter Services"],
    ["Custom deck builder", "Deck & Patio Construction"],
    ["Patio pavers", "Deck & Patio Construction"],
    ["Pool maintenance", "Pool Services"],
    ["Security cameras", "Home Security & Automation"],
    ["Smart home automation", "Home Security & Automation"],
    ["Appliance installs", "Appliance Repair"],
    ["Licensed contractor", "General Contracting"],
    ["Inspections for buyers", "Home Inspections"],
    ["Interior styling studio", "Interior Design"],
    ["Kitchen design studio", "Interior Design"],
    ["Dog walking", "Other"],
    ["", "Other"],
  ]);

  it("takes the first rule in spec order when several specific trades match", () => {
    expect(deriveTag("Roof and gutter cleaning")).toBe("Roofing");
    expect(deriveTag("Electric heating")).toBe("Electrical Services");
  });

  it("lets a specific trade win over a generic 'clean' or 'repair' (issue 26)", () => {
    expect(deriveTag("Appliance repair")).toBe("Appliance Repair");
    expect(deriveTag("Gutter cleaning")).toBe("Siding & Gutter Services");
    expect(deriveTag("Pool cleaning")).toBe("Pool Services");
    expect(deriveTag("Garage door repair")).toBe("Window & Door Services");
    expect(deriveTag("Carpet cleaning")).toBe("Cleaning Services");
    expect(deriveTag("Small repairs")).toBe("Handyman Services");
  });
});

describe("deriveKeyword", () => {
  it.each([
    ["Roofing company", "roofer"],
    ["Emergency plumbing", "plumber"],
    ["HVAC service", "hvac contractor"],
    ["Air conditioning repair", "hvac contractor"],
    ["Heating oil delivery", "hvac contractor"],
    ["Landscaping and hardscape", "landscaper"],
    ["Lawn mowing", "landscaper"],
    ["Garden design", "landscaper"],
    ["Electrical contractor", "electrician"],
    ["Carpet cleaning", "cleaning service"],
    ["House painting", "painter"],
  ])("%j uses the trade %j", (description, trade) => {
    expect(deriveKeyword(description, "Austin, TX")).toBe(`${trade} in austin`);
  });

  it("gives every category its trade noun (issue 26)", () => {
    expect(deriveKeyword("Appliance repair", "Austin, TX")).toBe("appliance repair technician in austin");
    expect(deriveKeyword("Gutter cleaning", "Austin, TX")).toBe("gutter cleaner in austin");
    expect(deriveKeyword("Vinyl siding", "Austin")).toBe("siding contractor in austin");
    expect(deriveKeyword("Pool cleaning", "Austin")).toBe("pool service in austin");
    expect(deriveKeyword("Licensed contractor", "Austin")).toBe("general contractor in austin");
    expect(deriveKeyword("Termite treatment", "Austin")).toBe("pest control service in austin");
    expect(deriveKeyword("Buyer inspections", "Austin")).toBe("home inspector in austin");
  });

  it.each(CATEGORIES.filter((c) => c !== "Other").map((c) => [c]))(
    "the category %j as a description gives its own trade noun",
    (category) => {
      const trade = deriveKeyword(category, "Austin").replace(/ in austin$/, "");
      expect(deriveTag(category)).toBe(category);
      expect(trade).toBe(category === "Siding & Gutter Services" ? "gutter cleaner" : TRADE_NOUNS[category as Exclude<typeof category, "Other">]);
    },
  );

  it("falls back to the description's first word, letters only, lowercased", () => {
    expect(deriveKeyword("Locksmith-24/7 services", "Denver, CO")).toBe("locksmith in denver");
    expect(deriveKeyword("  Moving company", "Salt Lake City, UT")).toBe("moving in salt lake city");
    expect(deriveKeyword("Déménagement rapide", "Montréal, QC")).toBe("déménagement in montréal");
  });

  it("uses 'business' when the first word has no letters", () => {
    expect(deriveKeyword("24/7 service", "Boise, ID")).toBe("business in boise");
    expect(deriveKeyword("", "Boise")).toBe("business in boise");
  });

  it("takes only the part of the area before the first comma, trimmed", () => {
    expect(deriveKeyword("Roofing", "  New York , NY, USA")).toBe("roofer in new york");
    expect(deriveKeyword("Roofing", "Miami")).toBe("roofer in miami");
  });

  it("matches the trade case-insensitively, in the spec's order", () => {
    expect(deriveKeyword("ROOF CLEANING", "Reno")).toBe("roofer in reno");
    expect(deriveKeyword("Electric heating", "Reno")).toBe("hvac contractor in reno");
  });
});

describe("qualifyingQuestions", () => {
  it("always opens with the location question", () => {
    expect(qualifyingQuestions("Roofing", "Austin, TX")[0]).toBe("Is your project located in or near Austin, TX?");
  });

  it.each([
    ["Roof replacement", /roofing work/i, /budget/i],
    ["Plumbing repairs", /plumbing issue/i, /urgent/i],
    ["HVAC installs", /repair.*maintenance.*installation/i, /when/i],
    ["Air conditioning", /repair.*maintenance.*installation/i, /when/i],
    ["Lawn care", /landscaping service/i, /how large|property/i],
    ["Dog grooming", /specific services/i, /completed/i],
  ])("%j asks two trade questions", (description, second, third) => {
    const questions = qualifyingQuestions(description, "Reno");
    expect(questions).toHaveLength(3);
    expect(questions[1]).toMatch(second);
    expect(questions[2]).toMatch(third);
    for (const question of questions) expect(question.endsWith("?")).toBe(true);
  });

  it("gives different questions to different trades", () => {
    const roofing = qualifyingQuestions("Roofing", "Reno").slice(1);
    const plumbing = qualifyingQuestions("Plumbing", "Reno").slice(1);
    const other = qualifyingQuestions("Bakery", "Reno").slice(1);
    expect(roofing).not.toEqual(plumbing);
    expect(plumbing).not.toEqual(other);
  });

  it("keeps the trade questions free of commas", () => {
    for (const description of ["roof", "plumb", "hvac", "lawn", "other"]) {
      for (const question of qualifyingQuestions(description, "Reno").slice(1)) {
        expect(question).not.toContain(",");
      }
    }
  });
});

describe("questionsToText / questionsFromText", () => {
  it("joins with a bare comma", () => {
    expect(questionsToText(["A?", "B?", "C?"])).toBe("A?,B?,C?");
  });

  it("round-trips questions even when the area has a comma", () => {
    for (const description of ["Roofing", "Plumbing", "HVAC", "Lawn care", "Bakery"]) {
      const questions = qualifyingQuestions(description, "Austin, TX, USA");
      expect(questionsFromText(questionsToText(questions))).toEqual(questions);
    }
  });

  it("splits plain comma text and ignores blanks", () => {
    expect(questionsFromText("one,two, three,")).toEqual(["one", "two", "three"]);
    expect(questionsFromText("")).toEqual([]);
    expect(questionsFromText(null)).toEqual([]);
  });
});

describe("prospectSearchText", () => {
  it("lowercases the eight fields in order, one per line, nulls as empty", () => {
    const text = prospectSearchText({
      name: "Acme Roofing",
      area: "Austin, TX",
      keyword: "roofer in austin",
      tag: "Roofing",
      description: "Roof REPAIR",
      company_name: null,
      phone: "15125550100",
      email: "Info@Acme.com",
    });
    expect(text).toBe(
      ["acme roofing", "austin, tx", "roofer in austin", "roofing", "roof repair", "", "15125550100", "info@acme.com"].join("\n"),
    );
  });
});
