// The widget's pure rules (issue 21): which embedding origins are accepted and how they are written, and the
// submission schema built from the fields a widget asks.
import { describe, expect, it } from "vitest";
import { itReturns } from "../each";
import { leadInput, normalizeOrigin, WidgetCreate } from "../../../worker/features/widgets/rules/widgets";

describe("normalizeOrigin", () => {
  itReturns("%j → %j", normalizeOrigin, [
    ["https://www.example.com", "https://www.example.com"],
    ["HTTPS://WWW.Example.com/", "https://www.example.com"],
    ["  http://127.0.0.1:8080  ", "http://127.0.0.1:8080"],
    ["https://example.com:443", "https://example.com"],
    ["https://example.com/contact", null],
    ["https://example.com/?a=1", null],
    ["https://example.com/#top", null],
    ["https://user:pw@example.com", null],
    ["example.com", null],
    ["ftp://example.com", null],
    ["javascript:alert(1)", null],
    ["", null],
  ]);

  it("keeps a widget's origins once each, and refuses the list when one is not an origin", () => {
    expect(WidgetCreate.parse({ name: "W", origins: ["https://a.test", "https://A.test/"] }).origins).toEqual(["https://a.test"]);
    expect(WidgetCreate.safeParse({ name: "W", origins: ["https://a.test/path"] }).success).toBe(false);
  });
});

describe("leadInput", () => {
  const base = { businessName: "Bright Plumbing", location: "Austin, TX", email: "owner@bright.test" };
  const cases: [string, { askWebsite: boolean; askPhone: boolean; consentText: string }, Record<string, unknown>, boolean][] = [
    ["the three required fields, no consent asked", { askWebsite: false, askPhone: false, consentText: "" }, base, true],
    ["a missing email", { askWebsite: false, askPhone: false, consentText: "" }, { ...base, email: "" }, false],
    ["a website the widget does not ask", { askWebsite: false, askPhone: false, consentText: "" }, { ...base, website: "bright.test" }, false],
    ["a website it asks, written without a scheme", { askWebsite: true, askPhone: false, consentText: "" }, { ...base, website: "bright.example" }, true],
    ["a phone it does not ask", { askWebsite: false, askPhone: false, consentText: "" }, { ...base, phone: "512 555 0100" }, false],
    ["consent asked and not given", { askWebsite: false, askPhone: false, consentText: "I agree" }, base, false],
    ["consent asked and given", { askWebsite: false, askPhone: false, consentText: "I agree" }, { ...base, consent: true }, true],
    ["a control character in the name", { askWebsite: false, askPhone: false, consentText: "" }, { ...base, businessName: "Bright\u0000" }, false],
  ];
  it.each(cases)("%s", (_name, widget, body, ok) => {
    expect(leadInput(widget).safeParse(body).success).toBe(ok);
  });

  it("adds https:// to a bare website", () => {
    expect(leadInput({ askWebsite: true, askPhone: false, consentText: "" }).parse({ ...base, website: "bright.example" }).website).toBe("https://bright.example");
  });
});
