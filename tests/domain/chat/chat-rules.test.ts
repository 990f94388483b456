// Chat rules shared by worker and web: size caps, the system prompt, lead details, sentence splitting for voice.
import { describe, expect, it } from "vitest";
import { itReturnsEqual } from "../each";
import {
  chatLimitProblem,
  extractLead,
  systemPromptFor,
  takeSentences,
  VOICES,
  DEFAULT_VOICE_ID,
  type ChatTurn,
} from "../../../worker/features/chat/rules/chat";
import { CHAT_MAX_TURNS, CHAT_MESSAGE_MAX_CHARS } from "../../../worker/features/chat/rules/limits";

const user = (content: string): ChatTurn => ({ role: "user", content });

describe("chatLimitProblem", () => {
  it("accepts a normal conversation", () => {
    expect(chatLimitProblem([user("hi"), { role: "assistant", content: "hello" }, user("price?")])).toBeNull();
  });
  it("refuses a message over the character cap with 413", () => {
    expect(chatLimitProblem([user("x".repeat(CHAT_MESSAGE_MAX_CHARS + 1))])?.status).toBe(413);
    expect(chatLimitProblem([user("x".repeat(CHAT_MESSAGE_MAX_CHARS))])).toBeNull();
  });
  it("refuses more turns than the cap with 422", () => {
    const turns = Array.from({ length: CHAT_MAX_TURNS + 1 }, () => user("a"));
    expect(chatLimitProblem(turns)?.status).toBe(422);
    expect(chatLimitProblem(turns.slice(0, CHAT_MAX_TURNS))).toBeNull();
  });
  it("wants the last turn to be a non-blank user message", () => {
    expect(chatLimitProblem([user("   ")])?.status).toBe(422);
    expect(chatLimitProblem([user("hi"), { role: "assistant", content: "yo" }])?.status).toBe(422);
  });
});

describe("systemPromptFor", () => {
  const p = { name: "Ridge Roofing", company_name: "Ridge LLC", keyword: "roofer", area: "Austin, TX", tag: "Roofing", description: "Roof repair" };
  it("names the prospect, trade, area and questions; the public one asks one question at a time", () => {
    const pub = systemPromptFor(p, ["Is it in Austin?"], "public");
    expect(pub).toContain("Ridge Roofing (Ridge LLC)");
    expect(pub).toContain("local Roofing business serving Austin, TX");
    expect(pub).toContain("1. Is it in Austin?");
    expect(pub).toContain("Ask one question at a time");
    expect(systemPromptFor(p, [], "admin")).not.toContain("Ask one question at a time");
  });
});

describe("extractLead", () => {
  itReturnsEqual("%j", extractLead, [
    ["I'm Dana Reyes, 512-555-0177", { name: "Dana Reyes", phone: "512-555-0177", email: null }],
    ["my name is sam and my email is sam@example.com", { name: "sam", phone: null, email: "sam@example.com" }],
    ["Jo Park, (737) 555 0100", { name: "Jo Park", phone: "(737) 555 0100", email: null }],
    ["call me at +1 512 555 0199", { name: null, phone: "+1 512 555 0199", email: null }],
    ["how much is it?", { name: null, phone: null, email: null }],
    ["It is about 40 years old", { name: null, phone: null, email: null }],
  ]);
});

describe("takeSentences", () => {
  it("returns complete sentences and keeps the unfinished rest", () => {
    expect(takeSentences("Hello there! We can help. Our rates")).toEqual({ sentences: ["Hello there!", "We can help."], rest: " Our rates" });
    expect(takeSentences("No end yet")).toEqual({ sentences: [], rest: "No end yet" });
    expect(takeSentences("It costs $4.50 per foot. Next")).toEqual({ sentences: ["It costs $4.50 per foot."], rest: " Next" });
  });
});

describe("voices", () => {
  it("has eight voices, four female then four male, the first the default", () => {
    expect(VOICES).toHaveLength(8);
    expect(VOICES.slice(0, 4).every((v) => v.gender === "female")).toBe(true);
    expect(VOICES.slice(4).every((v) => v.gender === "male")).toBe(true);
    expect(DEFAULT_VOICE_ID).toBe(VOICES[0]!.id);
  });
});
