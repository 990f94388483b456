// The local fallback responder: a reply by topic, in the prospect's terms, always with the discount and the guarantee.
import { describe, expect, it } from "vitest";
import { itReturns } from "../each";
import { fallbackReply, fallbackTopic } from "../../../worker/features/chat/rules/fallback";
import type { ChatProspect } from "../../../worker/features/chat/rules/chat";

const prospect: ChatProspect = {
  name: "Blue Pipe Plumbing",
  company_name: "Blue Pipe LLC",
  keyword: "plumber in austin",
  area: "Austin, TX",
  tag: "Plumbing",
  description: "Emergency plumbing",
};

describe("fallbackTopic", () => {
  itReturns("%s → %s", fallbackTopic, [
    ["How much does a water heater cost?", "price"],
    ["What are your rates?", "price"],
    ["Can you come out tomorrow?", "booking"],
    ["I'd like to book an appointment", "booking"],
    ["When are you available?", "timing"],
    ["Is this an emergency service?", "timing"],
    ["Do you serve Round Rock?", "area"],
    ["Where are you located?", "area"],
    ["Is your work guaranteed?", "guarantee"],
    ["Are you licensed and insured?", "guarantee"],
    ["Hello", "greeting"],
    ["My sink makes a noise", "other"],
  ]);
});

describe("fallbackReply", () => {
  it.each([
    ["How much does it cost?", "free, no-obligation estimate"],
    ["When can you do it?", "as quickly as possible"],
    ["Do you work in my area?", "serves Austin, TX"],
    ["Do you offer a warranty?", "make it right"],
    ["Can I book a visit?", "book a visit in Austin, TX"],
    ["hi", "your local plumbing team"],
    ["My sink makes a noise", "provides plumbing in Austin, TX"],
  ])("answers %j in the prospect's terms", (message, expected) => {
    const reply = fallbackReply(prospect, message);
    expect(reply).toContain(expected);
    expect(reply).toContain("Blue Pipe Plumbing");
    expect(reply).toContain("15% off their first service");
    expect(reply).toContain("100% satisfaction guarantee");
  });

  it("uses the keyword when the prospect has no tag, and a plain area when none is known", () => {
    const reply = fallbackReply({ ...prospect, tag: null, area: "" }, "anything else?");
    expect(reply).toContain("plumber in austin in your area");
  });
});
