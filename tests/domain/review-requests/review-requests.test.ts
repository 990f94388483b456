// The review-request rules (issue 28): 90 days, quiet hours, templates, CSV rows, phone and email normalisation, segments, likely matches.
import { describe, expect, it } from "vitest";
import { checkCustomer, customerFromHook, customersFromCsv, mayAskAgain, normalizeEmail, normalizePhoneE164, quietHoursHoldUntil } from "../../../worker/features/review-requests/rules/review-requests";
import { channelFor, fillTemplate, googleReviewUrl, isStopMessage, likelyReviewsForRequests, messageRuleBroken, RequestSettingsBody, smsBody, webAddressesIn } from "../../../worker/features/review-requests/rules/review-requests";

describe("phone and email normalisation", () => {
  it("writes North American numbers in E.164 whatever the format", () => {
    expect(normalizePhoneE164("(512) 555-0142")).toBe("+15125550142");
    expect(normalizePhoneE164("1-512-555-0142")).toBe("+15125550142");
    expect(normalizePhoneE164("+1 512 555 0142")).toBe("+15125550142");
    expect(normalizePhoneE164("+44 20 7946 0958")).toBe("+442079460958");
  });
  it("refuses what cannot be a number", () => {
    expect(normalizePhoneE164("555-0142")).toBeNull();
    expect(normalizePhoneE164("call me")).toBeNull();
    expect(normalizePhoneE164("(012) 555-0142")).toBeNull();
    expect(normalizePhoneE164("")).toBeNull();
  });
  it("lower-cases emails and refuses invalid ones", () => {
    expect(normalizeEmail("  Ann@Example.COM ")).toBe("ann@example.com");
    expect(normalizeEmail("ann@")).toBeNull();
  });
});

describe("the 90-day rule", () => {
  const now = new Date("2026-06-01T12:00:00Z");
  it("refuses a customer asked 89 days ago and allows one asked 90 days ago", () => {
    expect(mayAskAgain(new Date(now.getTime() - 89 * 86_400_000), now)).toBe(false);
    expect(mayAskAgain(new Date(now.getTime() - 90 * 86_400_000), now)).toBe(true);
    expect(mayAskAgain(null, now)).toBe(true);
  });
});

describe("quiet hours in the business's zone", () => {
  it("holds a message at 21:30 in Chicago until 08:00 there the next morning", () => {
    // 2026-06-01 21:30 CDT = 02:30 UTC on the 2nd.
    const held = quietHoursHoldUntil(new Date("2026-06-02T02:30:00Z"), "America/Chicago", "20:00", "08:00");
    expect(held?.toISOString()).toBe("2026-06-02T13:00:00.000Z");
  });
  it("holds a message at 06:00 until 08:00 the same day", () => {
    const held = quietHoursHoldUntil(new Date("2026-06-02T11:00:00Z"), "America/Chicago", "20:00", "08:00");
    expect(held?.toISOString()).toBe("2026-06-02T13:00:00.000Z");
  });
  it("lets a message at 10:00 local go at once", () => {
    expect(quietHoursHoldUntil(new Date("2026-06-02T15:00:00Z"), "America/Chicago", "20:00", "08:00")).toBeNull();
  });
  it("handles a window inside one day, and none when start equals end", () => {
    expect(quietHoursHoldUntil(new Date("2026-06-02T12:30:00Z"), "UTC", "12:00", "13:00")?.toISOString()).toBe("2026-06-02T13:00:00.000Z");
    expect(quietHoursHoldUntil(new Date("2026-06-02T12:30:00Z"), "UTC", "12:00", "12:00")).toBeNull();
  });
});

describe("templates", () => {
  const values = { business: "Acme Plumbing", firstName: "Ann", link: "https://x.test/r/abc?r=t" };
  it("fills the business's name, the customer's first name and the link", () => {
    expect(fillTemplate("Hi {first_name}, thanks from {business}: {link}", values)).toBe("Hi Ann, thanks from Acme Plumbing: https://x.test/r/abc?r=t");
  });
  it("adds the link when a template lost it, and greets without a name", () => {
    expect(fillTemplate("Hi {first_name}!", { ...values, firstName: "" })).toBe("Hi there! https://x.test/r/abc?r=t");
  });
  it("ends every text with the opt-out words", () => {
    expect(smsBody("Hi {first_name} {link}", values)).toMatch(/Reply STOP to opt out\.$/);
  });
  it("refuses saved templates without the link", () => {
    const base = { delayMinutes: 120, emailSubject: "", emailTemplate: "", smsTemplate: "Hi", quietStart: "20:00", quietEnd: "08:00", smsEnabled: true, placeId: "" };
    expect(RequestSettingsBody.safeParse(base).success).toBe(false);
    expect(RequestSettingsBody.safeParse({ ...base, smsTemplate: "Hi {link}" }).success).toBe(true);
  });
});

describe("no web address but the review link (phishing, issue 39)", () => {
  const base = { delayMinutes: 120, emailSubject: "", emailTemplate: "", smsTemplate: "Hi {link}", quietStart: "20:00", quietEnd: "08:00", smsEnabled: true, placeId: "" };
  const codeOf = (body: Record<string, unknown>) => {
    const parsed = RequestSettingsBody.safeParse({ ...base, ...body });
    return parsed.success ? null : (parsed.error.issues[0] as { params?: { code?: string } }).params?.code;
  };
  it("finds addresses written any way", () => {
    for (const text of ["go to https://evil.example/x", "see evil.com", "EVIL.COM/login", "bit.ly/3abc", "www.acme-reviews.net", "hxxp://x", "acme.co.uk", "mail me: bob@evil.io", "192.168.0.1/a", "evil。com"]) {
      expect(webAddressesIn(text), text).not.toEqual([]);
    }
  });
  it("leaves ordinary sentences alone", () => {
    for (const text of ["Thanks, Ann! It was a pleasure.", "Mr. Smith, e.g. the roof, i.e. the gutters", "St. Louis Plumbing Co.", "Hi {first_name}.Thanks", "5.5 stars", "Call 512.555.0142"]) {
      expect(webAddressesIn(text), text).toEqual([]);
    }
  });
  it("refuses a template with any address but {link}, a bare domain included, with a stable code", () => {
    expect(codeOf({ smsTemplate: "Hi {first_name}, review us: {link}" })).toBeNull();
    expect(codeOf({ smsTemplate: "Urgent: verify your account at evil.com {link}" })).toBe("template_web_address");
    expect(codeOf({ emailTemplate: "Hi {first_name}\n\nhttps://evil.example/login\n{link}" })).toBe("template_web_address");
    expect(codeOf({ emailTemplate: "Visit {business}.com or {link}" })).toBe("template_web_address");
    expect(codeOf({ smsTemplate: "Hi" })).toBe("template_link_missing");
    expect(messageRuleBroken("Review us: evil.com {link}", "template")?.message).toBe("Remove “evil.com”: {link} is the only web address a message may carry");
  });
  it("refuses a subject with a line break (a header injection) or an address", () => {
    expect(codeOf({ emailSubject: "How did we do?\r\nBcc: victim@example.com" })).toBe("subject_line_break");
    expect(codeOf({ emailSubject: "How did we do?\nSecond line" })).toBe("subject_line_break");
    expect(codeOf({ emailSubject: "Claim your prize at evil.com" })).toBe("template_web_address");
    expect(codeOf({ emailSubject: "How did we do, {first_name}?" })).toBeNull();
  });
  it("greets a customer whose first name is a web address as 'there'", () => {
    expect(fillTemplate("Hi {first_name}! {link}", { business: "Acme", firstName: "evil.com", link: "https://x.test/r/a" })).toBe("Hi there! https://x.test/r/a");
  });
});

describe("customers", () => {
  it("needs a name and an email or a phone", () => {
    expect(checkCustomer({ name: "Ann", email: "ann@example.com" }).ok).toBe(true);
    const none = checkCustomer({ name: "Ann" });
    expect(none.ok === false && none.error.code).toBe("no_contact");
    const badPhone = checkCustomer({ name: "Ann", phone: "123" });
    expect(badPhone.ok === false && badPhone.error.code).toBe("invalid_phone");
  });
  it("reads CSV rows with a header in any order, keeping valid rows and reporting bad ones by row", () => {
    const read = customersFromCsv("Phone,Name,Email\n512-555-0142,Ann Lee,\n,Bob,not-an-email\n,Cy,cy@example.com\n,,\n");
    expect(read.rows.map((r) => [r.row, r.customer.name, r.customer.phone ?? r.customer.email])).toEqual([
      [2, "Ann Lee", "+15125550142"],
      [4, "Cy", "cy@example.com"],
    ]);
    expect(read.errors).toEqual([{ row: 3, code: "invalid_email", message: "Email: enter a valid email address" }]);
  });
  it("reports a row with an unmatched quote by its number and keeps every valid row after it", () => {
    const read = customersFromCsv('name,email\nAnn "Lee,ann@example.com\n"Bob, Jr",bob@example.com\n\n"Cy,cy@example.com\nDee,dee@example.com\n');
    expect(read.rows.map((r) => [r.row, r.customer.name])).toEqual([
      [2, 'Ann "Lee'],
      [3, "Bob, Jr"],
      [6, "Dee"],
    ]);
    expect(read.errors).toEqual([{ row: 5, code: "unclosed_quote", message: 'A quote (") is opened and not closed on this row' }]);
  });
  it("reads CSV without a header as name, email, phone, job", () => {
    const read = customersFromCsv("Ann,ann@example.com,,J-1");
    expect(read.rows[0]?.customer).toEqual({ name: "Ann", email: "ann@example.com", phone: null, jobId: "J-1" });
  });
  it("takes a hook's first and last name and a numeric job id", () => {
    const got = customerFromHook({ first_name: "Ann", last_name: "Lee", phone: "5125550142", job_id: 42 });
    expect(got.ok && got.customer).toEqual({ name: "Ann Lee", email: null, phone: "+15125550142", jobId: "42" });
  });
  it("texts when it can, else mails", () => {
    expect(channelFor({ email: "a@b.co", phone: "+15125550142" }, true)).toBe("sms");
    expect(channelFor({ email: "a@b.co", phone: "+15125550142" }, false)).toBe("email");
    expect(channelFor({ email: null, phone: "+15125550142" }, false)).toBeNull();
  });
});

describe("no gating", () => {
  it("gives every customer Google's write-review address for the place", () => {
    expect(googleReviewUrl("ChIJN1t_tDeuEmsRUsoyG83frY4")).toBe("https://search.google.com/local/writereview?placeid=ChIJN1t_tDeuEmsRUsoyG83frY4");
  });
});

describe("STOP", () => {
  it("knows Twilio's OptOutType and the standard words alone", () => {
    expect(isStopMessage("please stop", "STOP")).toBe(true);
    expect(isStopMessage(" unsubscribe ", null)).toBe(true);
    expect(isStopMessage("stop texting me", null)).toBe(false);
    expect(isStopMessage("Thanks!", null)).toBe(false);
  });
});

describe("likely reviews after a request", () => {
  it("matches by first name and last initial within 14 days after sending, each review once", () => {
    const requests = [
      { id: "r1", customerName: "Ann Lee", sentAt: "2026-06-01T10:00:00Z" },
      { id: "r2", customerName: "Ann Smith", sentAt: "2026-06-01T10:00:00Z" },
      { id: "r3", customerName: "Bob Ray", sentAt: "2026-06-01T10:00:00Z" },
    ];
    const reviews = [
      { id: "g1", reviewerName: "Ann L.", createdAt: "2026-06-02T10:00:00Z" },
      { id: "g2", reviewerName: "Bob Ray", createdAt: "2026-05-30T10:00:00Z" },
    ];
    expect(likelyReviewsForRequests(requests, reviews)).toEqual([{ requestId: "r1", reviewId: "g1", label: "likely" }]);
  });
});
