// A realistic built payload of the monthly client report (issue 30), every section filled: the worker tests' fixture
// and the bench's (plain data, no bindings).
import type { ClientReportPayload, Compared } from "../../../worker/features/client-reports/rules/client-report";

const compared = (current: number | null, previous: number | null): Compared => ({
  current,
  previous,
  delta: current !== null && previous !== null ? current - previous : null,
  percent: current !== null && previous !== null && previous !== 0 ? Math.round(((current - previous) / previous) * 1000) / 10 : null,
});

/** 5 × 5 ranks, row-major (null: not in the top 20). */
const RANKS_NOW = [1, 1, 2, 3, 5, 1, 1, 1, 2, 4, 2, 1, 1, 2, 6, 3, 2, 2, 4, 9, 7, 4, 5, 12, null];
const RANKS_BEFORE = [3, 2, 4, 6, 9, 2, 2, 3, 5, 8, 4, 3, 2, 4, 11, 6, 5, 4, 8, 15, 12, 9, 10, null, null];

export function clientReportPayload(overrides: Partial<ClientReportPayload> = {}): ClientReportPayload {
  return {
    payloadVersion: 1,
    month: "2026-10",
    previousMonth: "2026-09",
    monthLabel: "October 2026",
    timeZone: "America/Chicago",
    builtAt: "2026-11-01T06:12:00.000Z",
    business: { name: "Ridge Roofing", website: "https://ridgeroofing.test", location: "Austin, TX", category: "Roofing contractor" },
    headline: [
      { key: "calls", label: "Calls from Google", value: "1,284", change: "+142 (+12.4%) vs last month", direction: "up", higherIsBetter: true },
      { key: "solv", label: "Share of Local Voice", value: "44%", change: "+16 pts vs last month", direction: "up", higherIsBetter: true },
      { key: "reviews", label: "New reviews", value: "9", change: "−3 vs last month", direction: "down", higherIsBetter: true },
    ],
    summary: { text: "October brought 1,284 calls from your Google profile, 142 more than September. You now rank in the top 3 across 44% of your service area.", source: "ai" },
    google: {
      status: "ok",
      locationTitle: "Ridge Roofing",
      calls: compared(1284, 1142),
      websiteClicks: compared(562, 601),
      directions: compared(213, 190),
      impressions: { search: compared(10450, 9800), maps: compared(7320, 6100), total: compared(17770, 15900) },
      current: { month: "2026-10", calls: 1284, websiteClicks: 562, directions: 213, conversations: null, impressions: { searchMobile: 7000, searchDesktop: 3450, mapsMobile: 6000, mapsDesktop: 1320, search: 10450, maps: 7320, total: 17770 } },
      previous: { month: "2026-09", calls: 1142, websiteClicks: 601, directions: 190, conversations: null, impressions: { searchMobile: 6500, searchDesktop: 3300, mapsMobile: 5000, mapsDesktop: 1100, search: 9800, maps: 6100, total: 15900 } },
      keywords: [
        { keyword: "roof repair austin", impressions: 2310, threshold: null },
        { keyword: "roofers near me", impressions: 1875, threshold: null },
        { keyword: "hail damage roof", impressions: null, threshold: 15 },
      ],
    },
    grid: [
      {
        keyword: "roof repair",
        current: { scanId: "scan-now", finishedAt: "2026-10-15T14:00:00.000Z", size: 5, radiusMiles: 5, ranks: RANKS_NOW, solv: 44, atrp: 3.4 },
        previous: { scanId: "scan-before", finishedAt: "2026-09-15T14:00:00.000Z", size: 5, radiusMiles: 5, ranks: RANKS_BEFORE, solv: 28, atrp: 5.9 },
      },
    ],
    tracker: {
      keywords: [
        { keyword: "roof repair austin", mapRank: compared(2, 5), organicRank: compared(4, 4) },
        { keyword: "metal roof installer", mapRank: compared(7, 3), organicRank: compared(null, 18) },
      ],
      improved: 1,
      declined: 1,
      unchanged: 0,
    },
    aiVisibility: { scanId: "aiv-1", scannedAt: "2026-10-20T10:00:00.000Z", engines: ["ChatGPT", "Perplexity"], questions: 4, answers: 24, mentionRate: 0.375, low: 0.21, high: 0.57, shareOfVoice: 0.18, previous: { mentionRate: 0.25, low: 0.12, high: 0.45 } },
    citations: { scanId: "cit-1", scannedAt: "2026-10-10T10:00:00.000Z", checked: 40, consistent: 29, inconsistent: 4, duplicate: 1, notFound: 6, consistencyPercent: 85.3, previousPercent: 80.6 },
    reviews: { newReviews: compared(9, 12), monthAverage: 4.8, overallAverage: 4.7, totalReviews: 212, replyRate: 88.9, requestsSent: 31 },
    posts: { published: compared(4, 2), items: [{ publishedAt: "2026-10-31T23:30:00.000Z", excerpt: "Storm season checklist: what to look for after hail.", url: null }] },
    whatWeDid: [
      { key: "posts", label: "Google posts published", count: 4 },
      { key: "replies", label: "review replies published", count: 8 },
    ],
    whatsNext: [{ text: "Fix the 4 listings whose phone number does not match.", href: "/tools/citations" }],
    ...overrides,
  };
}
