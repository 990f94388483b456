// The clients view's words and shapes (issue 41): its sorts, filters and columns, the query and the manager's input,
// and the row the screen reads. Pure: the web imports it.
import { z } from "zod";
import type { HealthLevel } from "./health";
import type { ReviewClientFigures } from "../../reviews/rules/client-figures";
import type { RankClientFigures } from "../../rank/rules/client-figures";
import type { CitationClientFigures } from "../../citations/rules/client-figures";
import type { AiClientFigures } from "../../ai-visibility/rules/client-figures";
import type { PostClientFigures } from "../../content/rules/client-figures";
import type { ReportClientFigures } from "../../client-reports/rules/client-figures";
import type { UsageClientFigures } from "../../usage/rules/client-figures";

export const CLIENT_SORTS = ["health", "name", "reviews", "rank", "citations", "ai", "usage"] as const;
export type ClientSort = (typeof CLIENT_SORTS)[number];
export const CLIENT_SORT_LABELS: Record<ClientSort, string> = {
  health: "Needs action first",
  name: "Name",
  reviews: "Unanswered reviews",
  rank: "Lowest map visibility",
  citations: "Lowest citation score",
  ai: "Lowest AI visibility",
  usage: "Most AI spend",
};

export const CLIENT_FILTERS = ["all", "act", "watch", "google_off", "no_manager"] as const;
export type ClientFilter = (typeof CLIENT_FILTERS)[number];
export const CLIENT_FILTER_LABELS: Record<ClientFilter, string> = {
  all: "All clients",
  act: "Needs action",
  watch: "Needs action or watch",
  google_off: "Google not connected",
  no_manager: "No account manager",
};

/** The columns an admin may hide (the client's name always shows). */
export const CLIENT_COLUMNS = ["health", "plan", "manager", "google", "reviews", "rank", "citations", "ai", "posts", "report", "usage"] as const;
export type ClientColumn = (typeof CLIENT_COLUMNS)[number];
export const CLIENT_COLUMN_LABELS: Record<ClientColumn, string> = {
  health: "Health",
  plan: "Plan",
  manager: "Manager",
  google: "Google",
  reviews: "Reviews",
  rank: "Map rank",
  citations: "Citations",
  ai: "AI visibility",
  posts: "Posts",
  report: "Monthly report",
  usage: "AI usage",
};

export const CLIENTS_PAGE_SIZE = 50;

export const ClientsQuery = z.object({
  sort: z.enum(CLIENT_SORTS).optional(),
  filter: z.enum(CLIENT_FILTERS).optional(),
  q: z.string().trim().max(100).optional(),
  /** "me", an admin's user id, or absent for everyone's clients. */
  manager: z.string().trim().min(1).max(100).optional(),
  page: z.coerce.number().int().min(1).max(1000).optional(),
});
export type ClientsQuery = z.infer<typeof ClientsQuery>;

export const ManagerInput = z.object({ managerId: z.string().trim().min(1).max(100).nullable() }).strict();

const SavedView = z.object({
  name: z.string().trim().min(1).max(60),
  sort: z.enum(CLIENT_SORTS),
  filter: z.enum(CLIENT_FILTERS),
  q: z.string().trim().max(100),
  manager: z.string().trim().max(100),
});
export type SavedView = z.infer<typeof SavedView>;

export const ViewSettingsInput = z
  .object({
    hiddenColumns: z.array(z.enum(CLIENT_COLUMNS)).max(CLIENT_COLUMNS.length),
    views: z.array(SavedView).max(20),
  })
  .strict();
export type ViewSettings = z.infer<typeof ViewSettingsInput>;

export const CLIENTS_WORDING = {
  loading: "Loading your clients...",
  failed: "Failed to load clients: ",
  none: "No business clients yet. When a business signs up, it is listed here with its figures.",
  noMatch: "No client matches these filters.",
  notFilled: "Figures arrive within the hour for a new client.",
  notClient: "Client not found",
  notAdmin: "An account manager must be an admin.",
} as const;

/** One client as the view shows it; each group is its capability's figures (null: no data yet). */
export type ClientRow = {
  userId: string;
  name: string;
  email: string;
  plan: string | null;
  manager: { id: string; email: string } | null;
  google: "none" | "connected" | "needs_reconnect" | "choosing";
  health: { level: HealthLevel; text: string; reasons: string[] };
  reviews: ReviewClientFigures | null;
  rank: RankClientFigures | null;
  citations: CitationClientFigures | null;
  ai: AiClientFigures | null;
  posts: PostClientFigures | null;
  report: ReportClientFigures | null;
  usage: UsageClientFigures | null;
  updatedAt: string | null;
};

export type ClientsResponse = {
  clients: ClientRow[];
  total: number;
  page: number;
  pageSize: number;
  admins: { id: string; email: string }[];
  settings: ViewSettings;
};
