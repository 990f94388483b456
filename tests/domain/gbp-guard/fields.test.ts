// The guard's field rules (issue 41): each guarded field as a person reads it, and which differences are changes
// (a new number, suite or opening time) and which are not (a phone's format, a trailing slash, "Ste" vs "Suite",
// hours in another order, the same categories listed differently).
import { describe, expect, it } from "vitest";
import type { GbpLocationFields, GbpTimePeriod, GuardedField } from "../../../worker/platform/providers/rules/gbp-location";
import { categoryLabel, changedFields, fieldText, pickFields, sameFieldValue } from "../../../worker/features/gbp-guard/rules/fields";

const day = (openDay: string, open: [number, number?], close: [number, number?], closeDay = openDay): GbpTimePeriod => ({
  openDay,
  openTime: { hours: open[0], ...(open[1] ? { minutes: open[1] } : {}) },
  closeDay,
  closeTime: { hours: close[0], ...(close[1] ? { minutes: close[1] } : {}) },
});
const WEEKDAYS = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY"];

const RIDGE: GbpLocationFields = {
  title: "Ridge Roofing",
  phoneNumbers: { primaryPhone: "(512) 555-0142", additionalPhones: ["(512) 555-0199"] },
  websiteUri: "https://ridgeroofing.example/",
  storefrontAddress: { regionCode: "US", postalCode: "78745", administrativeArea: "TX", locality: "Austin", addressLines: ["4410 S Congress Ave", "Suite 300"] },
  regularHours: { periods: [...WEEKDAYS.map((d) => day(d, [8], [17])), day("SATURDAY", [9], [13])] },
  categories: {
    primaryCategory: { name: "categories/gcid:roofing_contractor", displayName: "Roofing contractor" },
    additionalCategories: [{ name: "categories/gcid:gutter_cleaning_service", displayName: "Gutter cleaning service" }],
  },
  profile: { description: "Family-owned roofer serving Austin since 2009: roof repair, replacement and storm damage inspections." },
};

describe("fieldText", () => {
  it("reads each field as a person would", () => {
    expect(fieldText("title", RIDGE)).toBe("Ridge Roofing");
    expect(fieldText("phoneNumbers", RIDGE)).toBe("(512) 555-0142, (512) 555-0199");
    expect(fieldText("websiteUri", RIDGE)).toBe("https://ridgeroofing.example/");
    expect(fieldText("storefrontAddress", RIDGE)).toBe("4410 S Congress Ave, Suite 300, Austin, TX 78745");
    expect(fieldText("regularHours", RIDGE)).toBe("Mon–Fri 8:00 AM–5:00 PM; Sat 9:00 AM–1:00 PM");
    expect(fieldText("categories", RIDGE)).toBe("Roofing contractor, Gutter cleaning service");
    expect(fieldText("profile", RIDGE)).toBe(RIDGE.profile!.description);
  });

  it("gives an absent value as an empty text", () => {
    for (const field of ["title", "phoneNumbers", "websiteUri", "storefrontAddress", "regularHours", "categories", "profile"] as const) {
      expect(fieldText(field, {})).toBe("");
    }
    expect(fieldText("phoneNumbers", { phoneNumbers: {} })).toBe("");
    expect(fieldText("regularHours", { regularHours: {} })).toBe("");
  });

  it("reads a partial address without stray commas", () => {
    expect(fieldText("storefrontAddress", { storefrontAddress: { locality: "Round Rock", administrativeArea: "TX" } })).toBe("Round Rock, TX");
    expect(fieldText("storefrontAddress", { storefrontAddress: { addressLines: ["1200 Main St"], postalCode: "78701" } })).toBe("1200 Main St, 78701");
  });

  it("reads a category without a display name from its id", () => {
    expect(categoryLabel({ name: "categories/gcid:plumber" })).toBe("Plumber");
    expect(fieldText("categories", { categories: { primaryCategory: { name: "categories/gcid:water_heater_installation_service" }, additionalCategories: [{ name: "categories/gcid:drainage_service", displayName: "Drainage service" }] } })).toBe(
      "Water heater installation service, Drainage service",
    );
  });

  describe("hours", () => {
    const hours = (periods: GbpTimePeriod[]) => fieldText("regularHours", { regularHours: { periods } });

    it("groups the days that share their hours, whatever order Google lists them in", () => {
      expect(hours([day("SATURDAY", [9], [13]), ...[...WEEKDAYS].reverse().map((d) => day(d, [8], [17]))])).toBe("Mon–Fri 8:00 AM–5:00 PM; Sat 9:00 AM–1:00 PM");
    });

    it("leaves closed days out and names days that are not next to each other", () => {
      expect(hours(["MONDAY", "WEDNESDAY", "FRIDAY"].map((d) => day(d, [7, 30], [16])))).toBe("Mon, Wed, Fri 7:30 AM–4:00 PM");
      expect(hours([day("SATURDAY", [10], [14]), day("SUNDAY", [10], [14])])).toBe("Sat, Sun 10:00 AM–2:00 PM");
    });

    it("shows a split day (a lunch break) as two spans on one line", () => {
      expect(hours([day("MONDAY", [13], [17]), day("MONDAY", [8], [12]), day("TUESDAY", [8], [12]), day("TUESDAY", [13], [17])])).toBe("Mon, Tue 8:00 AM–12:00 PM, 1:00 PM–5:00 PM");
    });

    it("reads a 24-hour emergency plumber either way Google writes it", () => {
      const all = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"];
      expect(hours(all.map((d) => ({ openDay: d, openTime: {}, closeDay: d, closeTime: { hours: 24 } })))).toBe("Mon–Sun open 24 hours");
      expect(hours(all.map((d, i) => ({ openDay: d, openTime: {}, closeDay: all[(i + 1) % 7]!, closeTime: {} })))).toBe("Mon–Sun open 24 hours");
    });

    it("shows a midnight close as 12:00 AM and a night past midnight on the day it opens", () => {
      expect(hours([day("FRIDAY", [18], [0], "SATURDAY")])).toBe("Fri 6:00 PM–12:00 AM");
      expect(hours([day("FRIDAY", [18], [24])])).toBe("Fri 6:00 PM–12:00 AM");
      expect(hours([day("SUNDAY", [20], [2], "MONDAY")])).toBe("Sun 8:00 PM–2:00 AM");
      expect(hours([day("MONDAY", [12], [12, 30])])).toBe("Mon 12:00 PM–12:30 PM");
    });

    it("reads a span of several days day by day", () => {
      expect(hours([{ openDay: "FRIDAY", openTime: { hours: 8 }, closeDay: "SUNDAY", closeTime: { hours: 17 } }])).toBe("Fri 8:00 AM–12:00 AM; Sat open 24 hours; Sun 12:00 AM–5:00 PM");
    });
  });
});

describe("sameFieldValue", () => {
  const withFields = (over: GbpLocationFields): GbpLocationFields => ({ ...RIDGE, ...over });

  it.each<[string, GbpLocationFields, GuardedField]>([
    ["a phone written another way", withFields({ phoneNumbers: { primaryPhone: "+1 512-555-0142", additionalPhones: ["512.555.0199"] } }), "phoneNumbers"],
    ["the additional phones in another order", withFields({ phoneNumbers: { primaryPhone: "512 555 0142", additionalPhones: ["(512) 555-0199"] } }), "phoneNumbers"],
    ["a website without its trailing slash and with a capital host", withFields({ websiteUri: "https://RidgeRoofing.example" }), "websiteUri"],
    ["the name with extra spaces", withFields({ title: "  Ridge  Roofing " }), "title"],
    ["the address with \"Ste\" for \"Suite\" and \"Avenue\" for \"Ave\"", withFields({ storefrontAddress: { regionCode: "US", postalCode: "78745", administrativeArea: "Texas", locality: "Austin", addressLines: ["4410 South Congress Avenue", "Ste 300"] } }), "storefrontAddress"],
    ["the address with \"#300\"", withFields({ storefrontAddress: { regionCode: "US", postalCode: "78745", administrativeArea: "TX", locality: "Austin", addressLines: ["4410 S Congress Ave #300"] } }), "storefrontAddress"],
    ["the hours in another order", withFields({ regularHours: { periods: [...RIDGE.regularHours!.periods!].reverse() } }), "regularHours"],
    ["the categories named without display names", withFields({ categories: { primaryCategory: { name: "categories/gcid:roofing_contractor" }, additionalCategories: [{ name: "categories/gcid:gutter_cleaning_service" }] } }), "categories"],
    ["the description with its lines wrapped", withFields({ profile: { description: "Family-owned roofer serving Austin since 2009:\nroof repair, replacement and storm damage inspections.  " } }), "profile"],
  ])("is the same: %s", (_, other, field) => {
    expect(sameFieldValue(field, RIDGE, other)).toBe(true);
    expect(changedFields(RIDGE, other)).toEqual([]);
  });

  it.each<[string, GbpLocationFields, GuardedField]>([
    ["a call-tracking number as the primary", { phoneNumbers: { primaryPhone: "(512) 555-0100", additionalPhones: ["(512) 555-0199"] } }, "phoneNumbers"],
    ["an additional number dropped", { phoneNumbers: { primaryPhone: "(512) 555-0142" } }, "phoneNumbers"],
    ["a website on another path", { websiteUri: "https://ridgeroofing.example/austin" }, "websiteUri"],
    ["a website on http", { websiteUri: "http://ridgeroofing.example/" }, "websiteUri"],
    ["the name in other words", { title: "Ridge Roofing & Gutters" }, "title"],
    ["another suite", { storefrontAddress: { ...RIDGE.storefrontAddress, addressLines: ["4410 S Congress Ave", "Suite 400"] } }, "storefrontAddress"],
    ["another street", { storefrontAddress: { ...RIDGE.storefrontAddress, addressLines: ["1200 Main St", "Suite 300"] } }, "storefrontAddress"],
    ["Saturday closing later", { regularHours: { periods: [...WEEKDAYS.map((d) => day(d, [8], [17])), day("SATURDAY", [9], [15])] } }, "regularHours"],
    ["Saturday closed", { regularHours: { periods: WEEKDAYS.map((d) => day(d, [8], [17])) } }, "regularHours"],
    ["another primary category", { categories: { primaryCategory: { name: "categories/gcid:gutter_cleaning_service" }, additionalCategories: [{ name: "categories/gcid:roofing_contractor" }] } }, "categories"],
    ["an additional category added", { categories: { ...RIDGE.categories, additionalCategories: [...RIDGE.categories!.additionalCategories!, { name: "categories/gcid:siding_contractor" }] } }, "categories"],
    ["a new description", { profile: { description: "Austin's roofers." } }, "profile"],
  ])("differs: %s", (_, other, field) => {
    expect(sameFieldValue(field, RIDGE, { ...RIDGE, ...other })).toBe(false);
    expect(changedFields(RIDGE, { ...RIDGE, ...other })).toEqual([field]);
  });

  it("takes an absent value and an empty one as the same", () => {
    expect(sameFieldValue("profile", {}, { profile: { description: " " } })).toBe(true);
    expect(sameFieldValue("phoneNumbers", {}, { phoneNumbers: {} })).toBe(true);
    expect(sameFieldValue("regularHours", { regularHours: {} }, {})).toBe(true);
    expect(sameFieldValue("storefrontAddress", {}, { storefrontAddress: {} })).toBe(true);
  });

  it("takes 24:00 on Monday as 0:00 on Tuesday", () => {
    const a: GbpLocationFields = { regularHours: { periods: [{ openDay: "MONDAY", openTime: {}, closeDay: "MONDAY", closeTime: { hours: 24 } }] } };
    const b: GbpLocationFields = { regularHours: { periods: [{ openDay: "MONDAY", closeDay: "TUESDAY" }] } };
    expect(sameFieldValue("regularHours", a, b)).toBe(true);
  });
});

describe("changedFields", () => {
  it("lists the changed fields in the guard's order", () => {
    const after: GbpLocationFields = { ...RIDGE, profile: { description: "Roofers." }, title: "Ridge Roofing and Gutters", websiteUri: "https://ridgeroofing.example" };
    expect(changedFields(RIDGE, after)).toEqual(["title", "profile"]);
  });

  it("looks only at the fields `after` has", () => {
    expect(changedFields(RIDGE, { title: "Ridge Roofing" })).toEqual([]);
    expect(changedFields(RIDGE, { phoneNumbers: { primaryPhone: "(512) 555-0100" } })).toEqual(["phoneNumbers"]);
    expect(changedFields({}, { title: "Ridge Roofing" })).toEqual(["title"]);
  });
});

describe("pickFields", () => {
  it("keeps only the named fields that are there", () => {
    expect(pickFields(RIDGE, ["title", "websiteUri"])).toEqual({ title: "Ridge Roofing", websiteUri: "https://ridgeroofing.example/" });
    expect(pickFields({ title: "Ridge Roofing" }, ["phoneNumbers"])).toEqual({});
    expect(pickFields(RIDGE, [])).toEqual({});
    expect(JSON.stringify(pickFields(RIDGE, ["profile"]))).toBe(JSON.stringify({ profile: RIDGE.profile }));
  });
});
