// The dashboard's tools as the spec lists them (issues 18 to 20, 27 to 29): its groups' headings (with their counts)
// and every tool card in order; the screen's tests and the new-user journey expect the same.
export const DASHBOARD_GROUPS = ["Content Tools2", "Social Media Tools4", "Search Tools8", "Reputation Tools1"];

export const DASHBOARD_TOOLS = [
  "GMB Post Scheduler",
  "GMB Post Generator",
  "Facebook Post Generator",
  "Social Plan",
  "Social Post Generator",
  "Video Script Generator",
  "Google Search Results",
  "Local Services Analyzer",
  "Local Search Audit",
  "GBP Audit",
  "Local Search Grid",
  "Local Rank Tracker",
  "Citation Tracker",
  "AI Visibility",
  "Reviews",
];
