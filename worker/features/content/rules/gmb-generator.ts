// The GMB Post Generator's rules (issue 20): an Update, Offer or Event for a Google Business Profile, written as the
// shared GmbPost (worker/platform/providers/rules/gmb-post.ts) the scheduler and the publisher read. At most 1,500 characters.
import { z } from "zod";
import {
  addDays,
  businessFacts,
  businessPromptLines,
  CONTENT_TONES,
  isoDay,
  JSON_RULES,
  modelText,
  parseModelJson,
  topicField,
  type BusinessFacts,
  type ContentBusiness,
  type ContentRules,
  type ContentTone,
} from "./content";
import { shortenToLimit } from "./length";
import {
  GMB_CTA_LABELS,
  GMB_CTA_TYPES,
  GMB_POST_TYPE_LABELS,
  GMB_POST_TYPES,
  GMB_SUMMARY_MAX,
  GMB_TITLE_MAX,
  GmbPost,
  type GmbPostType,
} from "../../../platform/providers/rules/gmb-post";

const optionalDate = z
  .string()
  .trim()
  .regex(/^(\d{4}-\d{2}-\d{2})?$/, { message: "Use a date like 2026-12-01" })
  .default("");
const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => v === "" || /^https?:\/\/[^\s/]+\.[^\s]+$/i.test(v), { message: "Use a full web address starting with https://" })
  .default("");

/** Days an offer runs when the form gives no end date. */
export const OFFER_DEFAULT_DAYS = 14;

/** POST /api/content/gmb-post and the generator's form. */
export const GmbPostRequest = z
  .object({
    postType: z.enum(GMB_POST_TYPES).default("STANDARD"),
    topic: topicField,
    tone: z.enum(CONTENT_TONES).default("friendly"),
    /** Offer or event title; the model writes one when empty. */
    title: z.string().trim().max(GMB_TITLE_MAX, { message: `Must be at most ${GMB_TITLE_MAX} characters` }).default(""),
    couponCode: z.string().trim().max(60).default(""),
    terms: z.string().trim().max(1000).default(""),
    startDate: optionalDate,
    endDate: optionalDate,
    ctaType: z.enum(GMB_CTA_TYPES).nullable().default("CALL"),
    ctaUrl: httpUrl,
  })
  .superRefine((req, ctx) => {
    if (req.ctaType && req.ctaType !== "CALL" && !req.ctaUrl) ctx.addIssue({ code: "custom", path: ["ctaUrl"], message: "This button needs a link" });
    if (req.startDate && req.endDate && req.endDate < req.startDate) {
      ctx.addIssue({ code: "custom", path: ["endDate"], message: "The end date must be on or after the start date" });
    }
  });
export type GmbPostRequestInput = z.input<typeof GmbPostRequest>;
export type GmbPostRequest = z.output<typeof GmbPostRequest>;

const ModelGmbPost = z.object({
  summary: modelText(GMB_SUMMARY_MAX),
  title: modelText(200),
  terms: modelText(2000),
  imageIdea: modelText(500),
});

function dates(req: GmbPostRequest, now: Date): { startDate: string; endDate: string } {
  const startDate = req.startDate || isoDay(now);
  const endDate = req.endDate || (req.postType === "OFFER" ? addDays(startDate, OFFER_DEFAULT_DAYS) : startDate);
  return { startDate, endDate };
}

function cut(text: string, max: number): string {
  return shortenToLimit(text, max).text;
}

/** Builds the GmbPost from the request's own fields (they win) and the written parts. */
function assemble(req: GmbPostRequest, now: Date, written: { summary: string; title: string; terms: string; imageIdea: string }): GmbPost {
  const span = dates(req, now);
  const title = cut(req.title || written.title, GMB_TITLE_MAX);
  return {
    type: req.postType,
    summary: written.summary,
    callToAction: req.ctaType ? { actionType: req.ctaType, url: req.ctaType === "CALL" ? null : req.ctaUrl || null } : null,
    offer: req.postType === "OFFER" ? { title, couponCode: req.couponCode || null, terms: req.terms || written.terms || null, ...span } : null,
    event: req.postType === "EVENT" ? { title, ...span } : null,
    imageIdea: cut(written.imageIdea, 500),
  };
}

const TYPE_ASK: Record<GmbPostType, string> = {
  STANDARD: "an Update post: news, a recent job, a tip or a seasonal reminder",
  OFFER: "an Offer post: what the customer gets, why now, and how to claim it",
  EVENT: "an Event post: what happens, when, where and why to come",
};

export function buildGmbPrompt(business: ContentBusiness, req: GmbPostRequest, findings: Parameters<typeof businessPromptLines>[1], now: Date): string {
  const span = dates(req, now);
  return [
    ...businessPromptLines(business, findings),
    `Write one Google Business Profile post: ${TYPE_ASK[req.postType]}.`,
    `Post type: ${GMB_POST_TYPE_LABELS[req.postType]}`,
    `Topic: ${req.topic || "something timely about the business"}`,
    `Tone: ${req.tone}`,
    req.postType === "STANDARD" ? "" : `Runs: ${span.startDate} to ${span.endDate}`,
    req.title ? `Title: ${req.title}` : "",
    req.couponCode ? `Coupon code: ${req.couponCode}` : "",
    req.terms ? `Terms: ${req.terms}` : "",
    req.ctaType ? `Button: ${GMB_CTA_LABELS[req.ctaType]}` : "",
    "",
    JSON_RULES,
    "Fields: summary, title, terms, imageIdea.",
    `- summary: the post text, 80-250 words, at most ${GMB_SUMMARY_MAX} characters, no hashtags, no links, no phone numbers.`,
    `- title: for an offer or event, a title of at most ${GMB_TITLE_MAX} characters.`,
    "- terms: for an offer, short terms and conditions.",
    "- imageIdea: one sentence describing the photo to post with it.",
  ]
    .filter((line, i, all) => line !== "" || all[i - 1] !== "")
    .join("\n");
}

const IMAGE_IDEAS: Record<GmbPostType, (f: BusinessFacts) => string> = {
  STANDARD: (f) => `A bright photo of your ${f.trade.toLowerCase()} crew at work on a home in ${f.area}, faces visible and smiling.`,
  OFFER: (f) => `A before-and-after pair from a recent ${f.trade.toLowerCase()} job, with the offer's price on a clean banner.`,
  EVENT: (f) => `Your team in branded shirts in front of your van, ready to welcome neighbours from ${f.area}.`,
};

const TONE_OPENING: Record<ContentTone, string> = {
  professional: "",
  friendly: "Hello, neighbours! ",
  enthusiastic: "Great news! ",
  informative: "Good to know: ",
  urgent: "Don't wait: ",
};

/** A finished post without AI, by type, tone and the business's trade and area. */
export function templateGmbPost(business: ContentBusiness, req: GmbPostRequest, now: Date): GmbPost {
  const f = businessFacts(business);
  const topic = req.topic ? `${req.topic.replace(/[.!?]*$/, "")}. ` : "";
  const trade = f.trade.toLowerCase();
  const span = dates(req, now);
  const title =
    req.title ||
    (req.postType === "OFFER" ? `${f.trade} special from ${f.name}` : req.postType === "EVENT" ? `${f.name} open house in ${f.area}` : "");
  const body: Record<GmbPostType, string> = {
    STANDARD: `${topic}${f.name} keeps homes across ${f.area} in good shape with honest ${trade} work. ${f.about ? `${f.about.replace(/[.!?]*$/, "")}. ` : ""}We show up on time, explain the job in plain words and leave the place clean. Ask us for a written estimate: you will know the price before any work begins.`,
    OFFER: `${topic}${title} from ${span.startDate} to ${span.endDate}. Book your ${trade} visit with ${f.name} and save${req.couponCode ? ` with code ${req.couponCode}` : ""}. Our licensed, insured team serves homes across ${f.area}, and every job comes with a written estimate before we start. Spots fill quickly: reach out today.`,
    EVENT: `${topic}Join ${f.name} for ${title} on ${span.startDate}${span.endDate !== span.startDate ? ` through ${span.endDate}` : ""}. Meet our team, bring your ${trade} questions and see examples of our recent work around ${f.area}. It is free and everyone is welcome.`,
  };
  return assemble(req, now, {
    summary: cut(`${TONE_OPENING[req.tone]}${body[req.postType]}`, GMB_SUMMARY_MAX),
    title: title || `${f.trade} news from ${f.name}`,
    terms: req.postType === "OFFER" ? "One offer per household. Cannot be combined with other offers." : "",
    imageIdea: IMAGE_IDEAS[req.postType](f),
  });
}

export const gmbRules: ContentRules<GmbPostRequest, GmbPost> = {
  tool: "gmb-post",
  request: GmbPostRequest,
  result: GmbPost,
  maxTokens: 900,
  temperature: 0.7,
  prompt: buildGmbPrompt,
  fromAnswer(content, business, req, now) {
    const answer = parseModelJson(content, ModelGmbPost);
    if (!answer.ok) return answer;
    if (!answer.value.summary) return { ok: false, message: "The answer has no post text" };
    const f = businessFacts(business);
    const post = assemble(req, now, {
      // Cut to the limit here only so the shape holds; `enforce` cuts on a sentence and says so.
      summary: answer.value.summary,
      title: answer.value.title ?? (req.postType === "EVENT" ? `${f.name} event` : `${f.trade} special`),
      terms: answer.value.terms ?? "",
      imageIdea: answer.value.imageIdea ?? IMAGE_IDEAS[req.postType](f),
    });
    return { ok: true, value: post };
  },
  template: templateGmbPost,
  enforce(post) {
    const fitted = shortenToLimit(post.summary, GMB_SUMMARY_MAX);
    const notes = fitted.shortened ? [`Shortened on a sentence boundary to fit Google's ${GMB_SUMMARY_MAX.toLocaleString("en-US")}-character limit.`] : [];
    return { result: { ...post, summary: fitted.text }, notes };
  },
  title(post) {
    const span = post.offer ?? post.event;
    return span?.title ? `${GMB_POST_TYPE_LABELS[post.type]}: ${span.title}` : `${GMB_POST_TYPE_LABELS[post.type]}: ${shortenToLimit(post.summary, 70).text}`;
  },
};
