// The placeholder tool routes: apart from the tool catalogue (tools.ts), so that the route table, in the app shell,
// does not carry the catalogue that only signed-in screens show.

/**
 * The routes that show only 'This tool will be implemented soon' (spec §2 route table), with the name each page shows as its
 * title. GBP Audit and Local Search Audit left the list when they shipped (issue 18), the Local Search Grid and the
 * Local Rank Tracker with issue 19, the Citation Tracker (the last of them) with issue 27.
 */
export const PLACEHOLDER_TOOLS: Readonly<Record<string, string>> = {};

export const PLACEHOLDER_TOOL_PATHS = Object.keys(PLACEHOLDER_TOOLS);

/** The name a placeholder page shows for its path (a trailing slash or letter case do not matter). */
export function placeholderToolName(pathname: string): string {
  const key = pathname.toLowerCase().replace(/\/+$/, "");
  return PLACEHOLDER_TOOLS[key] ?? "Coming soon";
}
