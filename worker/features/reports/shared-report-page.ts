// The shared report as a complete HTML document: <head> with title, description, Open Graph and Twitter card
// tags, the page's own script and stylesheet; <body> rendered by React from the SPA's own components, which the
// worker's entry hands over (worker/ssr.tsx): a capability does not import the web app.
import { NOT_FOUND_TITLE, senderName, type SharedReportResponse } from "./rules/view";
import { TRUSTED_IMAGE_ORIGINS } from "../../domain/image-hosts";
import { rankingLabel } from "./rules/seo-potential";
import { DEFAULT_BRAND, type PublicBrand } from "../../platform/brand/rules/brand";
import { brandThemeHref } from "../../platform/brand/rules/theme";

/** What draws the page's body: the web app's own views (web/features/reports/shared-report-view.tsx) as HTML. */
export type SharedReportViews = {
  /** The report, or the page saying it is being prepared. */
  report(data: SharedReportResponse): string;
  /** The spec's "Report Not Found" page, in the agency's brand. */
  notFound(brand: PublicBrand): string;
};

let views: SharedReportViews | null = null;

/** Called by the worker's entry (worker/ssr.tsx) before any request. */
export function provideSharedReportViews(given: SharedReportViews): void {
  views = given;
}

function drawn(): SharedReportViews {
  if (!views) throw new Error("The shared report's views were not provided: the worker's entry imports worker/ssr.tsx.");
  return views;
}

/** A report still being generated refreshes itself this often (meta refresh: the CSP allows no inline script). */
export const PREPARING_REFRESH_SECONDS = 10;
/** A ready report whose audit is still running (page speed takes up to a minute) refreshes less often, until it is done. */
export const AUDIT_RUNNING_REFRESH_SECONDS = 20;

/** Only what the page needs: its own script and stylesheet, images from itself (the stored logo) and the hosts the app writes. */
export const SHARED_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  `img-src 'self' data: ${TRUSTED_IMAGE_ORIGINS.join(" ")}`,
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The same policy with the page's inline stylesheets and scripts allowed by their hashes (never 'unsafe-inline'). */
export function sharedPageCsp(hashes: { styles: string[]; scripts: string[] }): string {
  let csp = SHARED_PAGE_CSP;
  if (hashes.scripts.length) csp = csp.replace("script-src 'self'", `script-src 'self' ${hashes.scripts.join(" ")}`);
  if (hashes.styles.length) csp = csp.replace("style-src 'self'", `style-src 'self' ${hashes.styles.join(" ")}`);
  return csp;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

export type PageMeta = { title: string; description: string; url: string; image: string | null; imageAlt: string; siteName: string };

/** Title and description built from the report: business, area, SEO potential and what it holds. */
export function sharedReportMeta(data: SharedReportResponse, urls: { page: string; image: string }): PageMeta {
  const { prospect, report } = data;
  const agency = senderName(data.sender);
  const where = prospect.area ? ` in ${prospect.area}` : "";
  const title = `SEO & Marketing Report for ${prospect.name}${where}`;
  const content = report.status === "ready" ? report.content : null;
  let description: string;
  if (content) {
    const score = content.seoPotential ? Math.round(content.seoPotential.score) : null;
    const parts = [
      "a ready-to-run Google ad",
      "search meta tags",
      `${content.gmbArticles.length} Google Business post ideas`,
      `${content.blogStructures.length} blog outlines`,
      `${content.facebookPosts.length} Facebook posts`,
    ];
    description =
      (score === null ? "" : `SEO potential ${score}% (${rankingLabel(score)})${prospect.keyword ? ` for “${prospect.keyword}”` : ""}. `) +
      `Inside: ${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}. Prepared by ${agency}.`;
  } else {
    description = `${agency} is preparing an SEO & marketing report for ${prospect.name}${where}.`;
  }
  return {
    title,
    description,
    url: urls.page,
    image: content ? urls.image : null,
    imageAlt: `${prospect.name}: SEO & marketing report by ${agency}`,
    siteName: agency,
  };
}

/** The head of a shared page (the client report's too): charset, viewport, noindex, title, description, Open Graph. */
export function headTags(meta: PageMeta | null, title: string, assets: string[], refreshSeconds: number | null): string {
  const tags = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="theme-color" content="#1b2433">',
    // A link to one prospect's report is not for search engines.
    '<meta name="robots" content="noindex, nofollow">',
    `<title>${escapeHtml(title)}</title>`,
    '<link rel="icon" type="image/svg+xml" href="/favicon.svg">',
  ];
  if (refreshSeconds) tags.push(`<meta http-equiv="refresh" content="${refreshSeconds}">`);
  if (meta) {
    const attr = (name: string, value: string, key = "property") => `<meta ${key}="${name}" content="${escapeHtml(value)}">`;
    tags.push(
      attr("description", meta.description, "name"),
      `<link rel="canonical" href="${escapeHtml(meta.url)}">`,
      attr("og:type", "article"),
      attr("og:site_name", meta.siteName),
      attr("og:title", meta.title),
      attr("og:description", meta.description),
      attr("og:url", meta.url),
      attr("twitter:card", meta.image ? "summary_large_image" : "summary", "name"),
      attr("twitter:title", meta.title, "name"),
      attr("twitter:description", meta.description, "name"),
    );
    if (meta.image) {
      tags.push(
        attr("og:image", meta.image),
        attr("og:image:type", "image/png"),
        attr("og:image:width", "1200"),
        attr("og:image:height", "630"),
        attr("og:image:alt", meta.imageAlt),
        attr("twitter:image", meta.image, "name"),
        attr("twitter:image:alt", meta.imageAlt, "name"),
      );
    }
  }
  return [...tags, ...assets].join("");
}

/** The brand's accent stylesheet, when it has an accent (the page's CSP allows no inline style). */
export function themeTags(brand: PublicBrand): string[] {
  return brand.accentColor ? [`<link rel="stylesheet" href="${escapeHtml(brandThemeHref(brand.accentColor))}">`] : [];
}

function documentHtml(head: string, body: string): string {
  return `<!doctype html><html lang="en"><head>${head}</head><body>${body}</body></html>`;
}

export function renderSharedReportPage(
  data: SharedReportResponse,
  opts: { pageUrl: string; imageUrl: string; assets: string[] },
): string {
  const meta = sharedReportMeta(data, { page: opts.pageUrl, image: opts.imageUrl });
  const ready = data.report.status === "ready" && data.report.content;
  const title = ready ? `${data.prospect.name} · SEO Report` : `${data.prospect.name} · Report in preparation`;
  const body = drawn().report(data);
  const auditRunning = Boolean(data.audit && data.audit.status !== "done");
  const refresh = !ready ? PREPARING_REFRESH_SECONDS : auditRunning ? AUDIT_RUNNING_REFRESH_SECONDS : null;
  return documentHtml(headTags(meta, title, [...opts.assets, ...(data.brand ? themeTags(data.brand) : [])], refresh), body);
}

export function renderNotFoundPage(assets: string[], brand: PublicBrand = DEFAULT_BRAND): string {
  // Only the stylesheet: the not-found page has nothing to make interactive.
  const styles = assets.filter((tag) => tag.startsWith("<link") && tag.includes('rel="stylesheet"'));
  return documentHtml(headTags(null, `${NOT_FOUND_TITLE} · ${brand.name}`, [...styles, ...themeTags(brand)], null), drawn().notFound(brand));
}
