// What the website and page-speed clients read from a business's site (worker/platform/providers/website.ts,
// pagespeed.ts), as the audit's checks take it (worker/features/audits/rules/checks.ts). Pure types.

/** What the HTMLRewriter step records about the fetched page. */
export type PageFacts = {
  /** The URL first requested, then each redirect's target; the last is the page read. */
  redirectChain: string[];
  finalUrl: string;
  title: string | null;
  metaDescription: string | null;
  h1Count: number;
  canonical: string | null;
  viewport: string | null;
  lang: string | null;
  /** The robots meta or X-Robots-Tag says noindex. */
  noindex: boolean;
  /** The raw text of each `<script type="application/ld+json">`. */
  jsonLd: string[];
  /** The href of each `tel:` link. */
  telLinks: string[];
  /** The page's visible text (or the parts of it the step kept), searched for phone numbers. */
  text: string;
  /** Open Graph properties seen, e.g. { "og:title": "…" }. */
  openGraph: Record<string, string>;
  /** Names of the analytics tags seen (gtag, GTM, Plausible …); empty when none. */
  analytics: string[];
};

/** The page-speed step's outcome: the figures Google gave, or why there are none. */
export type PageSpeedInput =
  | {
      status: "ok";
      /** Lighthouse performance score, 0–100. */
      performanceScore: number | null;
      lcpMs: number | null;
      inpMs: number | null;
      cls: number | null;
      source: "field" | "lab";
    }
  | { status: "failed"; reason: string };
