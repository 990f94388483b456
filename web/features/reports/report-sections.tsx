// The sections of an SEO report (spec part 2 §2), shared by the admin view and the public shared page.
// Every AI-written value is rendered as text: nothing here sets HTML. SSR-safe: the worker renders these
// to HTML for the shared page; behaviour is attached through data-* attributes (see web/lib/copy-buttons.ts).
import { useState, type ComponentType, type ReactNode } from "react";
import type { BlogStructure, CompleteFacebookPost, GmbArticle, MetaSeo, PerfectAd } from "../../../worker/features/reports/rules/content";
import { displayUrlForAd } from "../../../worker/features/reports/rules/format";
import type { ReportViewContent } from "../../../worker/features/reports/rules/view";
import { oneDecimal, rankingLabel, type Potential } from "../../../worker/features/reports/rules/seo-potential";
import { buttonClass, type ButtonVariant } from "../../design/button";
import {
  BookIcon,
  CheckCircleIcon,
  CheckIcon,
  CopyIcon,
  CodeIcon,
  FileTextIcon,
  MegaphoneIcon,
  MessageIcon,
  RepeatIcon,
  ReportSearchIcon,
  StoreIcon,
  ThumbsUpIcon,
  TrendingUpIcon,
} from "../../design/icons";

export type ReportVariant = "admin" | "shared";

/** Section anchors (the shared page's overview cards scroll to them). */
export const SECTION_IDS = {
  potential: "seo-potential",
  ads: "google-ads",
  meta: "meta-tags",
  description: "business-description",
  gmb: "gmb-articles",
  blog: "blog-structures",
  facebook: "facebook-posts",
} as const;

export const EMPTY_MESSAGES = {
  gmb: "No GMB article ideas available.",
  blog: "No blog structure ideas available.",
  facebook: "No Facebook post ideas available.",
} as const;

type IconType = ComponentType<{ size?: "sm" | "md" }>;

/**
 * A copy button as plain markup: the text travels in data-copy and a delegated handler copies it and
 * shows data-copied-label for a while (useCopyButtons in the SPA, the shared page's own script).
 */
export function CopyButton({
  text,
  label,
  copiedLabel = "Copied",
  variant = "secondary",
}: {
  text: string;
  label: string;
  copiedLabel?: string;
  variant?: ButtonVariant;
}) {
  return (
    <button
      type="button"
      className={`${buttonClass(variant, "sm")} report-copy`}
      data-copy={text}
      data-copied-label={copiedLabel}
      aria-live="polite"
    >
      <CopyIcon size="sm" className="report-copy-idle" />
      <CheckIcon size="sm" className="report-copy-done" />
      <span data-copy-label>{label}</span>
    </button>
  );
}

export function ReportSection({
  id,
  icon: Icon,
  title,
  subtitle,
  actions,
  children,
}: {
  id: string;
  icon: IconType;
  title: string;
  subtitle?: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const headingId = `${id}-title`;
  return (
    <section className="report-section card" id={id} aria-labelledby={headingId} tabIndex={-1}>
      <header className="report-section-head">
        <span className="report-section-icon">
          <Icon />
        </span>
        <div className="report-section-heading">
          <h2 id={headingId}>{title}</h2>
          {subtitle ? <p>{subtitle}</p> : null}
        </div>
        {actions ? <div className="report-section-actions">{actions}</div> : null}
      </header>
      <div className="report-section-body">{children}</div>
    </section>
  );
}

function ReasonList({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <div className="report-reasons">
      <h3>{title}</h3>
      <ul>
        {items.map((item, i) => (
          <li key={i}>
            <CheckCircleIcon size="sm" />
            <span>{item}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Chips({ items, primaryFirst = false }: { items: string[]; primaryFirst?: boolean }) {
  return (
    <ul className="report-chips" aria-label="Target keywords">
      {items.map((keyword, i) => (
        <li key={i} className={primaryFirst && i === 0 ? "report-chip is-primary" : "report-chip"}>
          {keyword}
          {primaryFirst && i === 0 ? <span className="report-chip-tag">Primary</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** HIGH / MEDIUM / LOW as a CSS modifier. */
function levelClass(score: number) {
  return `is-${rankingLabel(score).toLowerCase()}`;
}

export function PotentialSection({ potential, variant }: { potential: Potential; variant: ReportVariant }) {
  const label = rankingLabel(potential.score);
  const score = Math.max(0, Math.min(100, Math.round(potential.score)));
  return (
    <ReportSection
      id={SECTION_IDS.potential}
      icon={TrendingUpIcon}
      title="SEO Potential Analysis"
      subtitle="How well this business can rank for its target keyword in its area."
    >
      <div className={`potential ${levelClass(potential.score)}`}>
        <div className="potential-main">
          <p className="caps-label potential-caption">Ranking Potential</p>
          <p className="potential-label" data-testid="ranking-label">
            {label}
          </p>
          <div
            className="potential-bar"
            role="progressbar"
            aria-label="Overall SEO score"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={score}
          >
            {/* An SVG bar: a style attribute would need 'unsafe-inline' in the shared page's CSP. */}
            <svg viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
              <rect width={score} height="10" rx="0" />
            </svg>
          </div>
          <p className="potential-score">
            <strong>{score}%</strong> overall score
          </p>
        </div>
        <dl className="potential-metrics">
          <div>
            <dt>Keyword Potential</dt>
            <dd>
              {oneDecimal(potential.keyword_potential)}
              <small>/10</small>
            </dd>
          </div>
          {variant === "shared" ? (
            <div>
              <dt>Business Relevance</dt>
              <dd>
                {oneDecimal(potential.business_relevance)}
                <small>/10</small>
              </dd>
            </div>
          ) : null}
          <div>
            <dt>Competition</dt>
            <dd>{potential.competition}</dd>
          </div>
        </dl>
      </div>
    </ReportSection>
  );
}

function adText(ad: PerfectAd) {
  return [ad.title, displayUrlForAd(ad.displayUrl), ad.description].join("\n");
}

export function AdSection({ ad }: { ad: PerfectAd }) {
  return (
    <ReportSection
      id={SECTION_IDS.ads}
      icon={MegaphoneIcon}
      title="Google Ads Analysis"
      subtitle="A search ad written for this business and keyword."
      actions={<CopyButton text={adText(ad)} label="Copy Ad" />}
    >
      <div className="search-preview is-ad">
        <p className="search-preview-meta">
          <span className="search-preview-sponsored">Sponsored</span>
          <span className="search-preview-url">{displayUrlForAd(ad.displayUrl)}</span>
        </p>
        <p className="search-preview-title">{ad.title}</p>
        <p className="search-preview-text">{ad.description}</p>
      </div>
      <ReasonList title="Why This Copy Works" items={ad.improvements} />
    </ReportSection>
  );
}

function escapeHtml(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The HTML a site owner pastes into the page head: title, meta description, canonical link. */
export function metaSnippet(meta: MetaSeo): string {
  return [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    `<link rel="canonical" href="${escapeHtml(meta.url)}">`,
  ].join("\n");
}

function breadcrumbUrl(url: string) {
  try {
    const u = new URL(url);
    const path = u.pathname.split("/").filter(Boolean);
    return [u.host, ...path].join(" › ");
  } catch {
    return url;
  }
}

const chars = (text: string) => `${[...text].length} characters`;

/** One side of the meta tags comparison: what the site has now, or what the report suggests. */
function MetaColumn({ heading, title, description }: { heading: string; title: string | null; description: string | null }) {
  return (
    <div className="meta-column">
      <h3>{heading}</h3>
      <dl>
        <dt>Title{title?.trim() ? ` · ${chars(title.trim())}` : ""}</dt>
        <dd>{title?.trim() || "None: Google makes one up from the page"}</dd>
        <dt>Description{description?.trim() ? ` · ${chars(description.trim())}` : ""}</dt>
        <dd>{description?.trim() || "None: Google picks a snippet of the page"}</dd>
      </dl>
    </div>
  );
}

/** The site's current title and description as the audit read them (issue 18), shown beside the suggested ones. */
export type CurrentMeta = { title: string | null; metaDescription: string | null; finalUrl: string };

export function MetaSection({ meta, current }: { meta: MetaSeo; current?: CurrentMeta | null }) {
  const snippet = metaSnippet(meta);
  const site = breadcrumbUrl(meta.url);
  const initial = (site.replace(/^www\./, "")[0] ?? "•").toUpperCase();
  return (
    <ReportSection
      id={SECTION_IDS.meta}
      icon={ReportSearchIcon}
      title="SEO Meta Tags Analysis"
      subtitle="How the business's page can look in Google's search results."
    >
      {current ? (
        <div className="meta-compare" aria-label="Meta tags now and suggested" role="group">
          <MetaColumn heading="On the site now" title={current.title} description={current.metaDescription} />
          <MetaColumn heading="Suggested" title={meta.title} description={meta.description} />
        </div>
      ) : null}
      <div className="search-preview">
        <p className="search-preview-meta">
          <span className="search-preview-favicon" aria-hidden="true">
            {initial}
          </span>
          <span className="search-preview-url">{site}</span>
        </p>
        <p className="search-preview-title">{meta.title}</p>
        <p className="search-preview-text">{meta.description}</p>
      </div>
      <ReasonList title="Why These Meta Tags Work" items={meta.improvements} />
      <div className="code-block">
        <div className="code-block-head">
          <span>
            <CodeIcon size="sm" /> HTML
          </span>
          <CopyButton text={snippet} label="Copy Code" variant="ghost" />
        </div>
        <pre>
          <code>{snippet}</code>
        </pre>
      </div>
    </ReportSection>
  );
}

export function DescriptionSection({ description }: { description: string }) {
  return (
    <ReportSection id={SECTION_IDS.description} icon={FileTextIcon} title="Business Description">
      <p className="report-prose">{description.trim() || "No description was given for this business."}</p>
    </ReportSection>
  );
}

/** The three lists of ideas: their heads, and what each says when the AI gave none. */
const IDEA_SECTIONS = {
  gmb: {
    id: SECTION_IDS.gmb,
    icon: StoreIcon,
    title: "Google My Business Article Ideas",
    subtitle: "Posts for the Google Business Profile that answer what local customers search for.",
  },
  blog: {
    id: SECTION_IDS.blog,
    icon: BookIcon,
    title: "Blog Post Article Structures",
    subtitle: "Ready-to-write outlines built around the keywords customers use.",
  },
  facebook: {
    id: SECTION_IDS.facebook,
    icon: ThumbsUpIcon,
    title: "Educational Facebook Posts",
    subtitle: "Helpful posts that build trust with local homeowners.",
  },
} as const;

function IdeaSection({ kind, count, children }: { kind: keyof typeof IDEA_SECTIONS; count: number; children: ReactNode }) {
  return (
    <ReportSection {...IDEA_SECTIONS[kind]}>
      {count === 0 ? <p className="report-empty">{EMPTY_MESSAGES[kind]}</p> : children}
    </ReportSection>
  );
}

export function GmbSection({ articles }: { articles: GmbArticle[] }) {
  return (
    <IdeaSection kind="gmb" count={articles.length}>
      <ol className="idea-grid">
        {articles.map((article, i) => (
          <li className="idea-card" key={i}>
            <span className="idea-number">{String(i + 1).padStart(2, "0")}</span>
            <h3>{article.title}</h3>
            <p>{article.subtitle}</p>
            <Chips items={article.targetKeywords} />
          </li>
        ))}
      </ol>
    </IdeaSection>
  );
}

export function BlogSection({ blogs }: { blogs: BlogStructure[] }) {
  return (
    <IdeaSection kind="blog" count={blogs.length}>
      <div className="blog-list">
        {blogs.map((blog, i) => (
          <article className="blog-card" key={i}>
            <h3>{blog.title}</h3>
            <ol className="blog-sections">
              {blog.sections.map((section, j) => (
                <li key={j}>{section}</li>
              ))}
            </ol>
            <Chips items={blog.targetKeywords} primaryFirst />
          </article>
        ))}
      </div>
    </IdeaSection>
  );
}

/** The words a placeholder image was made for ("placehold.co/600x400?text=roofer"), or null for a real image. */
function placeholderText(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.hostname !== "placehold.co") return null;
    return u.searchParams.get("text") ?? "";
  } catch {
    return "";
  }
}

export function PostImage({ image, title }: { image: string; title: string }) {
  const [failed, setFailed] = useState(false);
  const placeholder = placeholderText(image);
  // Placeholder images are drawn locally: no third-party request on a phone, and nothing broken offline.
  if (placeholder !== null || failed) {
    return (
      <div className="post-image is-drawn" role="img" aria-label={`Image idea: ${placeholder || title}`}>
        <span>{placeholder || title}</span>
      </div>
    );
  }
  // data-fallback: the shared page's script draws the same stand-in when the image fails there.
  return (
    <img
      className="post-image"
      src={image}
      alt=""
      loading="lazy"
      decoding="async"
      data-fallback={title}
      onError={() => setFailed(true)}
    />
  );
}

/** A post's likes, comments and shares, as Facebook shows them under a post. */
export function PostStats({ likes, comments, shares, label }: { likes: number; comments: number; shares: number; label: string }) {
  return (
    <footer className="post-stats" aria-label={label}>
      <span>
        <ThumbsUpIcon size="sm" /> {likes} likes
      </span>
      <span>
        <MessageIcon size="sm" /> {comments} comments
      </span>
      <span>
        <RepeatIcon size="sm" /> {shares} shares
      </span>
    </footer>
  );
}

function PostCard({ post, variant }: { post: CompleteFacebookPost; variant: ReportVariant }) {
  const author = post.author || "Business";
  return (
    <article className="post-card">
      <header className="post-head">
        <span className="post-avatar" aria-hidden="true">
          {author.trim()[0]?.toUpperCase() ?? "B"}
        </span>
        <div>
          <p className="post-author">{author}</p>
          <p className="post-meta">Suggested post</p>
        </div>
      </header>
      <h3 className="post-title">{post.title}</h3>
      <p className="post-content">{post.content}</p>
      <PostImage image={post.image} title={post.title} />
      {variant === "shared" ? <PostStats likes={post.likes} comments={post.comments} shares={post.shares} label="Expected engagement" /> : null}
    </article>
  );
}

export function FacebookSection({ posts, variant }: { posts: CompleteFacebookPost[]; variant: ReportVariant }) {
  return (
    <IdeaSection kind="facebook" count={posts.length}>
      <div className="post-grid">
        {posts.map((post, i) => (
          <PostCard post={post} variant={variant} key={i} />
        ))}
      </div>
    </IdeaSection>
  );
}

/** Every section in the spec's order. */
export function ReportSections({
  content,
  description,
  variant,
  site = null,
}: {
  content: ReportViewContent;
  description: string;
  variant: ReportVariant;
  /** The site's current meta tags, when an audit read them. */
  site?: CurrentMeta | null;
}) {
  return (
    <div className="report-sections">
      {content.seoPotential ? <PotentialSection potential={content.seoPotential} variant={variant} /> : null}
      <AdSection ad={content.perfectAd} />
      <MetaSection meta={content.metaSEO} current={site} />
      <DescriptionSection description={description} />
      <GmbSection articles={content.gmbArticles} />
      <BlogSection blogs={content.blogStructures} />
      <FacebookSection posts={content.facebookPosts} variant={variant} />
    </div>
  );
}
