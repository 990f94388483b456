// The tool catalogue shared by the sidebar and the dashboard (names and groups from spec §2).
export type ToolGroup = "content" | "social";

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
    available: false,
  },
  {
    name: "GMB Post Generator",
    path: "/tools/gmb-post-generator",
    group: "content",
    blurb: "Write offers, updates and events for your Google Business Profile in seconds.",
    available: false,
  },
  {
    name: "Facebook Post Generator",
    path: "/tools/facebook-post-generator",
    group: "social",
    blurb: "Turn a sentence about your business into a ready-to-publish Facebook post.",
    available: true,
    isNew: true,
  },
  {
    name: "Social Plan",
    path: "/tools/social-plan",
    group: "social",
    blurb: "A weekly posting plan built around your trade, season and service area.",
    available: false,
  },
  {
    name: "Social Post Generator",
    path: "/tools/social-post-generator",
    group: "social",
    blurb: "Captions for Instagram, LinkedIn and more, in your brand's voice.",
    available: false,
  },
  {
    name: "Video Script Generator",
    path: "/tools/video-script-generator",
    group: "social",
    blurb: "Short scripts for job-site walkthroughs, tips and customer stories.",
    available: false,
  },
];

export const GROUP_LABELS: Record<ToolGroup, { sidebar: string; dashboard: string }> = {
  content: { sidebar: "Content", dashboard: "Content Tools" },
  social: { sidebar: "Social", dashboard: "Social Media Tools" },
};

/** The dashboard shows the coming-soon tools: Content Tools (2) and Social Media Tools (3). */
export const DASHBOARD_TOOLS = TOOLS.filter((t) => !t.available);
/** 'count of tools' on the dashboard (spec §9: 5). */
export const DASHBOARD_TOOL_COUNT = DASHBOARD_TOOLS.length;

/** The routes that show only 'This tool will be implemented soon' (spec §2 route table). */
export const PLACEHOLDER_TOOL_PATHS = [
  "/tools/local-rank-tracker",
  "/tools/local-search-grid",
  "/tools/citation-tracker",
  "/tools/gbp-audit",
  "/tools/local-search-audit",
  "/tools/gmb-post-scheduler",
  "/tools/gmb-post-generator",
  "/tools/social-plan",
  "/tools/social-post-generator",
  "/tools/video-script-generator",
  "/integrations",
] as const;
