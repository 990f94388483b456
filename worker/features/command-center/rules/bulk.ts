// The clients view's bulk actions (issue 41): what an admin may start for the selected clients, the input, and what the
// estimate and the run answer per client. Pure: the web imports it.
import { z } from "zod";
import { CLIENTS_PAGE_SIZE } from "./clients";

export const BULK_ACTIONS = ["sync_reviews", "run_grid", "citation_scan", "ai_scan", "build_reports", "send_reports"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export const BULK_ACTION_LABELS: Record<BulkAction, string> = {
  sync_reviews: "Sync reviews",
  run_grid: "Run their last grid again",
  citation_scan: "Run a citation scan",
  ai_scan: "Run an AI Visibility scan",
  build_reports: "Build last month's reports",
  send_reports: "Send last month's reports",
};

/** A selection is at most one page of the clients view. */
export const BULK_MAX_CLIENTS = CLIENTS_PAGE_SIZE;

export const BulkInput = z
  .object({
    action: z.enum(BULK_ACTIONS),
    userIds: z
      .array(z.string().trim().min(1).max(100))
      .min(1, "Select at least one client")
      .max(BULK_MAX_CLIENTS, `Select at most ${BULK_MAX_CLIENTS} clients at a time`)
      .transform((ids) => [...new Set(ids)]),
  })
  .strict();
export type BulkInput = z.infer<typeof BulkInput>;

/**
 * One client in an estimate or a run. ready: it would start (its cost); over_allowance: its cost is more than is left
 * of its allowance; skipped: it cannot run (not a client, not connected, no grid yet ... in `message`); started and
 * failed: after the run.
 */
export type BulkItemStatus = "ready" | "over_allowance" | "skipped" | "started" | "failed";
export type BulkItem = { userId: string; name: string; status: BulkItemStatus; costUsd: number; allowanceLeftUsd: number | null; code: string | null; message: string | null };

export type BulkEstimate = {
  action: BulkAction;
  /** Whether the run may start: every ready client within its allowance, the sum within the operator's ceiling. */
  allowed: boolean;
  /** Why not (the 402's code and words), when it may not. */
  refusal: { code: string; message: string } | null;
  costUsd: number;
  ready: number;
  ceilingLeftUsd: number;
  items: BulkItem[];
};
export type BulkResult = { action: BulkAction; started: number; failed: number; skipped: number; costUsd: number; items: BulkItem[] };

export const BULK_WORDING = {
  overAllowance: (n: number) => `${n === 1 ? "One client does" : `${n} clients do`} not have enough AI allowance left for this. Deselect ${n === 1 ? "it" : "them"}, or raise their allowance on Usage, then try again.`,
  overCeiling: (cost: number, left: number) => `This would cost about $${cost.toFixed(2)}, more than is left of today's spending limit ($${left.toFixed(2)}). Select fewer clients, or try again tomorrow.`,
  freePool: "Free accounts have used today's share of AI features. Select paying clients only, or try again tomorrow.",
  notClient: "Not a client (an admin, or the account is gone).",
  nothingToRun: "None of the selected clients can run this: see why beside each.",
} as const;

/** The 402's code: which limit refused the selection. */
export const BulkErrorCode = { overAllowance: "allowance_exceeded", overCeiling: "spend_ceiling_reached", freePool: "free_pool_reached", nothingToRun: "nothing_to_run" } as const;
