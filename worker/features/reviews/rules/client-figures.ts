// The reviews' figures on the agency's clients view (issue 41): what the stored row keeps of one client's Google
// reviews, refreshed when a sync stores reviews or a reply is published or deleted. Pure: the web reads the shape.

export type ReviewClientFigures = {
  /** Reviews Google still lists. */
  total: number;
  /** Of them, written this calendar month (UTC). */
  newThisMonth: number;
  /** Google's average when a sync stored it, else the mean of the stars (one decimal); null without reviews. */
  average: number | null;
  /** Without a reply. */
  unanswered: number;
  /** Of them, rated 1–3 stars. */
  lowUnanswered: number;
  /** Replied ÷ listed, 0..1 (two decimals); null without reviews. */
  replyRate: number | null;
};

/** The figures from the one aggregate row the query reads. */
export function reviewClientFiguresOf(row: { total: number; newThisMonth: number; googleAverage: number | null; meanStars: number | null; unanswered: number; lowUnanswered: number; replied: number }): ReviewClientFigures {
  const total = Number(row.total);
  const mean = row.meanStars === null ? null : Math.round(Number(row.meanStars) * 10) / 10;
  return {
    total,
    newThisMonth: Number(row.newThisMonth),
    average: row.googleAverage ?? (total > 0 ? mean : null),
    unanswered: Number(row.unanswered),
    lowUnanswered: Number(row.lowUnanswered),
    replyRate: total > 0 ? Math.round((Number(row.replied) / total) * 100) / 100 : null,
  };
}
