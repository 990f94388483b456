// The Social Post Generator's rules (issue 20): one idea becomes one post per chosen network, each held to that
// network's limits after generation (worker/features/content/rules/length.ts).
import { z } from "zod";
import {
  businessFacts,
  businessPromptLines,
  CONTENT_TONES,
  JSON_RULES,
  modelList,
  modelText,
  networksField,
  parseModelJson,
  topicField,
  type ContentBusiness,
  type ContentRules,
  type ContentTone,
} from "./content";
import { cleanHashtags, fitToNetwork, NETWORK_CHAR_LIMITS, NETWORK_HASHTAG_LIMITS, NETWORK_LABELS, NETWORKS, shortenToLimit, type Network } from "./length";

export const SocialPostsRequest = z.object({
  idea: topicField,
  networks: networksField,
  tone: z.enum(CONTENT_TONES).default("friendly"),
  includeHashtags: z.boolean().default(true),
  includeEmoji: z.boolean().default(true),
});
export type SocialPostsRequestInput = z.input<typeof SocialPostsRequest>;
export type SocialPostsRequest = z.output<typeof SocialPostsRequest>;

export const SocialPost = z.object({
  network: z.enum(NETWORKS),
  content: z.string().trim().min(1).max(63_206),
  hashtags: z.array(z.string().max(140)).max(30),
});
export type SocialPost = z.infer<typeof SocialPost>;
export const SocialPostsResult = z
  .object({ posts: z.array(SocialPost).min(1).max(NETWORKS.length) })
  .superRefine((r, ctx) =>
    r.posts.forEach((p, i) => {
      const text = p.content.length + (p.hashtags.length ? p.hashtags.join(" ").length + 2 : 0);
      if ([...p.content].length > NETWORK_CHAR_LIMITS[p.network] || text > NETWORK_CHAR_LIMITS[p.network] + 200) {
        ctx.addIssue({ code: "custom", path: ["posts", i, "content"], message: `Too long for ${NETWORK_LABELS[p.network]}` });
      }
    }),
  );
export type SocialPostsResult = z.infer<typeof SocialPostsResult>;

/** How each network's post is asked for. */
const NETWORK_STYLE: Record<Network, string> = {
  facebook: "warm and conversational, 60-120 words, up to 5 hashtags",
  instagram: "visual and personal, 60-150 words with line breaks, 10-20 hashtags",
  linkedin: "professional, 80-160 words, a lesson or result from the business, up to 5 hashtags",
  x: "one punchy message under 220 characters, 1-2 hashtags",
  "google-business": "an update for the Google listing, 60-150 words, no hashtags",
  nextdoor: "a friendly neighbour-to-neighbour note, 50-120 words, no hashtags",
};

export function buildSocialPrompt(business: ContentBusiness, req: SocialPostsRequest, findings: Parameters<typeof businessPromptLines>[1]): string {
  return [
    ...businessPromptLines(business, findings),
    `Turn one idea into a post for each of these networks: ${req.networks.map((n) => NETWORK_LABELS[n]).join(", ")}.`,
    `Idea: ${req.idea || "something timely about the business"}`,
    `Tone: ${req.tone}`,
    `Hashtags: ${req.includeHashtags ? "as each network suits" : "none"}`,
    `Emoji: ${req.includeEmoji ? "a few where they fit" : "none"}`,
    ...req.networks.map((n) => `- ${n}: ${NETWORK_STYLE[n]} (at most ${NETWORK_CHAR_LIMITS[n]} characters).`),
    "",
    JSON_RULES,
    `Fields: posts, an array with one object per network: {network, content, hashtags}. network is one of ${req.networks.join(", ")}; content has no hashtags; hashtags is an array of words starting with #.`,
  ].join("\n");
}

const ModelSocial = z.object({
  posts: z
    .array(z.object({ network: z.string().trim().toLowerCase(), content: modelText(63_206), hashtags: modelList(60) }).catch({ network: "", content: undefined, hashtags: undefined }))
    .optional()
    .catch(undefined),
});

const OPENERS: Record<ContentTone, string> = {
  professional: "",
  friendly: "Hi neighbours! ",
  enthusiastic: "Big news! ",
  informative: "Quick tip: ",
  urgent: "Act now: ",
};

const EMOJI: Partial<Record<Network, [string, string]>> = {
  facebook: ["🏡", "📞"],
  instagram: ["✨", "📸"],
  x: ["🔧", ""],
  nextdoor: ["👋", ""],
};

/** One network's post without AI. */
function templateFor(network: Network, business: ContentBusiness, req: SocialPostsRequest): SocialPost {
  const f = businessFacts(business);
  const idea = req.idea ? `${req.idea.replace(/[.!?]*$/, "")}.` : `Honest ${f.trade.toLowerCase()} for homes across ${f.area}.`;
  const open = OPENERS[req.tone];
  const body: Record<Network, string> = {
    facebook: `${open}${idea} ${f.name} has been helping neighbours in ${f.area} with ${f.trade.toLowerCase()} done right: on time, on budget and cleaned up after.\n\nSend us a message or call today for a free estimate.`,
    instagram: `${open}${idea}\n\nThis is what we love about ${f.trade.toLowerCase()} in ${f.area}: every home is different, and every job gets our full attention.\n\nTap the link in our bio to book with ${f.name}.`,
    linkedin: `${idea} At ${f.name}, we have learned that the best ${f.trade.toLowerCase()} work starts with listening: a clear estimate, a clear plan and a crew that shows up when it says it will. That is how a local business earns repeat customers in ${f.area}.`,
    x: `${open}${idea} ${f.name} is booking ${f.trade.toLowerCase()} jobs in ${f.area} now.`,
    "google-business": `${idea} ${f.name} serves homes across ${f.area} with licensed, insured ${f.trade.toLowerCase()} work and written estimates before any job begins. Call us or book online today.`,
    nextdoor: `Hi neighbours, this is ${f.name}, your local ${f.trade.toLowerCase()} team in ${f.area}. ${idea} If you need a hand, message us here: we are just around the corner.`,
  };
  const [first, last] = req.includeEmoji ? (EMOJI[network] ?? ["", ""]) : ["", ""];
  const content = [first, body[network], last].filter(Boolean).join(" ");
  const tagWords = [f.name, f.trade.replace(/&/g, "and"), f.area, "SupportLocal", "HomeImprovement", `${f.area}${f.trade.replace(/\W/g, "")}`, "LocalBusiness", "HomeTips"];
  const hashtags = req.includeHashtags ? cleanHashtags(tagWords, NETWORK_HASHTAG_LIMITS[network]) : [];
  return { network, content, hashtags };
}

export function templateSocialPosts(business: ContentBusiness, req: SocialPostsRequest): SocialPostsResult {
  return { posts: req.networks.map((n) => templateFor(n, business, req)) };
}

export const socialPostsRules: ContentRules<SocialPostsRequest, SocialPostsResult> = {
  tool: "social-posts",
  request: SocialPostsRequest,
  result: SocialPostsResult,
  maxTokens: 2000,
  temperature: 0.8,
  prompt: (business, req, findings) => buildSocialPrompt(business, req, findings),
  fromAnswer(content, business, req) {
    const answer = parseModelJson(content, ModelSocial);
    if (!answer.ok) return answer;
    const written = new Map((answer.value.posts ?? []).filter((p) => p.content).map((p) => [p.network.replace(/[\s_]+/g, "-"), p]));
    if (!written.size) return { ok: false, message: "The answer has no posts" };
    // A network the model skipped takes the template's post, so the user still gets one per network chosen.
    const posts = req.networks.map((network) => {
      const found = written.get(network) ?? (network === "google-business" ? written.get("google") : undefined);
      if (!found?.content) return templateFor(network, business, req);
      return { network, content: found.content, hashtags: req.includeHashtags ? (found.hashtags ?? []) : [] };
    });
    return { ok: true, value: { posts } };
  },
  template: (business, req) => templateSocialPosts(business, req),
  enforce(result) {
    const notes: string[] = [];
    const posts = result.posts.map((post) => {
      const fitted = fitToNetwork(post.network, post.content, post.hashtags);
      notes.push(...fitted.notes);
      return { network: post.network, content: fitted.content, hashtags: fitted.hashtags };
    });
    return { result: { posts }, notes };
  },
  title(_result, req) {
    return req.idea ? shortenToLimit(req.idea, 70).text : `Posts for ${req.networks.map((n) => NETWORK_LABELS[n]).join(", ")}`;
  },
};
