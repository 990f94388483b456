// The Google posts' figures on the agency's clients view (issue 41): the scheduler's posts of one client. Refreshed
// when a post goes live, fails or is rejected. Pure: the web reads the shape.

/** Failed and rejected posts count over this many days. */
export const POST_FAILURES_DAYS = 30;

export type PostClientFigures = {
  /** When the latest post that went live was published; null when none has. */
  lastPublishedAt: string | null;
  /** Posts that failed or Google rejected, in the last POST_FAILURES_DAYS days. */
  failed: number;
  /** Posts waiting for their time to come. */
  scheduled: number;
};
