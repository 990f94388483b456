// Tests the category list: its length, order and schema.
import { describe, it, expect } from "vitest";
import { CATEGORIES, CategorySchema, isCategory } from "../../../worker/domain/categories";

describe("CATEGORIES", () => {
  it("holds the 21 categories in the spec's order, Other last", () => {
    expect(CATEGORIES).toHaveLength(21);
    expect(CATEGORIES[0]).toBe("Roofing");
    expect(CATEGORIES[4]).toBe("HVAC");
    expect(CATEGORIES[5]).toBe("Landscaping & Lawn Care");
    expect(CATEGORIES[19]).toBe("Interior Design");
    expect(CATEGORIES[20]).toBe("Other");
    expect(new Set(CATEGORIES).size).toBe(21);
  });

  it("accepts a listed category and rejects anything else", () => {
    expect(CategorySchema.parse("Pool Services")).toBe("Pool Services");
    expect(CategorySchema.safeParse("pool services").success).toBe(false);
    expect(CategorySchema.safeParse("Landscaping").success).toBe(false);
    expect(isCategory("Appliance Repair")).toBe(true);
    expect(isCategory("Carpentry")).toBe(false);
    expect(isCategory(null)).toBe(false);
  });
});
