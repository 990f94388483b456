// What the report API returns (admin and shared), and how stored report columns become view content.
import { DEFAULT_BRAND_NAME, type PublicBrand } from "../../../platform/brand/rules/brand";
import type { ReportAiVisibility } from "../../ai-visibility/rules/scans";
import type { LocalVisibility } from "../../rank/rules/view";
import type { ReportListings } from "../../citations/rules/summary";
import {
  BlogStructure,
  type CompleteFacebookPost,
  FacebookPost,
  GmbArticle,
  MetaSeo,
  PerfectAd,
  type ReportProspect,
  engagementForTitle,
  isReportGenerated,
  placeholderImageUrl,
} from "./content";
import { templateReportContent } from "./template";
import { type Potential, potentialFromScore } from "./seo-potential";
import type { z } from "zod";
import type { ReportStatus } from "./status";
import type { AuditView } from "../../audits/rules/view";

export type { ReportStatus };
export type ReportSource = "ai" | "template";

export type ReportViewContent = {
  metaSEO: MetaSeo;
  perfectAd: PerfectAd;
  gmbArticles: GmbArticle[];
  blogStructures: BlogStructure[];
  facebookPosts: CompleteFacebookPost[];
  /**
   * Derived from the stored score by the rules of spec part 2 §4; when the report has an audit, from the audit's overall
   * score (withAuditPotential), and null when that audit has no data (issue 39: one figure, one source).
   */
  seoPotential: Potential | null;
};

export type AdminReport = {
  id: string;
  status: ReportStatus;
  source: ReportSource | null;
  /** Generation attempts so far (the one under way included). */
  attempts: number;
  /** Attempts the queue makes before template content is saved instead. */
  max_attempts: number;
  /** For template content: why the AI content could not be used; while queued: the last failure. */
  last_error: string | null;
  content_generated: boolean;
  created_at: string;
  generated_at: string | null;
  version: number;
  questions: string[];
  content: ReportViewContent | null;
};

export type AdminProspect = {
  id: string;
  name: string;
  company_name: string;
  phone: string;
  email: string;
  description: string;
  area: string;
  keyword: string;
  tag: string | null;
  created_at: string;
  /** The prospect's website (issue 18), when known. */
  website?: string | null;
};

export type AdminReportResponse = {
  report: AdminReport;
  prospect: AdminProspect;
  /** The prospect's latest audit (issue 18): "What we found"; null before the first. */
  audit?: AuditView | null;
  /** The prospect's latest finished Local Search Grid scan (issue 19): "Local visibility"; null before the first. */
  localVisibility?: LocalVisibility | null;
  /** The prospect's newest finished citation scan (issue 27): "Listings"; null before the first. */
  listings?: ReportListings | null;
  /** The prospect's newest finished AI Visibility scan (issue 29): "What AI assistants say"; null before the first. */
  aiVisibility?: ReportAiVisibility | null;
  /** False when no AI key is set: reports get template content straight away. */
  ai_configured: boolean;
  /** The public link: the app's origin plus /shared/reports/{id}. */
  share_url: string;
  /** Set when the report was created but could not be enqueued (spec §8 wording). */
  warning?: string;
};

export type ReportListItem = {
  id: string;
  status: ReportStatus;
  source: ReportSource | null;
  attempts: number;
  content_generated: boolean;
  created_at: string;
  generated_at: string | null;
  prospect: { id: string; name: string; company_name: string; area: string; keyword: string; tag: string | null };
};

export type ReportListResponse = { reports: ReportListItem[]; nextCursor: string | null };

export type ReportStatusItem = Pick<ReportListItem, "id" | "status" | "source" | "attempts" | "content_generated" | "generated_at"> & {
  /** When the current status began: the claim of a generation under way, or when a queued report is due. */
  claimed_at: string | null;
};
export type ReportStatusResponse = { statuses: ReportStatusItem[] };

/** The public shared report: never the prospect's phone or email. */
export type SharedReportResponse = {
  report: {
    id: string;
    status: ReportStatus;
    source: ReportSource | null;
    created_at: string;
    generated_at: string | null;
    version: number;
    content: ReportViewContent | null;
  };
  prospect: { name: string; company_name: string; area: string; keyword: string; tag: string | null; description: string };
  /** The prospect's latest audit, public view (no candidates, no ids of other records); null before the first. */
  audit?: AuditView | null;
  /** The prospect's latest finished grid scan (issue 19), without ids; null before the first. */
  localVisibility?: LocalVisibility | null;
  /** The prospect's newest finished citation scan (issue 27), without any listing's values (no phone number); null before the first. */
  listings?: ReportListings | null;
  /** The prospect's newest finished AI Visibility scan (issue 29): "What AI assistants say about <trade> in <city>"; null before the first. */
  aiVisibility?: ReportAiVisibility | null;
  /** The agency sending the report: the first admin's business profile. */
  sender: { company_name: string | null; logo_url: string | null; website: string | null } | null;
  /** The agency's brand (issue 30): its name is the sender's; its accent colour, contact and footer line show on the page. */
  brand?: PublicBrand;
};

/** The agency's name as the shared page shows it (its body and its head). */
export function senderName(sender: SharedReportResponse["sender"]): string {
  return sender?.company_name?.trim() || DEFAULT_BRAND_NAME;
}

/** The spec's title of the page for an unknown report (the body's heading and the document's title). */
export const NOT_FOUND_TITLE = "Report Not Found";

export type StoredReportContent = {
  contentGenerated: boolean;
  gmbArticles: string | null;
  blogStructures: string | null;
  facebookPosts: string | null;
  metaSeo: string | null;
  perfectAd: string | null;
  seoPotential: number | null;
};

function parseJson(text: string | null): unknown {
  if (text == null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Keeps the entries of a stored list that match its schema; a broken list reads as empty. */
function parseList<T>(text: string | null, schema: z.ZodType<T>): T[] {
  const value = parseJson(text);
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

function completePost(post: FacebookPost, prospect: ReportProspect): CompleteFacebookPost {
  const fallback = engagementForTitle(post.title);
  return {
    title: post.title,
    content: post.content,
    author: post.author?.trim() || prospect.company_name?.trim() || prospect.name,
    image: post.image?.trim() || placeholderImageUrl(prospect.keyword || post.title),
    likes: post.likes ?? fallback.likes,
    comments: post.comments ?? fallback.comments,
    shares: post.shares ?? fallback.shares,
  };
}

/**
 * The content to show for a report, or null while it is not generated (spec §4). The stored ad and
 * meta tags are used; rows written before they were stored fall back to the locally built ones.
 */
export function contentFromStored(stored: StoredReportContent, prospect: ReportProspect): ReportViewContent | null {
  const generated = isReportGenerated({
    content_generated: stored.contentGenerated,
    gmb_articles: stored.gmbArticles,
    blog_structures: stored.blogStructures,
    facebook_posts: stored.facebookPosts,
  });
  if (!generated) return null;
  let template: ReturnType<typeof templateReportContent> | undefined;
  const local = () => (template ??= templateReportContent(prospect));
  const meta = MetaSeo.safeParse(parseJson(stored.metaSeo));
  const ad = PerfectAd.safeParse(parseJson(stored.perfectAd));
  return {
    metaSEO: meta.success ? meta.data : local().metaSEO,
    perfectAd: ad.success ? ad.data : local().perfectAd,
    gmbArticles: parseList(stored.gmbArticles, GmbArticle),
    blogStructures: parseList(stored.blogStructures, BlogStructure),
    facebookPosts: parseList(stored.facebookPosts, FacebookPost).map((post) => completePost(post, prospect)),
    seoPotential: potentialFromScore(stored.seoPotential),
  };
}

/**
 * The report's SEO potential is the audit's overall score wherever the report shows that audit (issue 39): the figure
 * at the top and the audit's "SEO potential" below never disagree, and an audit without data gives no figure (its own
 * panel says "No data", once) instead of a stored one it did not ground. Without an audit, the stored score stands.
 */
export function withAuditPotential(content: ReportViewContent | null, audit: Pick<AuditView, "score"> | null | undefined): ReportViewContent | null {
  if (!content || !audit) return content;
  const overall = audit.score.overall;
  return { ...content, seoPotential: overall === null ? null : potentialFromScore(Math.min(100, Math.max(1, overall))) };
}

/** Public path of a report's share link. */
export function sharedReportPath(id: string): string {
  return `/shared/reports/${id}`;
}

/**
 * The Open Graph card's version: the report's, and the brand's stamp once a brand is set (the card names the agency).
 * Pure, beside the page's path: the page names its card without loading the card's renderer (and its WebAssembly).
 */
export function cardVersion(version: number, brand = ""): string {
  return brand ? `${version}.${brand}` : String(version);
}

/** Public path of the card; `v` makes each version its own URL, so the image can be cached for good. */
export function ogCardPath(id: string, version: number, brand = ""): string {
  return `/shared/reports/${encodeURIComponent(id)}/card.png?v=${cardVersion(version, brand)}`;
}
