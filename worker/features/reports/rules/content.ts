// SEO report content: its schemas and types, completing what models leave out, and whether a report is generated.
import { z } from "zod";
import { type Category, isCategory } from "../../../domain/categories";
import { deriveTag } from "../../prospects/rules/prospect";
import { potentialFromScore } from "./seo-potential";

export const GmbArticle = z.object({
  title: z.string().min(1),
  subtitle: z.string(),
  targetKeywords: z.array(z.string()).length(3),
});
export type GmbArticle = z.infer<typeof GmbArticle>;

export const BlogStructure = z.object({
  title: z.string().min(1),
  sections: z.array(z.string()).length(5),
  targetKeywords: z.array(z.string()).length(5),
});
export type BlogStructure = z.infer<typeof BlogStructure>;

// Models often leave out the presentation fields; normalizeReportContent fills them.
export const FacebookPost = z.object({
  title: z.string().min(1),
  content: z.string(),
  author: z.string().optional(),
  image: z.string().optional(),
  likes: z.number().int().nonnegative().optional(),
  comments: z.number().int().nonnegative().optional(),
  shares: z.number().int().nonnegative().optional(),
});
export type FacebookPost = z.infer<typeof FacebookPost>;
export type CompleteFacebookPost = Required<FacebookPost>;

export const PerfectAd = z.object({
  title: z.string(),
  description: z.string(),
  displayUrl: z.string(),
  targetUrl: z.string(),
  improvements: z.array(z.string()),
});
export type PerfectAd = z.infer<typeof PerfectAd>;

export const MetaSeo = z.object({
  title: z.string(),
  description: z.string(),
  url: z.string(),
  improvements: z.array(z.string()),
});
export type MetaSeo = z.infer<typeof MetaSeo>;

export const SeoPotential = z.object({
  score: z.number().int().min(1).max(100),
  keyword_potential: z.number().optional(),
  business_relevance: z.number().optional(),
  competition: z.enum(["Low", "Medium", "High"]).optional(),
});
export type SeoPotential = z.infer<typeof SeoPotential>;

export const ReportContent = z.object({
  metaSEO: MetaSeo,
  perfectAd: PerfectAd,
  gmbArticles: z.array(GmbArticle).min(1),
  blogStructures: z.array(BlogStructure).min(1),
  facebookPosts: z.array(FacebookPost).min(1),
  seoPotential: SeoPotential,
});
export type ReportContent = z.infer<typeof ReportContent>;

/** Report content after normalisation: every post and the potential are complete. */
export type NormalizedReportContent = Omit<ReportContent, "facebookPosts" | "seoPotential"> & {
  facebookPosts: CompleteFacebookPost[];
  seoPotential: Required<SeoPotential>;
};

export type ReportProspect = {
  id?: string;
  name: string;
  company_name?: string | null;
  description: string;
  area: string;
  keyword: string;
  tag?: string | null;
};

/** The name the business goes by: its company name, else its own name. */
export function businessName(p: Pick<ReportProspect, "name" | "company_name">): string {
  return p.company_name?.trim() || p.name.trim();
}

/** The prospect's category: its tag, else derived from its description. */
export function prospectCategory(p: Pick<ReportProspect, "tag" | "description">): Category {
  return isCategory(p.tag) ? p.tag : deriveTag(p.description);
}

// FNV-1a: a small stable hash so the same post always gets the same fallback figures.
function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Fallback engagement figures (likes 18-42, comments 4-11, shares 3-9), fixed by the title. */
export function engagementForTitle(title: string): { likes: number; comments: number; shares: number } {
  const hash = stableHash(title);
  return {
    likes: 18 + (hash % 25),
    comments: 4 + ((hash >>> 8) % 8),
    shares: 3 + ((hash >>> 16) % 7),
  };
}

export function placeholderImageUrl(keywords: string): string {
  return `https://placehold.co/600x400?text=${encodeURIComponent(keywords)}`;
}

export type ReportBusiness = Pick<ReportProspect, "name" | "company_name" | "keyword">;

function completePost(post: FacebookPost, business: ReportBusiness | undefined): CompleteFacebookPost {
  const fallback = engagementForTitle(post.title);
  return {
    title: post.title,
    content: post.content,
    author: post.author?.trim() || (business ? businessName(business) : ""),
    image: post.image?.trim() || placeholderImageUrl(business?.keyword?.trim() || post.title),
    likes: post.likes ?? fallback.likes,
    comments: post.comments ?? fallback.comments,
    shares: post.shares ?? fallback.shares,
  };
}

/** Fills what models commonly omit: post author, image and engagement, and the potential's parts. */
export function normalizeReportContent(
  content: ReportContent,
  business?: ReportBusiness,
): NormalizedReportContent {
  const derived = potentialFromScore(content.seoPotential.score);
  return {
    ...content,
    facebookPosts: content.facebookPosts.map((post) => completePost(post, business)),
    seoPotential: {
      score: content.seoPotential.score,
      keyword_potential: content.seoPotential.keyword_potential ?? derived.keyword_potential,
      business_relevance: content.seoPotential.business_relevance ?? derived.business_relevance,
      competition: content.seoPotential.competition ?? derived.competition,
    },
  };
}

/** A report needs generating when it is flagged so or any of its three lists is missing. */
export function isReportGenerated(report: {
  content_generated: boolean;
  gmb_articles: unknown;
  blog_structures: unknown;
  facebook_posts: unknown;
}): boolean {
  return (
    report.content_generated === true &&
    report.gmb_articles != null &&
    report.blog_structures != null &&
    report.facebook_posts != null
  );
}

