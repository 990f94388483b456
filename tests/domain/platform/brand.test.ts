// The brand's pure rules (issue 30): WCAG contrast, the nearest readable accent (darkened in HSL until 4.5:1 against
// white), the PUT body's schema, the From header and the product name's replacement.
import { describe, expect, it } from "vitest";
import { accentContrast, brandText, contrastRatio, isReadableAccent, mailFromHeader, nearestReadableAccent, normalizeHex } from "../../../worker/platform/brand/rules/brand";
import { BrandUpdate } from "../../../worker/features/brand/rules/brand-update";

describe("contrastRatio", () => {
  it("is 21 for black on white and 1 for a colour on itself", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#1d4ed8", "#1d4ed8")).toBeCloseTo(1, 5);
  });
  it("matches WCAG's published figures", () => {
    // #767676 is the lightest grey that passes AA on white (4.54:1); #777777 fails (4.48:1).
    expect(accentContrast("#767676")).toBeCloseTo(4.54, 2);
    expect(isReadableAccent("#767676")).toBe(true);
    expect(isReadableAccent("#777777")).toBe(false);
  });
});

describe("nearestReadableAccent", () => {
  it("keeps a colour that already passes", () => {
    expect(nearestReadableAccent("#1D4ED8")).toBe("#1d4ed8");
  });
  it.each(["#f2a120", "#ffff00", "#22c55e", "#ffffff", "#ff6b6b", "#7dd3fc", "#abc"])("darkens %s until it passes, keeping its hue", (hex) => {
    const out = nearestReadableAccent(hex);
    expect(isReadableAccent(out)).toBe(true);
    // The nearest: one lightness step lighter would fail again (unless it is the colour asked for itself).
    expect(out).toMatch(/^#[0-9a-f]{6}$/);
    expect(out).not.toBe(normalizeHex(hex));
  });
  it("answers the nearest passing lightness, not just any dark colour", () => {
    // Amber #f2a120 (hsl 37°, 89%, 54%) first passes at 31% lightness.
    const out = nearestReadableAccent("#f2a120");
    expect(accentContrast(out)).toBeGreaterThanOrEqual(4.5);
    expect(accentContrast(out)).toBeLessThan(4.9);
  });
  it("refuses what is not a colour", () => {
    expect(() => nearestReadableAccent("tomato")).toThrow();
  });
});

describe("BrandUpdate", () => {
  it("normalises the fields and clears blanks", () => {
    const out = BrandUpdate.parse({ name: " Acme Growth ", accentColor: "#ABC", website: "acme.test", supportEmail: "Help@Acme.TEST", supportPhone: "", footerLine: "  " });
    expect(out).toEqual({ name: "Acme Growth", accentColor: "#aabbcc", website: "https://acme.test", supportEmail: "help@acme.test", supportPhone: null, footerLine: null });
  });
  it.each([
    [{ name: "" }, "name"],
    [{ name: "A", accentColor: "red" }, "accentColor"],
    [{ name: "A", website: "not a site" }, "website"],
    [{ name: "A", supportEmail: "nope" }, "supportEmail"],
    [{ name: "A", mailSenderName: 'Acme" <evil@x.test>' }, "mailSenderName"],
    [{ name: "A", extra: 1 }, ""],
  ])("refuses %j", (input, field) => {
    const r = BrandUpdate.safeParse(input);
    expect(r.success).toBe(false);
    if (field) expect(r.error!.issues.some((i) => i.path[0] === field)).toBe(true);
  });
});

describe("mailFromHeader", () => {
  it("puts the brand's sender name on the configured address", () => {
    expect(mailFromHeader("Porchlight <no-reply@mail.acme.test>", "Acme Growth")).toBe("Acme Growth <no-reply@mail.acme.test>");
    expect(mailFromHeader("no-reply@mail.acme.test", "Acme Growth")).toBe("Acme Growth <no-reply@mail.acme.test>");
  });
});

describe("brandText", () => {
  it("replaces every Porchlight with the brand's name", () => {
    expect(brandText("Porchlight home · Porchlight", "Acme")).toBe("Acme home · Acme");
  });
});
