// The Facebook Post Generator's rules (spec part 1 §2-§9): options, the request schema, the model prompt and
// answer, the spec's defaults for missing fields, and the template writer used without AI.
import { z } from "zod";
import { placeholderImageUrl } from "../../reports/rules/content";
import { parseModelJson } from "./content";

export const POST_TYPES = ["promotional", "educational", "engagement", "story", "event"] as const;
export type PostType = (typeof POST_TYPES)[number];
export const POST_TYPE_LABELS: Record<PostType, { label: string; description: string }> = {
  promotional: { label: "Promotional", description: "Offers, services and reasons to call" },
  educational: { label: "Educational", description: "Tips and know-how for customers" },
  engagement: { label: "Engagement", description: "Questions that start a conversation" },
  story: { label: "Business Story", description: "Your team, your work, your why" },
  event: { label: "Event", description: "Openings, workshops and seasonal dates" },
};

export const TONES = ["professional", "casual", "enthusiastic", "informative", "persuasive"] as const;
export type Tone = (typeof TONES)[number];

export const LENGTHS = ["short", "medium", "long"] as const;
export type PostLength = (typeof LENGTHS)[number];
/** Spec §5/§9: words per length. */
export const LENGTH_WORDS: Record<PostLength, { min: number; max: number }> = {
  short: { min: 50, max: 75 },
  medium: { min: 100, max: 150 },
  long: { min: 150, max: 250 },
};
export function lengthLabel(length: PostLength): string {
  const { min, max } = LENGTH_WORDS[length];
  return `${length[0]!.toUpperCase()}${length.slice(1)} (${min}-${max} words)`;
}

/** Spec §9: model settings for a post. */
export const POST_MAX_TOKENS = 800;
export const POST_TEMPERATURE = 0.7;
/** Spec §9: up to 3 retries after the first attempt, 2 s apart, each attempt 15 s + 5 s per attempt index. */
export const POST_MAX_RETRIES = 3;
export const POST_RETRY_DELAY_MS = 2000;
export function attemptTimeoutMs(attemptIndex: number): number {
  return 15_000 + 5_000 * attemptIndex;
}

export const POST_TOOL_NAME = "Facebook Post Generator";
export const POST_TOOL_NAME_FAILED = "Facebook Post Generator (Failed)";

/** Spec §5 and §8 wording. */
export const PROFILE_REQUIRED_MESSAGE = "Please update your business profile first to generate more relevant content.";
export const LOGIN_REQUIRED_MESSAGE = "You must be logged in to generate a post.";
export const TIMED_OUT_MESSAGE = "Request timed out";
export const ALL_TIMED_OUT_MESSAGE = "All attempts timed out. Please try again or check your connection.";
export function retryNotice(attempt: number): string {
  return `Request timed out. Retrying... Attempt ${attempt} of ${POST_MAX_RETRIES}`;
}
export function apiErrorMessage(message: string | null | undefined): string {
  return `API Error: ${message?.trim() || "Unknown API error"}`;
}
export function failedMessage(message: string): string {
  return `Failed to generate post: ${message}`;
}

export const DESCRIPTION_MAX = 2000;
export const INSTRUCTIONS_MAX = 1000;

/** POST /api/posts/facebook and the generator form. */
export const PostRequest = z.object({
  description: z.string().trim().max(DESCRIPTION_MAX, { message: `Must be at most ${DESCRIPTION_MAX} characters` }).default(""),
  postType: z.enum(POST_TYPES).default("promotional"),
  tone: z.enum(TONES).default("professional"),
  length: z.enum(LENGTHS).default("medium"),
  includeHashtags: z.boolean().default(true),
  includeEmoji: z.boolean().default(true),
  specialInstructions: z
    .string()
    .trim()
    .max(INSTRUCTIONS_MAX, { message: `Must be at most ${INSTRUCTIONS_MAX} characters` })
    .default(""),
});
export type PostRequestInput = z.input<typeof PostRequest>;
export type PostRequest = z.output<typeof PostRequest>;

/** Saving an edit ('Save Changes') replaces the content. */
export const PostEdit = z.object({
  content: z.string().trim().min(1, { message: "The post cannot be empty" }).max(10_000),
});

/** The business a post is written for (the profile's fields). */
export type PostBusiness = {
  company_name: string | null;
  company_category: string | null;
  company_location: string | null;
  company_description: string | null;
  company_logo_url?: string | null;
};

/** Spec §3 "Generated post", plus how it was written and when. */
export type GeneratedPost = {
  id: string;
  title: string;
  content: string;
  tags: string[];
  imagePrompt: string;
  image: string;
  source: "ai" | "template";
  postType: PostType;
  tone: Tone;
  length: PostLength;
  request: string;
  created_at: string;
  updated_at: string;
};

export type PostResponse = {
  post: GeneratedPost;
  /** Why a template wrote the post (no AI configured, or the monthly budget is used up). */
  notice: string | null;
};
export type PostListResponse = { posts: GeneratedPost[] };

/** Spec §7: the prompt carries the business, the request and every option, and asks for one JSON object. */
export function buildPostPrompt(business: PostBusiness, req: PostRequest): string {
  const words = LENGTH_WORDS[req.length];
  const lines = [
    "You are a social media copywriter for local home-service businesses.",
    "Write one Facebook post for this business.",
    "",
    `Business category: ${business.company_category || "Local business"}`,
    `Business name: ${business.company_name || "Our business"}`,
    `Location: ${business.company_location || "the local area"}`,
    `Business description: ${business.company_description || "Not provided"}`,
    "",
    `User's request: ${req.description || "A post that fits the post type"}`,
    `Post type: ${POST_TYPE_LABELS[req.postType].label}`,
    `Tone: ${req.tone}`,
    `Length: ${req.length} (${words.min}-${words.max} words)`,
    `Hashtags: ${req.includeHashtags ? "include 3-5 relevant hashtags" : "no hashtags"}`,
    `Emoji: ${req.includeEmoji ? "use a few fitting emoji" : "no emoji"}`,
    `Special instructions: ${req.specialInstructions || "none"}`,
    "",
    "Answer with a JSON object with exactly these fields: title, content, tags and keywords.",
    "- title: a short headline for the post.",
    "- content: the post text in short paragraphs separated by blank lines, ready to publish, with no unfilled placeholders such as [phone] or {name}.",
    "- tags: 3-5 hashtags, each starting with #.",
    "- keywords: 3-5 keywords describing an image for the post.",
  ];
  return lines.join("\n");
}

const text = z.string().trim().min(1);
/** The model's answer (spec §3): every field optional; what is missing takes the spec's default (§8). */
const ModelPost = z.object({
  title: text.optional().catch(undefined),
  content: text.optional().catch(undefined),
  tags: z.array(z.string()).optional().catch(undefined),
  keywords: z.array(z.string()).optional().catch(undefined),
});

export type ParsedPost = { title: string; content: string; tags: string[]; keywords: string[]; imagePrompt: string; image: string };
export type ParsePostResult = { ok: true; post: ParsedPost } | { ok: false; message: string };

function hashtag(tag: string): string {
  const word = tag.trim().replace(/^#+/, "").replace(/[^\p{L}\p{N}_]+/gu, "");
  return word ? `#${word}` : "";
}

/** Builds the stored post from its parts: hashtags normalised, image address from the keywords. */
export function completePost(parts: { title: string; content: string; tags: string[]; keywords: string[] }): ParsedPost {
  const tags = [...new Set(parts.tags.map(hashtag).filter(Boolean))].slice(0, 5);
  const keywords = parts.keywords.map((k) => k.trim()).filter(Boolean).slice(0, 5);
  const imagePrompt = keywords.join(", ");
  return { title: parts.title, content: parts.content, tags, keywords, imagePrompt, image: placeholderImageUrl(imagePrompt) };
}

/** Reads the model's JSON: malformed or non-object is an error; missing fields take the spec's defaults. */
export function parsePostAnswer(content: string, category: string | null): ParsePostResult {
  const parsed = parseModelJson(content, ModelPost);
  if (!parsed.ok) return parsed;
  const answer = parsed.value;
  return {
    ok: true,
    post: completePost({
      title: answer.title ?? "New Post",
      content: answer.content ?? "Content not available",
      tags: answer.tags ?? [],
      keywords: answer.keywords?.length ? answer.keywords : ["business", "local", category || "services"],
    }),
  };
}

// ---- Template writer: used without an AI key (and past a budget). Deterministic, so tests can read it.

const TONE_OPENERS: Record<Tone, string> = {
  professional: "",
  casual: "Hey neighbors!",
  enthusiastic: "Big news, friends!",
  informative: "Did you know?",
  persuasive: "Don't wait until it's too late.",
};

const EMOJI: Record<PostType, string[]> = {
  promotional: ["✨", "📞"],
  educational: ["💡", "✅"],
  engagement: ["💬", "👇"],
  story: ["❤️", "🙌"],
  event: ["📅", "🎉"],
};

type Facts = { name: string; trade: string; area: string; about: string; request: string };

function titleFor(type: PostType, f: Facts): string {
  switch (type) {
    case "promotional":
      return `${f.name}: ${f.trade} you can count on in ${f.area}`;
    case "educational":
      return `A quick ${f.trade.toLowerCase()} tip from ${f.name}`;
    case "engagement":
      return `${f.area}, we want to hear from you`;
    case "story":
      return `The story behind ${f.name}`;
    case "event":
      return `Join ${f.name} in ${f.area}`;
  }
}

/** Sentences per post type, in the order they are used; the writer takes as many as the length needs. */
function sentencesFor(type: PostType, f: Facts): string[][] {
  const ask = f.request ? [`${f.request.replace(/[.!?]*$/, "")}.`] : [];
  const about = f.about ? [`${f.about.replace(/[.!?]*$/, "")}.`] : [];
  const common = [
    `Our team serves homes and businesses across ${f.area}, and we treat every property like our own.`,
    `We show up on time, explain the work in plain words and leave the site clean when we are done.`,
    `Ask about our written estimates: you will know the price before any work begins.`,
    `Every job is backed by licensed, insured professionals who take pride in their craft.`,
    `Hundreds of neighbors in ${f.area} already trust ${f.name} with their homes.`,
  ];
  switch (type) {
    case "promotional":
      return [
        [`Looking for reliable ${f.trade.toLowerCase()} in ${f.area}? ${f.name} is here to help.`, ...ask],
        [...about, ...common.slice(0, 3)],
        [...common.slice(3), `This is a great time to get your project on the calendar before the busy season.`],
        [`Send us a message or give us a call today to book your visit.`],
      ];
    case "educational":
      return [
        [`Here is something every homeowner in ${f.area} should know about ${f.trade.toLowerCase()}.`, ...ask],
        [
          `Small problems are cheaper to fix early: a yearly check-up catches wear before it turns into damage.`,
          `Keep notes and photos of past work, so the next pro can see what was done and when.`,
          `When you compare quotes, ask what is included, what warranty comes with the work and who does it.`,
        ],
        [...about, ...common.slice(0, 2), ...common.slice(3)],
        [`Questions about your own home? Message ${f.name} and we will be glad to help.`],
      ];
    case "engagement":
      return [
        [`We have a question for our ${f.area} neighbors!`, ...ask],
        [
          `What is the one ${f.trade.toLowerCase()} project you keep putting off, and what is holding you back?`,
          `Tell us in the comments: we read every one and love hearing about your homes.`,
        ],
        [...about, ...common.slice(0, 3)],
        [`Share this with a friend who has been talking about a project too!`, ...common.slice(3)],
      ];
    case "story":
      return [
        [`Every business has a story, and ours started right here in ${f.area}.`, ...ask],
        [
          ...about,
          `${f.name} began with a simple idea: honest ${f.trade.toLowerCase()} done right, by people who live in the community they serve.`,
        ],
        [...common.slice(0, 3), `Thank you for trusting us with your homes and for every referral you send our way.`],
        [...common.slice(3), `Stop by, say hello, or send us a message anytime.`],
      ];
    case "event":
      return [
        [`Mark your calendar! ${f.name} has something coming up in ${f.area}.`, ...ask],
        [
          `Come meet our team, ask your ${f.trade.toLowerCase()} questions face to face and see examples of our recent work.`,
          `It is free, family-friendly and open to everyone in the neighborhood.`,
        ],
        [...about, ...common.slice(0, 3)],
        [...common.slice(3), `Comment below or send us a message to save your spot.`],
      ];
  }
}

/** Shorter, general sentences that top a post up to its length. */
function extraSentences(f: Facts): string[] {
  return [
    `Call ${f.name} for a free, no-pressure estimate.`,
    `We answer every message within one business day.`,
    `Have a question before you book? Ask away; there is no obligation.`,
    `We are proud to be a local business, and we hire local people.`,
    `Our crews bring the right tools and parts, so most jobs are finished in one visit.`,
    `We keep you updated at every step, from the first visit to the final walkthrough.`,
    `Good ${f.trade.toLowerCase()} work protects the value of your home for years to come.`,
    `Reviews from ${f.area} neighbors are the best proof of the work we do.`,
    `Follow our page for more tips and photos of recent projects.`,
    `Tell your friends and family: we would love to help them too.`,
  ];
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** A finished post from templates, by post type, tone, length and the business's trade and area. */
export function templatePost(business: PostBusiness, req: PostRequest): ParsedPost {
  const facts: Facts = {
    name: business.company_name?.trim() || "Our team",
    trade: business.company_category && business.company_category !== "Other" ? business.company_category : "Home services",
    area: business.company_location?.split(",")[0]?.trim() || "your area",
    about: business.company_description?.trim().slice(0, 300) ?? "",
    request: req.description.trim().slice(0, 300),
  };
  const { min, max } = LENGTH_WORDS[req.length];
  const opener = TONE_OPENERS[req.tone];
  const [first, second] = EMOJI[req.postType];

  // Take sentences in order until the post reaches the length's minimum, skipping any that would pass its maximum.
  const groups = sentencesFor(req.postType, facts);
  const closing = groups[groups.length - 1]!;
  const closingWords = wordCount(closing.join(" "));
  const middle = [...groups.slice(0, -1), extraSentences(facts)];
  const paragraphs: string[][] = [];
  let words = wordCount(opener) + closingWords;
  for (const group of middle) {
    const taken: string[] = [];
    for (const sentence of group) {
      if (words >= min && paragraphs.length > 0) break;
      const n = wordCount(sentence);
      if (words + n > max) continue;
      taken.push(sentence);
      words += n;
    }
    if (taken.length) paragraphs.push(taken);
  }
  paragraphs.push(closing);

  const body = paragraphs.map((p, i) => {
    const textOf = p.join(" ");
    if (i === 0 && opener) return `${opener} ${textOf}`;
    return textOf;
  });
  if (req.includeEmoji) {
    body[0] = `${first} ${body[0]}`;
    body[body.length - 1] = `${body[body.length - 1]} ${second}`;
  }
  const tradeTag = facts.trade.replace(/&/g, "and");
  const tags = req.includeHashtags ? [facts.name, tradeTag, facts.area, "SupportLocal"] : [];
  return completePost({
    title: titleFor(req.postType, facts),
    content: body.join("\n\n"),
    tags,
    keywords: [facts.trade.toLowerCase(), facts.area, "local business"],
  });
}

/** The text 'Copy Full Post' puts on the clipboard: title, content and hashtags. */
export function fullPostText(post: Pick<GeneratedPost, "title" | "content" | "tags">): string {
  return [post.title, post.content, post.tags.join(" ")].filter((part) => part.trim()).join("\n\n");
}
