// The guard's risk check (issue 41): a value that would break Google's guidelines for representing a business (a name
// stuffed with a city, a service or "best"; a PO box or a virtual office as the address) or send the profile back to
// verification (a new address, a new primary category) is flagged before it is sent; a real name that has the city in
// it, a suite number or one more additional category is not.
import { describe, expect, it } from "vitest";
import type { GbpLocationFields } from "../../../worker/platform/providers/rules/gbp-location";
import { editRisks, type EditRisk, type EditRiskInput } from "../../../worker/features/gbp-guard/rules/risk";

const codes = (risks: EditRisk[]) => risks.map((r) => r.code);
const name = (title: string, over: Partial<EditRiskInput> = {}) => editRisks({ field: "title", current: { title: "Ridge Roofing" }, next: { title }, city: "Austin", ...over });

describe("the business name", () => {
  it("flags words beyond the real name, quoting them, and says why", () => {
    const risks = name("Ridge Roofing - Roof Repair & Replacement | Metal Roofs", { realName: "Ridge Roofing LLC" });
    expect(codes(risks)).toEqual(["name_keywords"]);
    expect(risks[0]!.field).toBe("title");
    expect(risks[0]!.message).toBe(
      'The name adds words that are not part of the business\'s real name ("Roof Repair & Replacement", "Metal Roofs"). Google suspends profiles whose name is stuffed with a city, a service or words like "best".',
    );
  });

  it("flags the city in the name, as an extra word too", () => {
    const risks = name("Ridge Roofing Austin", { realName: "Ridge Roofing" });
    expect(codes(risks)).toEqual(["name_keywords", "name_city"]);
    expect(risks[0]!.message).toContain('("Austin")');
    expect(risks[1]!.message).toBe('The name adds the city ("Austin"), which is not part of the business\'s real name. Google suspends profiles that add a location to the name.');
  });

  it("keeps a phrase together across linking words", () => {
    const risks = name("Joe's Plumbing and Drain Cleaning in Round Rock", { realName: "Joe's Plumbing", city: "Round Rock" });
    expect(codes(risks)).toEqual(["name_keywords", "name_city"]);
    expect(risks[0]!.message).toContain('("Drain Cleaning in Round Rock")');
    expect(risks[1]!.message).toContain('("Round Rock")');
  });

  it("splits the extra words at separators and raises each risk the name has", () => {
    const risks = name("Ridge Roofing: Top-Rated Roofers, Austin TX", { realName: "Ridge Roofing" });
    expect(codes(risks)).toEqual(["name_keywords", "name_city", "name_superlative"]);
    expect(risks[0]!.message).toContain('("Top-Rated Roofers", "Austin TX")');
    expect(risks[2]!.message).toContain('("Top-Rated")');
  });

  it("says so when an extra word is one of the business's services", () => {
    const [risk] = name("Joe's Plumbing Water Heater Repair", { realName: "Joe's Plumbing", services: ["Drain cleaning", "Water heater repair"] });
    expect(risk!.code).toBe("name_keywords");
    expect(risk!.message).toContain("including a service you offer");
  });

  it("takes the city from the address when no city is given", () => {
    expect(codes(editRisks({ field: "title", current: { storefrontAddress: { locality: "Pflugerville" } }, next: { title: "Pflugerville Plumbing Pros" } }))).toEqual(["name_city"]);
    expect(codes(editRisks({ field: "title", current: {}, next: { title: "Cedar Park Roof Repair", storefrontAddress: { locality: "Cedar Park" } }, realName: "Hill Country Roofing" }))).toContain("name_city");
  });

  it.each([
    ["Best Roofer in Austin", "Best"],
    ["#1 Ridge Roofing", "#1"],
    ["Ridge Roofing - Number One Roofer", "Number One"],
    ["Ridge Roofing | Top-Rated Roofers", "Top-Rated"],
    ["Cheapest Plumber Austin", "Cheapest"],
    ["Joe's Plumbing 24/7 Emergency Service", "24/7"],
  ])("flags the claim in %s", (title, claim) => {
    const risks = name(title, { city: null });
    expect(codes(risks)).toContain("name_superlative");
    expect(risks.find((r) => r.code === "name_superlative")!.message).toContain(`"${claim}"`);
  });

  it("checks only the city and the claims without the real name, and hedges on the city", () => {
    const risks = name("Austin Best Roofing Solutions");
    expect(codes(risks)).toEqual(["name_city", "name_superlative"]);
    expect(risks[0]!.message).toContain("Unless the city is part of the business's real name");
    expect(name("Ridge Roofing Solutions Roof Repair")).toEqual([]);
  });

  describe("does not flag", () => {
    it.each<[string, string, string | null]>([
      ["a real name with the city in it", "Austin Roofing Co", "Austin Roofing Co"],
      ["the real name without its legal suffix", "Ridge Roofing", "Ridge Roofing, L.L.C."],
      ["the real name with another legal suffix", "Ridge Roofing Inc.", "Ridge Roofing LLC"],
      ["the name a DBA trades under", "Joe's Plumbing", "Smith Holdings LLC dba Joe's Plumbing"],
      ["a leading \"The\" and an ampersand", "The Ridge Roofing & Gutters", "Ridge Roofing and Gutters"],
      ["a real name with \"Best\" in it", "Best Choice Roofing", "Best Choice Roofing LLC"],
      ["a real name with 24/7 in it", "24/7 Rooter Plumbing", "24/7 Rooter Plumbing Inc"],
      ["a city inside another word", "Austinite Roofing", null],
      ["the name cased differently", "RIDGE ROOFING", "Ridge Roofing"],
    ])("%s", (_, title, realName) => {
      expect(name(title, { realName })).toEqual([]);
    });

    it("an empty name", () => expect(name("  ", { realName: "Ridge Roofing" })).toEqual([]));
  });
});

describe("the address", () => {
  const AT_CONGRESS: GbpLocationFields = { storefrontAddress: { regionCode: "US", postalCode: "78745", administrativeArea: "TX", locality: "Austin", addressLines: ["4410 S Congress Ave", "Suite 300"] } };
  const moveTo = (addressLines: string[], current: GbpLocationFields = AT_CONGRESS) =>
    editRisks({ field: "storefrontAddress", current, next: { storefrontAddress: { ...current.storefrontAddress, addressLines } } });

  it("flags a move: Google may ask to verify again", () => {
    const risks = moveTo(["1200 Main St"]);
    expect(codes(risks)).toEqual(["address_change"]);
    expect(risks[0]!.message).toBe('The address changes to "1200 Main St, Austin, TX 78745". Google may ask to verify the business again, and edits may not go live until it is.');
    expect(moveTo(["4410 S Congress Ave", "Suite 400"]).map((r) => r.code)).toEqual(["address_change"]);
  });

  it("flags the address removed", () => {
    const risks = editRisks({ field: "storefrontAddress", current: AT_CONGRESS, next: {} });
    expect(codes(risks)).toEqual(["address_change"]);
    expect(risks[0]!.message).toContain("The address is removed.");
  });

  it("does not flag the same address written another way, or a suite number", () => {
    expect(moveTo(["4410 South Congress Avenue", "Ste. 300"])).toEqual([]);
    expect(moveTo(["4410 S Congress Ave #300"])).toEqual([]);
  });

  it.each(["PO Box 1420", "P.O. Box 1420", "p o box 1420", "Post Office Box 1420", "1200 Main St PMB 114"])("flags the PO box in %s", (line) => {
    const risks = moveTo([line]);
    expect(codes(risks)).toEqual(["address_change", "po_box"]);
    expect(risks[1]!.message).toContain(`("${line}")`);
  });

  it("flags a PO box even when the address is the one Google has", () => {
    const current: GbpLocationFields = { storefrontAddress: { locality: "Austin", addressLines: ["PO Box 1420"] } };
    expect(codes(editRisks({ field: "storefrontAddress", current, next: current }))).toEqual(["po_box"]);
  });

  it.each([
    ["Regus - Austin Domain, 11501 Alterra Pkwy", "Regus"],
    ["WeWork, 600 Congress Ave", "WeWork"],
    ["The UPS Store #4417, 5900 Balcones Dr", "UPS Store"],
    ["Virtual Office Suite 12, 100 Congress Ave", "Virtual Office"],
    ["Capital Factory Coworking, 701 Brazos St", "Coworking"],
    ["2028 E Ben White Blvd Mailbox 240", "Mailbox"],
  ])("flags the shared office in %s", (line, marker) => {
    const risks = moveTo([line]);
    expect(codes(risks)).toEqual(["address_change", "shared_office"]);
    expect(risks[1]!.message).toContain(`("${marker}")`);
  });

  it("does not flag postal words that are ordinary streets", () => {
    expect(codes(moveTo(["815 Post Office Rd", "Suite B-4"]))).toEqual(["address_change"]);
    expect(codes(moveTo(["1 Box Canyon Rd"]))).toEqual(["address_change"]);
  });
});

describe("the categories", () => {
  const ROOFER: GbpLocationFields = {
    categories: {
      primaryCategory: { name: "categories/gcid:roofing_contractor", displayName: "Roofing contractor" },
      additionalCategories: [{ name: "categories/gcid:gutter_cleaning_service", displayName: "Gutter cleaning service" }],
    },
  };

  it("flags a new primary category", () => {
    const next: GbpLocationFields = { categories: { primaryCategory: { name: "categories/gcid:gutter_cleaning_service", displayName: "Gutter cleaning service" }, additionalCategories: [{ name: "categories/gcid:roofing_contractor" }] } };
    const risks = editRisks({ field: "categories", current: ROOFER, next });
    expect(codes(risks)).toEqual(["category_change"]);
    expect(risks[0]!.message).toBe('The primary category changes from "Roofing contractor" to "Gutter cleaning service". Google may ask to verify the business again after a change of the main category.');
  });

  it("does not flag additional categories added or removed", () => {
    const more: GbpLocationFields = { categories: { ...ROOFER.categories, additionalCategories: [...ROOFER.categories!.additionalCategories!, { name: "categories/gcid:siding_contractor" }] } };
    expect(editRisks({ field: "categories", current: ROOFER, next: more })).toEqual([]);
    expect(editRisks({ field: "categories", current: ROOFER, next: { categories: { primaryCategory: ROOFER.categories!.primaryCategory } } })).toEqual([]);
  });
});

describe("other fields", () => {
  it.each(["phoneNumbers", "websiteUri", "regularHours", "profile"] as const)("%s carries no risk", (field) => {
    expect(editRisks({ field, current: {}, next: { phoneNumbers: { primaryPhone: "(512) 555-0100" }, websiteUri: "https://best-plumber-austin.example", profile: { description: "Best plumber in Austin, 24/7." } }, realName: "Joe's Plumbing", city: "Austin" })).toEqual([]);
  });
});
