// Builds one client's monthly report (issue 30) from STORED data, and freezes it in `client_reports.payload`: Google's
// performance (the Performance API, at build time), the month's grid scans beside the same keyword's scan the month
// before, the tracked keywords' moves, AI Visibility, citations, reviews, posts, "What we did" and "What's next". A
// source with nothing for the month is a null section (left out), never zeros. The summary paragraph is the AI's,
// written from the figures only and metered (reservation first), or the template's when AI is unavailable or refused.
import { aiOwnerKey } from "../ai-visibility";
import { citationOwnerKey } from "../citations";
import type { Db } from "../../platform/db/client";
import {
  countPostsPublishedIn,
  latestAiScanIn,
  latestCitationScanIn,
  ownGridScansFinishedIn,
  ownKeywordChecksBefore,
  pointsOfScans,
  postsPublishedIn,
  repliesPublishedIn,
  reviewRequestsSentIn,
  reviewsBefore,
} from "./queries";
import type { GridPointRow, GridScanRow } from "../rank";
import { getProfile } from "../../platform/auth/users";
import { fixList, summarize } from "../citations/rules/summary";
import {
  CLIENT_REPORT_PAYLOAD_VERSION,
  compared,
  headlineFigures,
  monthLabel,
  monthRangeUtc,
  previousMonthOf,
  summaryFacts,
  templateSummary,
  type ClientReportPayload,
  type ReportAiVisibilitySection,
  type ReportCitationsSection,
  type ReportGoogleSection,
  type ReportGridMap,
  type ReportGridSection,
  type ReportPostsSection,
  type ReportReviewsSection,
  type ReportTrackerSection,
} from "./rules/client-report";
import { change } from "./rules/gbp-performance";
import { gridMetrics } from "../rank/rules/metrics";
import { estimateTokens } from "../../domain/usage-cost";
import { validTimeZone } from "../../domain/time-zone";
import { postModel } from "../content";
import { decidedChanges } from "../gbp-guard";
import { sourceResults } from "../citations";
import { storedSummary } from "../ai-visibility";
import { pointResult } from "../rank";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { reserveCall, userPayer } from "../../platform/metering/meter";
import { aiConfigured, AiError, billedOnFailure, chatCompletion, usageEvent } from "../../platform/providers/ai";
import { gbpPerformanceFor, type GbpPerformanceSection } from "./gbp-performance";

export const CLIENT_REPORTS_TOOL = "client-reports";
const SUMMARY_MAX_TOKENS = 400;
const round1 = (n: number): number => Math.round(n * 10) / 10;

type Range = { start: string; end: string };

export function googleSection(g: GbpPerformanceSection): ReportGoogleSection {
  if (g.status !== "ok") return { status: g.status };
  const c = (cur: number | null, prev: number | null) => ({ current: cur, previous: prev, ...change(cur, prev) });
  return {
    status: "ok",
    locationTitle: g.location.title,
    calls: c(g.current.calls, g.previous.calls),
    websiteClicks: c(g.current.websiteClicks, g.previous.websiteClicks),
    directions: c(g.current.directions, g.previous.directions),
    impressions: {
      search: c(g.current.impressions.search, g.previous.impressions.search),
      maps: c(g.current.impressions.maps, g.previous.impressions.maps),
      total: c(g.current.impressions.total, g.previous.impressions.total),
    },
    current: g.current,
    previous: g.previous,
    keywords: g.keywords.slice(0, 10).map((k) => ({ keyword: k.keyword, impressions: k.impressions ?? null, threshold: k.threshold ?? null })),
    unavailable: g.unavailable,
  };
}

function gridMap(scan: GridScanRow, points: GridPointRow[]): ReportGridMap | null {
  const own = points.filter((p) => p.scanId === scan.id).sort((a, b) => a.idx - b.idx);
  const m = gridMetrics(own.map(pointResult));
  if (m.solv === null || m.atrp === null) return null;
  return {
    scanId: scan.id,
    finishedAt: scan.finishedAt ?? scan.createdAt,
    size: scan.size,
    radiusMiles: scan.radiusMiles,
    ranks: own.map((p) => (p.status === "done" ? p.rank : null)),
    solv: round1(m.solv),
    atrp: round1(m.atrp),
  };
}

/** Per keyword: the month's last finished own scan, and the same keyword's last scan the month before. */
async function gridSections(db: Db, userId: string, month: Range, before: Range): Promise<ReportGridSection[] | null> {
  const [current, previous] = await Promise.all([ownGridScansFinishedIn(db, userId, month), ownGridScansFinishedIn(db, userId, before)]);
  if (current.length === 0) return null;
  const latestOf = (scans: GridScanRow[]) => {
    const m = new Map<string, GridScanRow>();
    for (const s of scans) m.set(s.keyword.toLowerCase(), s); // oldest first: the last one wins
    return m;
  };
  const cur = latestOf(current);
  const prev = latestOf(previous);
  const chosen = [...cur.values(), ...[...cur.keys()].map((k) => prev.get(k)).filter((s): s is GridScanRow => !!s)];
  const points = await pointsOfScans(
    db,
    chosen.map((s) => s.id),
  );
  const out: ReportGridSection[] = [];
  for (const [key, scan] of cur) {
    const map = gridMap(scan, points);
    if (!map) continue;
    const p = prev.get(key);
    out.push({ keyword: scan.keyword, current: map, previous: p ? gridMap(p, points) : null });
  }
  return out.length > 0 ? out : null;
}

/** Each tracked keyword's last check in the month against its last check the month before. */
async function trackerSection(db: Db, userId: string, month: Range, before: Range): Promise<ReportTrackerSection | null> {
  const { keywords, checks } = await ownKeywordChecksBefore(db, userId, before.start, month.end);
  const rankOf = (status: string, rank: number | null): number | null => (status === "found" ? rank : status === "not_found" ? 21 : null);
  const rows: ReportTrackerSection["keywords"] = [];
  let improved = 0;
  let declined = 0;
  let unchanged = 0;
  for (const k of keywords) {
    const mine = checks.filter((c) => c.keywordId === k.id && c.checkedAt); // newest first
    const last = mine.find((c) => c.checkedAt! >= month.start);
    if (!last) continue;
    const earlier = mine.find((c) => c.checkedAt! < month.start);
    const mapRank = compared(rankOf(last.mapStatus, last.mapRank), earlier ? rankOf(earlier.mapStatus, earlier.mapRank) : null);
    const organicRank = compared(rankOf(last.organicStatus, last.organicRank), earlier ? rankOf(earlier.organicStatus, earlier.organicRank) : null);
    rows.push({ keyword: k.keyword, mapRank, organicRank });
    // A lower rank is better: a negative delta is a move up. Map rank first, organic when the map did not say.
    const delta = mapRank.delta ?? organicRank.delta;
    if (delta === null || delta === 0) unchanged++;
    else if (delta < 0) improved++;
    else declined++;
  }
  return rows.length > 0 ? { keywords: rows, improved, declined, unchanged } : null;
}

async function aiVisibilitySection(db: Db, userId: string, month: Range, before: Range): Promise<ReportAiVisibilitySection | null> {
  const ownerKey = aiOwnerKey({ kind: "own", userId });
  const [scan, prevScan] = await Promise.all([latestAiScanIn(db, ownerKey, month), latestAiScanIn(db, ownerKey, before)]);
  const overall = scan ? storedSummary(scan)?.overall : null;
  if (!scan || !overall) return null;
  const prev = prevScan ? storedSummary(prevScan)?.overall : null;
  let engines: string[] = [];
  let questions = 0;
  try {
    engines = JSON.parse(scan.engines) as string[];
    questions = (JSON.parse(scan.questions) as unknown[]).length;
  } catch {
    /* an unreadable list shows as empty */
  }
  return {
    scanId: scan.id,
    scannedAt: scan.finishedAt ?? scan.createdAt,
    engines,
    questions,
    answers: overall.n,
    mentionRate: overall.mention_rate,
    low: overall.low,
    high: overall.high,
    shareOfVoice: overall.share_of_voice,
    previous: prev ? { mentionRate: prev.mention_rate, low: prev.low, high: prev.high } : null,
  };
}

function consistencyOf(s: ReturnType<typeof summarize>): number | null {
  const found = s.consistent + s.inconsistent + s.duplicates;
  return found === 0 ? null : round1((s.consistent / found) * 100);
}

async function citationsSection(db: Db, userId: string, month: Range, before: Range) {
  const ownerKey = citationOwnerKey({ kind: "own", userId });
  const [cur, prev] = await Promise.all([latestCitationScanIn(db, ownerKey, month), latestCitationScanIn(db, ownerKey, before)]);
  if (!cur) return { section: null, fixes: [], fixed: 0 };
  const results = sourceResults(cur.checks);
  const s = summarize(results);
  const prevResults = prev ? sourceResults(prev.checks) : null;
  const section: ReportCitationsSection = {
    scanId: cur.scan.id,
    scannedAt: cur.scan.finishedAt ?? cur.scan.createdAt,
    checked: s.checked,
    consistent: s.consistent,
    inconsistent: s.inconsistent,
    duplicate: s.duplicates,
    notFound: s.not_found,
    consistencyPercent: consistencyOf(s),
    previousPercent: prevResults ? consistencyOf(summarize(prevResults)) : null,
  };
  // Listings fixed: a source that was inconsistent or a duplicate the month before and is consistent now.
  const fixed = prevResults ? results.filter((r) => r.verdict === "consistent" && prevResults.some((p) => p.source === r.source && (p.verdict === "inconsistent" || p.verdict === "duplicate"))).length : 0;
  return { section, fixes: fixList(results), fixed };
}

async function reviewsSection(db: Db, userId: string, month: Range, before: Range): Promise<{ section: ReportReviewsSection | null; replies: number; requests: number }> {
  const [all, replies, requests] = await Promise.all([reviewsBefore(db, userId, month.end), repliesPublishedIn(db, userId, month), reviewRequestsSentIn(db, userId, month)]);
  if (all.length === 0 && requests === 0) return { section: null, replies, requests };
  const inMonth = all.filter((r) => r.createTime >= month.start);
  const inBefore = all.filter((r) => r.createTime >= before.start && r.createTime < before.end);
  const avg = (xs: { stars: number }[]) => (xs.length === 0 ? null : round1(xs.reduce((a, r) => a + r.stars, 0) / xs.length));
  return {
    section: {
      newReviews: compared(inMonth.length, inBefore.length),
      monthAverage: avg(inMonth),
      overallAverage: avg(all),
      totalReviews: all.length,
      replyRate: inMonth.length === 0 ? null : Math.round((inMonth.filter((r) => r.replyComment !== null).length / inMonth.length) * 100),
      requestsSent: requests,
    },
    replies,
    requests,
  };
}

async function postsSection(db: Db, userId: string, month: Range, before: Range): Promise<ReportPostsSection | null> {
  const [posts, previous] = await Promise.all([postsPublishedIn(db, userId, month), countPostsPublishedIn(db, userId, before)]);
  if (posts.length === 0) return null;
  return {
    published: compared(posts.length, previous),
    items: posts.slice(0, 20).map((p) => {
      let excerpt = "";
      try {
        excerpt = String((JSON.parse(p.body) as { summary?: string }).summary ?? "");
      } catch {
        /* an unreadable body shows no excerpt */
      }
      return { publishedAt: p.publishedAt!, excerpt: excerpt.length > 160 ? `${excerpt.slice(0, 157)}…` : excerpt, url: p.googleSearchUrl };
    }),
  };
}

/** Everything but the summary, from stored data (and Google's API). */
export async function gatherReport(env: Env, db: Db, userId: string, month: string, now = new Date()): Promise<Omit<ClientReportPayload, "summary">> {
  const profile = await getProfile(db, userId);
  const timeZone = profile?.timeZone && validTimeZone(profile.timeZone) ? profile.timeZone : "UTC";
  const prevMonth = previousMonthOf(month);
  const range = monthRangeUtc(month, timeZone);
  const before = monthRangeUtc(prevMonth, timeZone);
  const [google, grid, tracker, aiVisibility, citations, reviews, posts, guarded] = await Promise.all([
    gbpPerformanceFor(env, db, userId, month).then(googleSection),
    gridSections(db, userId, range, before),
    trackerSection(db, userId, range, before),
    aiVisibilitySection(db, userId, range, before),
    citationsSection(db, userId, range, before),
    reviewsSection(db, userId, range, before),
    postsSection(db, userId, range, before),
    // Google's (or another manager's) edits the agency kept or undid on the profile (issue 41's guard).
    decidedChanges(db, userId, range),
  ]);
  const whatWeDid = [
    { key: "posts", label: "Google posts published", count: posts?.published.current ?? 0 },
    { key: "replies", label: "Review replies published", count: reviews.replies },
    { key: "requests", label: "Review requests sent", count: reviews.requests },
    ...(citations.section ? [{ key: "listings_fixed", label: "Listings fixed", count: citations.fixed }] : []),
    ...(guarded.length > 0 ? [{ key: "profile_edits", label: "Profile edits by Google checked and kept or undone", count: guarded.length }] : []),
  ];
  const whatsNext: ClientReportPayload["whatsNext"] = [];
  for (const f of citations.fixes.slice(0, 3)) whatsNext.push({ text: f.text, href: "/tools/citation-tracker" });
  if (reviews.section && reviews.section.replyRate !== null && reviews.section.replyRate < 100) whatsNext.push({ text: "Reply to the reviews still waiting for an answer.", href: "/tools/reviews" });
  const aiActions = aiVisibility ? await latestAiActions(db, userId, range) : [];
  for (const a of aiActions.slice(0, 2)) whatsNext.push({ text: a, href: "/tools/ai-visibility" });
  if (google.status === "not_connected" || google.status === "token_refused") whatsNext.push({ text: "Connect Google to add calls, website clicks and direction requests to this report.", href: "/integrations" });
  if (!posts) whatsNext.push({ text: "Publish a Google post: businesses that post regularly get seen more.", href: "/tools/gmb-post-scheduler" });
  const sections = { google, grid, tracker, aiVisibility, citations: citations.section, reviews: reviews.section, posts };
  return {
    payloadVersion: CLIENT_REPORT_PAYLOAD_VERSION,
    month,
    previousMonth: prevMonth,
    monthLabel: monthLabel(month),
    timeZone,
    builtAt: now.toISOString(),
    business: { name: profile?.companyName || "Your business", website: profile?.companyWebsite ?? null, location: profile?.companyLocation ?? null, category: profile?.companyCategory ?? null },
    headline: headlineFigures(sections),
    ...sections,
    whatWeDid,
    whatsNext,
  };
}

async function latestAiActions(db: Db, userId: string, range: Range): Promise<string[]> {
  const scan = await latestAiScanIn(db, aiOwnerKey({ kind: "own", userId }), range);
  try {
    const items = scan?.actions ? (JSON.parse(scan.actions) as unknown) : [];
    return Array.isArray(items) ? items.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

export function summaryPrompt(p: Omit<ClientReportPayload, "summary">): string {
  return [
    `Write a short paragraph (3 to 5 sentences, plain text, no lists) for the owner of ${p.business.name} summing up their local marketing results for ${p.monthLabel}.`,
    "Use ONLY these figures; do not add any number, claim or promise that is not here. Say plainly what went up and what went down.",
    ...summaryFacts(p).map((f) => `- ${f}`),
    'Answer JSON: {"summary": "..."}',
  ].join("\n");
}

function parseSummary(content: string): string | null {
  try {
    const v = JSON.parse(content) as { summary?: unknown };
    const text = typeof v.summary === "string" ? v.summary.trim() : "";
    return text.length >= 20 && text.length <= 2000 ? text : null;
  } catch {
    return null;
  }
}

/** The summary: the AI's (metered, reservation first) when it answers usably; else the template's, with the reason. */
export async function writeSummary(env: Env, db: Db, userId: string, p: Omit<ClientReportPayload, "summary">): Promise<{ text: string; source: "ai" | "template"; note: string | null }> {
  const template = (note: string) => ({ text: templateSummary(p), source: "template" as const, note });
  // Notes for the agency's Client Reports screen (admins only): what happened and what to do, no server wording.
  if (!aiConfigured(env)) return template("AI summaries are not set up yet, so this one was written from the report's figures. Set up AI (Admin › Set-up), then Rebuild.");
  const prompt = summaryPrompt(p);
  const model = postModel(env);
  const payer = await userPayer(env, db, userId);
  const reserved = await reserveCall(env, payer, { kind: "ai", model, prompt, maxTokens: SUMMARY_MAX_TOKENS });
  if (!reserved.ok) return template(`The AI allowance refused the summary (${reserved.refusal.code}), so it was written from the report's figures. Rebuild once there is allowance left.`);
  try {
    const result = await chatCompletion(env, { model, messages: [{ role: "user", content: prompt }], maxTokens: SUMMARY_MAX_TOKENS, temperature: 0.3, json: true });
    await reserved.ticket.settle({ kind: "ai", model: result.model, inputTokens: result.usage.input_tokens, outputTokens: result.usage.output_tokens });
    await env.USAGE_EVENTS.send(usageEvent({ userId, toolName: CLIENT_REPORTS_TOOL, model: result.model, prompt, response: result.content, usage: result.usage })).catch((error) => log.error("usage-events send failed", {}, error));
    const text = parseSummary(result.content);
    return text ? { text, source: "ai", note: null } : template("The AI's answer could not be used, so the summary was written from the report's figures. Rebuild to try again.");
  } catch (error) {
    const aiError = error instanceof AiError ? error : new AiError("connection", String(error));
    await (billedOnFailure(aiError) ? reserved.ticket.settle({ kind: "ai", model, inputTokens: estimateTokens(prompt), outputTokens: 0 }) : reserved.ticket.release());
    log.warn("client report: summary by AI failed; template", { kind: aiError.kind });
    return template(`The AI did not answer (${aiError.kind}), so the summary was written from the report's figures. Rebuild to try again.`);
  }
}

/** The whole payload: gathered, then summed up. */
export async function buildReportPayload(env: Env, db: Db, userId: string, month: string, now = new Date()): Promise<{ payload: ClientReportPayload; summaryNote: string | null }> {
  const gathered = await gatherReport(env, db, userId, month, now);
  const summary = await writeSummary(env, db, userId, gathered);
  return { payload: { ...gathered, summary: { text: summary.text, source: summary.source } }, summaryNote: summary.note };
}
