// The post generator's pure rules: template writer by type/tone/length, answer parsing and defaults, logo sniffing.
import { describe, expect, it } from "vitest";
import {
  LENGTHS,
  LENGTH_WORDS,
  POST_TYPES,
  PostRequest,
  TONES,
  attemptTimeoutMs,
  fullPostText,
  parsePostAnswer,
  retryNotice,
  templatePost,
} from "../../../worker/features/content/rules/facebook-post";
import { ProfileUpdate, sniffLogoType } from "../../../worker/features/profile/rules/profile";

const business = { company_name: "Clearwater Plumbing", company_category: "Plumbing", company_location: "Denver, CO", company_description: "24/7 emergency plumbers." };
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe("templatePost", () => {
  for (const postType of POST_TYPES) {
    for (const length of LENGTHS) {
      it(`${postType} / ${length}: within ${LENGTH_WORDS[length].min}-${LENGTH_WORDS[length].max} words, about the trade and area`, () => {
        for (const tone of TONES) {
          const post = templatePost(business, PostRequest.parse({ postType, length, tone }));
          const n = words(post.content);
          expect(n).toBeGreaterThanOrEqual(LENGTH_WORDS[length].min);
          expect(n).toBeLessThanOrEqual(LENGTH_WORDS[length].max);
          expect(post.content).toMatch(/Denver/);
          expect(post.content).not.toMatch(/\[|\{/);
        }
      });
    }
  }

  it("leaves out hashtags and emoji when switched off", () => {
    const on = templatePost(business, PostRequest.parse({}));
    expect(on.tags).toEqual(["#ClearwaterPlumbing", "#Plumbing", "#Denver", "#SupportLocal"]);
    expect(on.content).toMatch(/✨/);
    const off = templatePost(business, PostRequest.parse({ includeHashtags: false, includeEmoji: false }));
    expect(off.tags).toEqual([]);
    expect(off.content).not.toMatch(/\p{Extended_Pictographic}/u);
  });
});

describe("parsePostAnswer", () => {
  it("uses the spec's defaults for missing fields and builds the 600x400 image from the keywords", () => {
    const parsed = parsePostAnswer("{}", "Plumbing");
    expect(parsed).toEqual({
      ok: true,
      post: {
        title: "New Post",
        content: "Content not available",
        tags: [],
        keywords: ["business", "local", "Plumbing"],
        imagePrompt: "business, local, Plumbing",
        image: "https://placehold.co/600x400?text=business%2C%20local%2C%20Plumbing",
      },
    });
  });

  it("normalises hashtags and refuses malformed or empty answers with the spec's wording", () => {
    const parsed = parsePostAnswer(JSON.stringify({ title: "T", content: "C", tags: ["water heater", "#Denver", "#Denver"], keywords: ["a"] }), null);
    expect(parsed.ok && parsed.post.tags).toEqual(["#waterheater", "#Denver"]);
    expect(parsePostAnswer('{"title": ', null)).toEqual({ ok: false, message: "Invalid response format from API" });
    expect(parsePostAnswer("[1,2]", null)).toEqual({ ok: false, message: "Invalid response format from API" });
    expect(parsePostAnswer("  ", null)).toEqual({ ok: false, message: "Empty response from API" });
  });

  it("times attempts at 15 s + 5 s per attempt index and words the retry notice", () => {
    expect([0, 1, 2, 3].map(attemptTimeoutMs)).toEqual([15_000, 20_000, 25_000, 30_000]);
    expect(retryNotice(2)).toBe("Request timed out. Retrying... Attempt 2 of 3");
    expect(fullPostText({ title: "T", content: "C", tags: ["#a", "#b"] })).toBe("T\n\nC\n\n#a #b");
  });
});

describe("profile rules", () => {
  it("sniffs png, jpeg, webp and gif from bytes and nothing else", () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(sniffLogoType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))?.mime).toBe("image/png");
    expect(sniffLogoType(new Uint8Array([0xff, 0xd8, 0xff, 0xdb]))?.mime).toBe("image/jpeg");
    expect(sniffLogoType(bytes("RIFF____WEBPVP8"))?.mime).toBe("image/webp");
    expect(sniffLogoType(bytes("GIF87a"))?.mime).toBe("image/gif");
    expect(sniffLogoType(bytes("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffLogoType(bytes("RIFF____WAVE"))).toBeNull();
    expect(sniffLogoType(new Uint8Array())).toBeNull();
  });

  it("adds https:// to a bare website and turns blanks into null", () => {
    expect(ProfileUpdate.parse({ company_website: "acme.com", company_phone: "" })).toMatchObject({ company_website: "https://acme.com", company_phone: null });
    expect(ProfileUpdate.safeParse({ company_website: "javascript:alert(1)" }).success).toBe(false);
  });
});
