// Months for which the fake Google's Performance API refuses one of its two calls (plain values: worker tests import them).
/** A month ("YYYY-MM") whose search terms the fake refuses with 503 (the daily figures still answer). */
export const FAKE_KEYWORDS_DOWN_MONTH = "2026-03";
/** A month whose daily figures the fake refuses with 503 (asked up to its last day; the search terms still answer). */
export const FAKE_FIGURES_DOWN_MONTH = "2026-04";
