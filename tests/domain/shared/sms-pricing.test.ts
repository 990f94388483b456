// Text messages against SMS pumping (issue 39): a number's country (+1 split into the US, Canada and the Caribbean),
// where a business may text (its own country unless the operator allows more), the price per country from the table,
// and segments as carriers count them (GSM-7 with its extension table, UCS-2, 153/67 a part when concatenated).
import { describe, expect, it } from "vitest";
import { actualMicro, estimateMicro, toMicro } from "../../../worker/domain/metering";
import { allowedSmsCountries, businessSmsCountry, maySmsTo, parseSmsCountries, SMS_COUNTRIES, smsCountryOf, smsEncoding, smsSegments } from "../../../worker/domain/sms-pricing";

describe("a number's country", () => {
  it("tells the US, Canada and the Caribbean apart under +1, and reads other calling codes", () => {
    expect(smsCountryOf("+15125550142")).toBe("US");
    expect(smsCountryOf("+14165550142")).toBe("CA");
    expect(smsCountryOf("+18765550142")).toBeNull(); // Jamaica: a classic pumping target
    expect(smsCountryOf("+12425550142")).toBeNull(); // the Bahamas
    expect(smsCountryOf("+442079460958")).toBe("GB");
    expect(smsCountryOf("+353851234567")).toBe("IE");
    expect(smsCountryOf("+61412345678")).toBe("AU");
    expect(smsCountryOf("+88212345678")).toBeNull(); // international networks: not priced, never texted
    expect(smsCountryOf("5125550142")).toBeNull();
  });
  it("takes the business's country from its phone, the US when it has none", () => {
    expect(businessSmsCountry("(512) 555-0142")).toBe("US");
    expect(businessSmsCountry("+44 20 7946 0958")).toBe("GB");
    expect(businessSmsCountry("")).toBe("US");
    expect(businessSmsCountry(null)).toBe("US");
  });
});

describe("where a business may text", () => {
  it("its own country only, unless the operator allows more", () => {
    const own = allowedSmsCountries("US", []);
    expect(maySmsTo("+15125550142", own)).toBe(true);
    expect(maySmsTo("+442079460958", own)).toBe(false);
    expect(maySmsTo("+14165550142", own)).toBe(false);
    expect(maySmsTo("+18765550142", own)).toBe(false);
    const more = allowedSmsCountries("US", parseSmsCountries(" ca, gb;XX "));
    expect([...more].sort()).toEqual(["CA", "GB", "US"]);
    expect(maySmsTo("+442079460958", more)).toBe(true);
    expect(maySmsTo("+18765550142", more)).toBe(false);
  });
});

describe("the meter's price per country", () => {
  it("charges a segment at the destination's price from the table", () => {
    expect(estimateMicro({ kind: "sms", segments: 2, country: "US" })).toBe(toMicro(2 * SMS_COUNTRIES.US.usdPerSegment));
    expect(estimateMicro({ kind: "sms", segments: 1, country: "GB" })).toBe(toMicro(SMS_COUNTRIES.GB.usdPerSegment));
    expect(actualMicro({ kind: "sms", segments: 3, country: "NZ" })).toBe(toMicro(3 * SMS_COUNTRIES.NZ.usdPerSegment));
    expect(SMS_COUNTRIES.NZ.usdPerSegment).toBeGreaterThan(SMS_COUNTRIES.US.usdPerSegment);
  });
});

describe("segments as carriers count them", () => {
  it("GSM-7: 160 alone, then 153 a part", () => {
    expect(smsEncoding("Hi Ann, thanks!")).toBe("GSM-7");
    expect(smsSegments("a".repeat(160))).toBe(1);
    expect(smsSegments("a".repeat(161))).toBe(2);
    expect(smsSegments("a".repeat(306))).toBe(2);
    expect(smsSegments("a".repeat(307))).toBe(3);
  });
  it("counts an extension character (€ [ ] { } ~ ^ | \\) as two septets, never split across parts", () => {
    expect(smsEncoding("Price: 5€ [ok]")).toBe("GSM-7");
    expect(smsSegments("€".repeat(80))).toBe(1);
    expect(smsSegments("€".repeat(81))).toBe(2);
    // 152 septets, then a € (2 septets) does not fit in the first part's 153: it opens the second.
    expect(smsSegments(`${"a".repeat(152)}€${"a".repeat(151)}`)).toBe(2);
    expect(smsSegments(`${"a".repeat(152)}€${"a".repeat(152)}`)).toBe(3);
  });
  it("UCS-2 for any other character: 70 alone, then 67 a part; an emoji takes two units, never split", () => {
    expect(smsEncoding("Merci, à bientôt ô")).toBe("UCS-2");
    expect(smsEncoding("Thanks ’")).toBe("UCS-2"); // a typographic apostrophe is not GSM-7
    expect(smsSegments("ô".repeat(70))).toBe(1);
    expect(smsSegments("ô".repeat(71))).toBe(2);
    expect(smsSegments("ô".repeat(134))).toBe(2);
    expect(smsSegments("ô".repeat(135))).toBe(3);
    expect(smsSegments(`${"a".repeat(69)}😀`)).toBe(2);
    // 66 units then an emoji (2): it goes whole into the second part.
    expect(smsSegments(`${"ô".repeat(66)}😀${"ô".repeat(65)}`)).toBe(2);
    expect(smsSegments(`${"ô".repeat(66)}😀${"ô".repeat(66)}`)).toBe(3);
  });
});
