// SEO potential derived from a report's stored score, and how it is labelled (part 2 §4, §9).

export type Competition = "Low" | "Medium" | "High";

export type Potential = {
  score: number;
  keyword_potential: number;
  business_relevance: number;
  competition: Competition;
};

export const DEFAULT_POTENTIAL: Potential = {
  score: 85,
  keyword_potential: 8.5,
  business_relevance: 9.2,
  competition: "Low",
};

export function competitionForScore(score: number): Competition {
  if (score > 80) return "Low";
  if (score > 60) return "Medium";
  return "High";
}

export function potentialFromScore(score: number | null | undefined): Potential {
  if (score == null || !Number.isFinite(score)) return { ...DEFAULT_POTENTIAL };
  return {
    score,
    keyword_potential: score / 10,
    business_relevance: (score / 100) * 9.5,
    competition: competitionForScore(score),
  };
}

export type RankingLabel = "HIGH" | "MEDIUM" | "LOW";

export function rankingLabel(score: number): RankingLabel {
  if (score >= 80) return "HIGH";
  if (score >= 60) return "MEDIUM";
  return "LOW";
}

export function oneDecimal(value: number): string {
  return value.toFixed(1);
}
