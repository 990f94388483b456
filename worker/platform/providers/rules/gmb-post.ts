// A Google Business Profile post (issue 20): the shape the GMB Post Generator writes, the GMB Post Scheduler places
// on its calendar and the publisher sends to `accounts/{a}/locations/{l}/localPosts`. One schema for all three.
import { z } from "zod";

/** Google's topic types, with the names the product shows. */
export const GMB_POST_TYPES = ["STANDARD", "OFFER", "EVENT"] as const;
export type GmbPostType = (typeof GMB_POST_TYPES)[number];
export const GMB_POST_TYPE_LABELS: Record<GmbPostType, string> = { STANDARD: "Update", OFFER: "Offer", EVENT: "Event" };

/** Google's call-to-action button types offered here, with the labels Google shows on the listing. */
export const GMB_CTA_TYPES = ["BOOK", "ORDER", "LEARN_MORE", "SIGN_UP", "CALL"] as const;
export type GmbCtaType = (typeof GMB_CTA_TYPES)[number];
export const GMB_CTA_LABELS: Record<GmbCtaType, string> = { BOOK: "Book", ORDER: "Order online", LEARN_MORE: "Learn more", SIGN_UP: "Sign up", CALL: "Call now" };

/** Google's limit on a post's text. */
export const GMB_SUMMARY_MAX = 1500;
export const GMB_TITLE_MAX = 58;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: "Use a date like 2026-12-01" });

export const GmbCallToAction = z.object({
  actionType: z.enum(GMB_CTA_TYPES),
  /** Required for every type but CALL (which uses the listing's phone). */
  url: z.string().url().max(2000).nullable().optional(),
});

export const GmbOffer = z.object({
  title: z.string().trim().min(1).max(GMB_TITLE_MAX),
  couponCode: z.string().trim().max(60).nullable().optional(),
  terms: z.string().trim().max(5000).nullable().optional(),
  startDate: isoDate,
  endDate: isoDate,
});

export const GmbEvent = z.object({
  title: z.string().trim().min(1).max(GMB_TITLE_MAX),
  startDate: isoDate,
  endDate: isoDate,
});

export const GmbPost = z
  .object({
    type: z.enum(GMB_POST_TYPES),
    summary: z.string().trim().min(1).max(GMB_SUMMARY_MAX),
    callToAction: GmbCallToAction.nullable().optional(),
    offer: GmbOffer.nullable().optional(),
    event: GmbEvent.nullable().optional(),
    /** What photo to take or use; Google shows posts with a photo more prominently. */
    imageIdea: z.string().trim().max(500).nullable().optional(),
  })
  .superRefine((post, ctx) => {
    if (post.type === "OFFER" && !post.offer) ctx.addIssue({ code: "custom", path: ["offer"], message: "An offer needs a title and dates" });
    if (post.type === "EVENT" && !post.event) ctx.addIssue({ code: "custom", path: ["event"], message: "An event needs a title and dates" });
    const span = post.offer ?? post.event;
    if (span && span.endDate < span.startDate) ctx.addIssue({ code: "custom", path: [post.offer ? "offer" : "event", "endDate"], message: "The end date must be on or after the start date" });
    const cta = post.callToAction;
    if (cta && cta.actionType !== "CALL" && !cta.url) ctx.addIssue({ code: "custom", path: ["callToAction", "url"], message: "This button needs a link" });
  });
export type GmbPost = z.infer<typeof GmbPost>;
