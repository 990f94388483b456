// The admin Jobs panel's data: reports queued, generating, failed or on template content, and its texts.
import type { ReportSource, ReportStatus } from "./view";

/** Why a report is on the Jobs panel. */
export type JobKind = "queued" | "generating" | "failed" | "template";
export const JOB_KINDS: JobKind[] = ["generating", "queued", "failed", "template"];

export const JOB_KIND_LABEL: Record<JobKind, string> = {
  generating: "Generating",
  queued: "Queued",
  failed: "Failed",
  template: "Template",
};

export type ReportJob = {
  id: string;
  kind: JobKind;
  status: ReportStatus;
  source: ReportSource | null;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  /** When the current status began to count (claim time while generating, due time while queued). */
  claimed_at: string | null;
  created_at: string;
  generated_at: string | null;
  prospect: { id: string; name: string; company_name: string | null };
};

export type ReportJobsResponse = {
  jobs: ReportJob[];
  counts: Record<JobKind, number>;
  /** More jobs exist than the list shows. */
  truncated: boolean;
  ai_configured: boolean;
};

export type RegenerateResponse = { job: ReportJob; enqueued: boolean; warning?: string };
export type RegenerateAllResponse = { queued: number; warning?: string };

export const JOBS_LIST_LIMIT = 200;
export const ALREADY_AI_MESSAGE = "This report already has AI content.";
export const AI_OFF_MESSAGE =
  "AI generation is not configured on this server, so regenerating would give template content again.";

/** Which panel group a report belongs to, or null when it is not a job (draft, or ready with AI content). */
export function jobKind(status: ReportStatus, source: ReportSource | null): JobKind | null {
  if (status === "queued" || status === "generating" || status === "failed") return status;
  if (status === "ready" && source === "template") return "template";
  return null;
}

/** What a template report's row says instead of an error: it is ready, its content is the template's. */
export const TEMPLATE_JOB_NOTE = "Ready with template content. Regenerate it for AI content.";

/**
 * The Jobs table's note: the last error of a job that is still to finish or failed. A report that is ready from the
 * template is not in error (issue 26), so it says so, whatever made it fall back.
 */
export function jobNote(job: Pick<ReportJob, "kind" | "last_error">): string | null {
  return job.kind === "template" ? TEMPLATE_JOB_NOTE : job.last_error;
}

/** A job the admin may (re)start: failed, or finished on template content. */
export function canRegenerate(kind: JobKind): boolean {
  return kind === "failed" || kind === "template";
}
