// The tool catalogue shared by the sidebar, the dashboard and the placeholder pages (names and groups from spec §2).
export type ToolGroup = "content" | "social" | "search" | "reputation";

export type Tool = {
  name: string;
  path: string;
  group: ToolGroup;
  /** One line for the dashboard card. */
  blurb: string;
  available: boolean;
  isNew?: boolean;
};

export const TOOLS: readonly Tool[] = [
  {
    name: "GMB Post Scheduler",
    path: "/tools/gmb-post-scheduler",
    group: "content",
    blurb: "Plan a month of Google Business Profile posts and publish them on schedule.",
    available: true,
  },
  {
    name: "GMB Post Generator",
    path: "/tools/gmb-post-generator",
    group: "content",
    blurb: "Write offers, updates and events for your Google Business Profile in seconds.",
    available: true,
  },
  {
    name: "Facebook Post Generator",
    path: "/tools/facebook-post-generator",
    group: "social",
    blurb: "Turn a sentence about your business into a ready-to-publish Facebook post.",
    available: true,
  },
  {
    name: "Social Plan",
    path: "/tools/social-plan",
    group: "social",
    blurb: "A month of post ideas on a calendar, built around your trade, season and service area.",
    available: true,
  },
  {
    name: "Social Post Generator",
    path: "/tools/social-post-generator",
    group: "social",
    blurb: "Captions for Instagram, LinkedIn and more, in your brand's voice.",
    available: true,
  },
  {
    name: "Video Script Generator",
    path: "/tools/video-script-generator",
    group: "social",
    blurb: "Short scripts for job-site walkthroughs, tips and customer stories.",
    available: true,
  },
  // Spec part 2 §2 has the two search tools but no menu entry for them: a customer must be able to find them.
  {
    name: "Google Search Results",
    path: "/tools/google-results",
    group: "search",
    blurb: "See the top Google results for a keyword in your area, and copy what you need.",
    available: true,
  },
  {
    name: "Local Services Analyzer",
    path: "/tools/google-ads-analyzer",
    group: "search",
    blurb: "See how local businesses present themselves on Google, and borrow what works.",
    available: true,
  },
  {
    name: "Local Search Audit",
    path: "/tools/local-search-audit",
    group: "search",
    blurb: "Audit your website, Google listing, page speed and rankings, and see what to fix first.",
    available: true,
  },
  {
    name: "GBP Audit",
    path: "/tools/gbp-audit",
    group: "search",
    blurb: "Check your Google Business Profile, reviews and rating against the top competitors nearby.",
    available: true,
  },
  {
    name: "Local Search Grid",
    path: "/tools/local-search-grid",
    group: "search",
    blurb: "See where you rank on Google Maps from points all over your service area, as a heat map.",
    available: true,
  },
  {
    name: "Local Rank Tracker",
    path: "/tools/local-rank-tracker",
    group: "search",
    blurb: "Track your map-pack and organic positions for the keywords that bring you work, daily or weekly.",
    available: true,
  },
  {
    name: "Citation Tracker",
    path: "/tools/citation-tracker",
    group: "search",
    blurb: "See where your business is listed across the web, which listings are wrong, and exactly what to fix where.",
    available: true,
  },
  {
    name: "AI Visibility",
    path: "/tools/ai-visibility",
    group: "search",
    blurb: "See whether ChatGPT, Google's AI answers, Perplexity and Gemini recommend you, how sure that is, and why not.",
    available: true,
    isNew: true,
  },
  {
    name: "Reviews",
    path: "/tools/reviews",
    group: "reputation",
    blurb: "Every Google review in one inbox, with a reply drafted in your voice, and more reviews asked for.",
    available: true,
  },
];

export const GROUP_LABELS: Record<ToolGroup, { sidebar: string; dashboard: string }> = {
  content: { sidebar: "Content", dashboard: "Content Tools" },
  social: { sidebar: "Social", dashboard: "Social Media Tools" },
  search: { sidebar: "Search", dashboard: "Search Tools" },
  reputation: { sidebar: "Reputation", dashboard: "Reputation Tools" },
};

/** The sidebar's Tools groups, in order: the spec's two, then Search, then Reputation (issue 28). */
export const SIDEBAR_GROUPS: readonly ToolGroup[] = ["content", "social", "search", "reputation"];

/** The tools that work, first on the dashboard in a group of their own (each tool joins as it ships). */
export const WORKING_TOOLS = TOOLS.filter((t) => t.available);
/** How many tools work today: the one count the landing page and the dashboard both say (issue 26). */
export const TOOL_COUNT = WORKING_TOOLS.length;
/** The spec's two dashboard groups, coming-soon tools only: Content Tools (2) and Social Media Tools (3). */
export const COMING_SOON_GROUPS: readonly ToolGroup[] = ["content", "social"];
export const DASHBOARD_TOOLS = TOOLS.filter((t) => !t.available && COMING_SOON_GROUPS.includes(t.group));
/** 'count of tools' on the dashboard (spec §9: 5, as long as any of the spec's tools is still to come). */
export const DASHBOARD_TOOL_COUNT = DASHBOARD_TOOLS.length;
