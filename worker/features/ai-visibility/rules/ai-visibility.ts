// AI Visibility's rules (issue 29): the questions suggested for a trade and city, who an answer names (the listing-match
// rules), the figures per question and engine with their 95% Wilson intervals, the overall figure, the cited domains,
// the alert rule (intervals that no longer overlap) and the template "What to do". Pure: shared by the worker and the web.
import { AI_ENGINE_LABELS, AI_ENGINES, type AiEngine, type CitedDomain, type CitedSource, type NamedBusiness, type QuestionEngineFigure } from "./contract";
import { isCategory, TRADE_NOUNS, type Category } from "../../../domain/categories";
import { deriveTag } from "../../prospects/rules/prospect";
import { nameSimilarity } from "../../../domain/listing-match";
import { comparePhones, nameVariants, normalizeName, phonesInText } from "../../../domain/nap";

/* ------------------------------------------ Wilson interval ------------------------------------------ */

/**
 * The Wilson score interval for k successes in n trials (z = 1.96: 95%). Unlike p ± z·√(p(1-p)/n) it stays inside
 * 0..1 and is not a zero-width interval at 0 of 5 or 5 of 5, which is what small samples of AI answers give.
 */
export function wilson(k: number, n: number, z = 1.96): { low: number; high: number } {
  if (!(n > 0)) return { low: 0, high: 1 };
  const p = Math.min(1, Math.max(0, k / n));
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** The alert rule: only a new interval that no longer overlaps the old one is a change, not noise. */
export function intervalsSeparate(a: { low: number; high: number }, b: { low: number; high: number }): boolean {
  return a.high < b.low || b.high < a.low;
}

/* ------------------------------------------ Suggested questions ------------------------------------------ */

/** A job people ask an assistant about, per trade ("who installs water heaters in Austin TX"). */
const SIGNATURE_JOBS: Record<string, string> = {
  Roofing: "who replaces roofs",
  Remodeling: "who remodels kitchens",
  Plumbing: "who installs water heaters",
  "Electrical Services": "who upgrades electrical panels",
  HVAC: "who repairs air conditioners",
  "Landscaping & Lawn Care": "who does lawn care",
  "Pest Control": "who gets rid of termites",
  "Cleaning Services": "who does deep house cleaning",
  Painting: "who paints house exteriors",
  Flooring: "who installs hardwood floors",
  "Handyman Services": "who does small home repairs",
  "Window & Door Services": "who replaces windows",
  "Siding & Gutter Services": "who cleans gutters",
  "Deck & Patio Construction": "who builds decks",
  "Pool Services": "who does pool cleaning",
  "Home Security & Automation": "who installs security cameras",
  "Appliance Repair": "who repairs refrigerators",
  "General Contracting": "who builds home additions",
  "Home Inspections": "who does home inspections",
  "Interior Design": "who does interior design",
};

/** Trades people call in an emergency; the others are asked about price instead. */
const EMERGENCY_TRADES = new Set(["Roofing", "Plumbing", "Electrical Services", "HVAC", "Pest Control", "Appliance Repair"]);

/** One of the 21 categories for a trade given as text ("Roofing", or a keyword such as "roofing"); null for none. */
function categoryOfTrade(trade: string): Exclude<Category, "Other"> | null {
  if (isCategory(trade)) return trade === "Other" ? null : trade;
  const tag = deriveTag(trade);
  return tag === "Other" ? null : tag;
}

/** The trade as it reads in a question: its category's noun ("roofing" → "roofer"), or the free text itself. */
export function tradeNoun(category: string): string {
  const known = categoryOfTrade(category);
  if (known) return TRADE_NOUNS[known];
  return category.trim().toLowerCase() || "contractor";
}

/**
 * Up to five questions a customer in the city would ask an assistant: the best one, an urgent or price question asked
 * "near me" (the engines are told the asker's city), the trade's signature job, reviews in the ZIP code (or city), and
 * the most trusted one.
 */
export function suggestQuestions(p: { category: string; city: string; region?: string; postalCode?: string }): string[] {
  const noun = tradeNoun(p.category);
  const known = categoryOfTrade(p.category);
  const city = p.city.trim();
  const region = p.region?.trim() ?? "";
  const job = (known && SIGNATURE_JOBS[known]) || `who is a good ${noun}`;
  const out = [
    `best ${noun} in ${city}`,
    known && EMERGENCY_TRADES.has(known) ? `emergency ${noun} near me` : `affordable ${noun} near me`,
    `${job} in ${city}${region ? ` ${region}` : ""}`,
    `${noun} with good reviews in ${p.postalCode?.trim() || city}`,
    `most trusted ${noun} in ${city}`,
  ];
  return [...new Set(out)].slice(0, 5);
}

/* ------------------------------------------ Who an answer names ------------------------------------------ */

export type KnownBusiness = { name: string; website?: string | null; phone?: string | null };
export type NamedInAnswer = { name: string; self: boolean; local: boolean };

/** A text as normalised words (nap.ts's rules, one token at a time) with where each word starts. */
function words(text: string): { word: string; at: number }[] {
  const out: { word: string; at: number }[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    for (const w of normalizeName(m[0]).split(" ")) if (w) out.push({ word: w, at: m.index });
  }
  return out;
}

/** Where the name's words first stand in a row in the text (and how many words), or null. */
function indexOfName(textWords: { word: string; at: number }[], name: string): { at: number; length: number } | null {
  let best: { at: number; length: number } | null = null;
  for (const variant of nameVariants(name)) {
    const want = variant.split(" ");
    if (want.length === 0 || want.join("").length < 3) continue;
    for (let i = 0; i + want.length <= textWords.length; i++) {
      if (want.every((w, j) => textWords[i + j]!.word === w)) {
        if (!best || textWords[i]!.at < best.at) best = { at: textWords[i]!.at, length: want.length };
        break;
      }
    }
  }
  return best;
}

/** The registrable host of a URL or bare domain ("https://m.yelp.com/x" → "yelp.com"); null when it is not one. */
export function registrableDomain(urlOrHost: string | null | undefined): string | null {
  const text = urlOrHost?.trim().toLowerCase() ?? "";
  if (!text) return null;
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(text) ? text : `https://${text}`).hostname;
  } catch {
    return null;
  }
  const labels = host.replace(/^www\./, "").split(".").filter(Boolean);
  if (labels.length < 2) return null;
  // Two-level public suffixes (co.uk, com.au …) keep a third label.
  const twoLevel = labels.length >= 3 && /^(co|com|org|net|gov|ac)$/.test(labels[labels.length - 2]!) && labels[labels.length - 1]!.length === 2;
  return labels.slice(twoLevel ? -3 : -2).join(".");
}

/** Google's grounding redirect (Gemini): the source's domain is the chunk's title, not the redirect's host. */
const GROUNDING_REDIRECT = /^https?:\/\/vertexaisearch\.cloud\.google\.com\//i;

/** The domain a cited source stands for. */
export function sourceDomain(source: CitedSource): string | null {
  if (GROUNDING_REDIRECT.test(source.url) && source.title && /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(source.title.trim())) return registrableDomain(source.title);
  return registrableDomain(source.url);
}

/** Words that make a bold or listed phrase a business's name rather than a heading ("**Licensing**", "**Tip:**"). */
const BUSINESS_WORDS = new Set([
  ...Object.values(TRADE_NOUNS).flatMap((n) => n.split(" ")),
  ...["plumbing", "plumbers", "roofing", "roofers", "electric", "electrical", "electricians", "hvac", "heating", "cooling", "air", "services", "service"],
  ...["company", "co", "llc", "inc", "corp", "contractors", "contracting", "construction", "builders", "pros", "experts", "solutions", "repair", "repairs"],
  ...["landscaping", "lawn", "pest", "cleaning", "painting", "painters", "flooring", "gutters", "gutter", "pools", "pool", "security", "restoration", "remodeling", "home", "homes"],
]);
const NOT_A_NAME = /^(?:tips?|why|how|what|when|where|cost|costs|price|prices|pricing|licens|insur|warrant|reviews?|ratings?|emergency|availability|experience|considerations?|services offered|note|summary|conclusion|pros and cons|key )/i;

/** The phrases an answer sets apart as names: bold spans, and the lead phrase of numbered or bulleted list items. */
function listedNames(text: string): { name: string; at: number; line: string }[] {
  const out: { name: string; at: number; line: string }[] = [];
  const lineAt = (at: number) => {
    const start = text.lastIndexOf("\n", at) + 1;
    const end = text.indexOf("\n", at);
    return text.slice(start, end < 0 ? text.length : end);
  };
  for (const m of text.matchAll(/\*\*([^*\n]{2,80})\*\*/g)) out.push({ name: m[1]!, at: m.index + 2, line: lineAt(m.index) });
  for (const m of text.matchAll(/^[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]+(?!\*\*)([^\n–—:(|]{2,80}?)[ \t]*(?:[–—:(|]|\s-\s|$)/gm)) {
    out.push({ name: m[1]!, at: m.index + m[0].indexOf(m[1]!), line: lineAt(m.index) });
  }
  return out
    .map((c) => ({ ...c, name: c.name.replace(/[\s:.,;–—-]+$/, "").replace(/^\d+[.)]\s*/, "").trim() }))
    .filter((c) => c.name.length >= 2)
    .sort((a, b) => a.at - b.at);
}

function looksLikeBusiness(name: string): boolean {
  if (NOT_A_NAME.test(name)) return false;
  const ws = normalizeName(name).split(" ").filter(Boolean);
  if (ws.length < 2 || ws.length > 7) return false;
  // Names are written in title case ("Desert Sun Roofing & Solar"); sentences in list items are not.
  const raw = name.trim().split(/\s+/).filter((w) => !/^(?:and|of|the|&|by|at|in|for)$/i.test(w));
  if (raw.filter((w) => /^[A-Z0-9&]/.test(w)).length < Math.ceil(raw.length * 0.6) || !/^[A-Z0-9]/.test(name.trim())) return false;
  return ws.some((w) => BUSINESS_WORDS.has(w)) || /&|\b(?:LLC|Inc|Co)\b\.?/.test(name);
}

/** The business's website's domain is in the line, linked there, or among the answer's cited sources. */
function websiteAgrees(business: KnownBusiness, line: string, sources: CitedSource[]): boolean {
  const domain = registrableDomain(business.website);
  if (!domain) return false;
  if (line.toLowerCase().includes(domain)) return true;
  return sources.some((s) => sourceDomain(s) === domain);
}

function phoneAgrees(business: KnownBusiness, line: string): boolean {
  if (!business.phone) return false;
  return phonesInText(line).some((p) => comparePhones([p], business.phone).verdict === "pass");
}

/**
 * The businesses an answer names, in order of first appearance: the business itself and its local competitors matched
 * with the listing-match rules (the same name, or a close name with its website or phone beside it), then the other
 * business names the answer gives (bold or listed), marked local=false. Each business once.
 */
export function findNamedBusinesses(text: string, competitors: KnownBusiness[], self: KnownBusiness, sources: CitedSource[] = []): NamedInAnswer[] {
  const known = [{ business: self, self: true }, ...competitors.map((business) => ({ business, self: false }))].filter((k) => k.business.name.trim() !== "");
  const found = new Map<number, number>(); // known index → first position
  const keep = (i: number, at: number) => {
    if (!found.has(i) || at < found.get(i)!) found.set(i, at);
  };
  const textWords = words(text);
  const inProse = known.map((k) => indexOfName(textWords, k.business.name));
  inProse.forEach((hit, i) => {
    // "Ridge Plumbing & Drain" in the text is that business, not also "Ridge Plumbing": the longer name at a place wins.
    if (hit && !inProse.some((other) => other && other.at === hit.at && other.length > hit.length)) keep(i, hit.at);
  });
  const others: { name: string; at: number }[] = [];
  for (const candidate of listedNames(text)) {
    let matched = -1;
    let bestScore = 0;
    known.forEach((k, i) => {
      const score = nameSimilarity(candidate.name, k.business.name);
      const confident = score === 1 || (score >= 0.5 && (websiteAgrees(k.business, candidate.line, sources) || phoneAgrees(k.business, candidate.line)));
      if (confident && score > bestScore) {
        matched = i;
        bestScore = score;
      }
    });
    if (matched >= 0) keep(matched, candidate.at);
    else if (looksLikeBusiness(candidate.name)) others.push(candidate);
  }
  const out: (NamedInAnswer & { at: number; key: string })[] = [...found].map(([i, at]) => ({ name: known[i]!.business.name, self: known[i]!.self, local: true, at, key: normalizeName(known[i]!.business.name) }));
  for (const o of others) {
    const key = normalizeName(o.name);
    if (out.some((n) => n.key === key || nameSimilarity(n.name, o.name) === 1)) continue;
    out.push({ name: o.name, self: false, local: false, at: o.at, key });
  }
  // The business itself counts once even when a competitor entry shares its name.
  const seen = new Set<string>();
  return out
    .sort((a, b) => a.at - b.at || Number(b.self) - Number(a.self))
    .filter((n) => (seen.has(n.key) ? false : (seen.add(n.key), true)))
    .map(({ name, self: isSelf, local }) => ({ name, self: isSelf, local }));
}

/* ------------------------------------------------ Figures ------------------------------------------------ */

export type FigureAnswer = { id: string; ok: boolean; named: NamedInAnswer[]; sources: CitedSource[] };

/** A URL without scheme, "www.", query (but a Maps `cid`) and trailing slash, for comparing a profile link. */
function plainUrl(url: string): string | null {
  try {
    const u = new URL(url.trim());
    const cid = u.searchParams.get("cid");
    return `${u.hostname.replace(/^www\./, "")}${u.pathname.replace(/\/+$/, "")}${cid ? `?cid=${cid}` : ""}`.toLowerCase();
  } catch {
    return null;
  }
}

/** Whether a source is the business's own website (its domain) or its Google profile (the same link). */
export function isOwnSource(source: CitedSource, self: { website?: string | null; gbpUrl?: string | null }): boolean {
  const domain = registrableDomain(self.website);
  if (domain && sourceDomain(source) === domain) return true;
  const profile = self.gbpUrl ? plainUrl(self.gbpUrl) : null;
  const cited = plainUrl(source.url);
  return profile !== null && cited !== null && (cited === profile || cited.startsWith(`${profile}/`));
}

/**
 * One question on one engine: k of n answers name the business (failed answers are not in n, they are `failed`), the
 * Wilson interval, the mean position of its first mention among the businesses each answer names, its share of the
 * mentions of local businesses (itself included), the answers citing its site or profile, and who was named how often.
 */
export function questionEngineFigure(answers: FigureAnswer[], self: { website?: string | null; gbpUrl?: string | null }): Omit<QuestionEngineFigure, "questionId" | "question" | "engine"> {
  const ok = answers.filter((a) => a.ok);
  const n = ok.length;
  const positions: number[] = [];
  let localMentions = 0;
  let ownSiteCited = 0;
  const tally = new Map<string, NamedBusiness & { first: number }>();
  ok.forEach((answer, order) => {
    const position = answer.named.findIndex((b) => b.self);
    if (position >= 0) positions.push(position + 1);
    const once = new Set<string>();
    answer.named.forEach((b, i) => {
      const key = b.self ? "\u0000self" : normalizeName(b.name);
      if (once.has(key)) return;
      once.add(key);
      if (b.local || b.self) localMentions++;
      const had = tally.get(key);
      if (had) had.mentions++;
      else tally.set(key, { name: b.name, mentions: 1, local: b.local || b.self, self: b.self, first: order * 1000 + i });
    });
    if (answer.sources.some((s) => isOwnSource(s, self))) ownSiteCited++;
  });
  const k = positions.length;
  const { low, high } = wilson(k, n);
  return {
    k,
    n,
    mention_rate: n > 0 ? k / n : null,
    low,
    high,
    failed: answers.length - n,
    avg_position: k > 0 ? positions.reduce((s, p) => s + p, 0) / k : null,
    share_of_voice: localMentions > 0 ? k / localMentions : null,
    own_site_cited: ownSiteCited,
    answerIds: answers.map((a) => a.id),
    named: [...tally.values()].sort((a, b) => b.mentions - a.mentions || a.first - b.first).map(({ first: _first, ...b }) => b),
  };
}

/**
 * The mean of proportions weighted equally per figure, with a Wilson interval on Kish's effective sample size
 * n_eff = m² / Σ(1/n_i) (m figures, n_i the sample each stands on). Equal weights make a question asked 10 times count
 * as much as one asked 3 times; n_eff says how much evidence that weighting leaves (= Σn_i when every n_i is equal).
 */
function equalWeightRate(parts: { rate: number; n: number }[]): { rate: number; low: number; high: number } | null {
  const used = parts.filter((p) => p.n > 0);
  if (used.length === 0) return null;
  const m = used.length;
  const rate = used.reduce((s, p) => s + p.rate, 0) / m;
  const nEff = (m * m) / used.reduce((s, p) => s + 1 / p.n, 0);
  return { rate, ...wilson(rate * nEff, nEff) };
}

/** The scan's overall figures: each question and engine weighs the same (see equalWeightRate for the interval). */
export function overallFigure(figures: QuestionEngineFigure[]): {
  k: number;
  n: number;
  mention_rate: number;
  low: number;
  high: number;
  share_of_voice: number | null;
  share_low: number | null;
  share_high: number | null;
} | null {
  const mention = equalWeightRate(figures.flatMap((f) => (f.mention_rate === null ? [] : [{ rate: f.mention_rate, n: f.n }])));
  if (!mention) return null;
  const share = equalWeightRate(
    figures.filter((f) => f.share_of_voice !== null).map((f) => ({ rate: f.share_of_voice!, n: f.named.filter((b) => b.local || b.self).reduce((s, b) => s + b.mentions, 0) })),
  );
  return {
    k: figures.reduce((s, f) => s + f.k, 0),
    n: figures.reduce((s, f) => s + f.n, 0),
    mention_rate: mention.rate,
    low: mention.low,
    high: mention.high,
    share_of_voice: share?.rate ?? null,
    share_low: share?.low ?? null,
    share_high: share?.high ?? null,
  };
}

/**
 * The domains the answers cite: each counted once per answer (of the answers that did not fail), with the engines that
 * cited it and whether the Citation Tracker found the business there (`citationFound`: true found, false not found,
 * null not checked → missing null). Most cited first.
 */
export function countCitedDomains(answers: { engine: AiEngine; ok: boolean; sources: CitedSource[] }[], citationFound?: (domain: string) => boolean | null): CitedDomain[] {
  const ok = answers.filter((a) => a.ok);
  const counts = new Map<string, { answers: number; engines: Set<AiEngine> }>();
  for (const answer of ok) {
    for (const domain of new Set(answer.sources.map(sourceDomain).filter((d): d is string => d !== null))) {
      const entry = counts.get(domain) ?? { answers: 0, engines: new Set<AiEngine>() };
      entry.answers++;
      entry.engines.add(answer.engine);
      counts.set(domain, entry);
    }
  }
  return [...counts]
    .map(([domain, c]): CitedDomain => {
      const found = citationFound ? citationFound(domain) : null;
      return { domain, answers: c.answers, of: ok.length, engines: AI_ENGINES.filter((e) => c.engines.has(e)), missing: found === null ? null : !found };
    })
    .sort((a, b) => b.answers - a.answers || a.domain.localeCompare(b.domain));
}

/* ------------------------------------------------ What to do ------------------------------------------------ */

export interface ActionInput {
  businessName: string;
  overall: { mention_rate: number; low: number; high: number; k: number; n: number } | null;
  figures: QuestionEngineFigure[];
  citedDomains: CitedDomain[];
  /** The business's own Google review count, and its competitors' (by name), where known. */
  ownReviews?: number | null;
  competitorReviews?: { name: string; reviews: number | null }[];
  /** What the audit found missing on the website ("LocalBusiness schema", "a page per service" …). */
  auditGaps?: string[];
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Per cited domain, the engine that cited it most and how often ("Perplexity cited angi.com in 7 of 10 answers"). */
function citedBy(domain: CitedDomain, figures: QuestionEngineFigure[]): string {
  const engine = domain.engines[0];
  const label = engine ? AI_ENGINE_LABELS[engine] : "AI assistants";
  const of = engine ? figures.filter((f) => f.engine === engine).reduce((s, f) => s + f.n, 0) : domain.of;
  return domain.engines.length === 1 ? `${label} cited ${domain.domain} in ${domain.answers} of ${of} answers` : `AI assistants cited ${domain.domain} in ${domain.answers} of ${domain.of} answers`;
}

/**
 * The template "What to do" (when AI is unavailable): get listed where the assistants look, close the review gap to the
 * businesses they name most, give them pages to cite, and the audit's website gaps. At most six, grounded in the figures.
 */
export function actionTemplates(input: ActionInput): string[] {
  const out: string[] = [];
  const missing = input.citedDomains.filter((d) => d.missing === true).slice(0, 3);
  for (const d of missing) out.push(`Get listed on ${d.domain}: ${citedBy(d, input.figures)}, and ${input.businessName} is not listed there.`);
  if (missing.length === 0) {
    const top = input.citedDomains.filter((d) => d.missing === null && d.answers >= 2).slice(0, 2);
    for (const d of top) out.push(`Check your listing on ${d.domain}: ${citedBy(d, input.figures)}.`);
  }
  const rivals = new Map<string, number>();
  for (const f of input.figures) for (const b of f.named) if (!b.self && b.local) rivals.set(b.name, (rivals.get(b.name) ?? 0) + b.mentions);
  const [leader, leaderMentions] = [...rivals].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (leader) {
    const theirs = input.competitorReviews?.find((c) => normalizeName(c.name) === normalizeName(leader))?.reviews ?? null;
    if (theirs !== null && input.ownReviews !== null && input.ownReviews !== undefined && theirs > input.ownReviews) {
      out.push(`Close the review gap: ${leader}, named in ${leaderMentions} answers, has ${theirs} Google reviews to your ${input.ownReviews}. Ask every finished job for a review.`);
    } else {
      out.push(`Study ${leader}: the assistants named it in ${leaderMentions} answers. Compare its reviews, listings and service pages with yours.`);
    }
  }
  const silent = AI_ENGINES.filter((e) => {
    const fs = input.figures.filter((f) => f.engine === e && f.n > 0);
    return fs.length > 0 && fs.every((f) => f.k === 0);
  });
  if (silent.length > 0) out.push(`${silent.map((e) => AI_ENGINE_LABELS[e]).join(", ")} never named ${input.businessName} in these answers: being listed on the sites they cite is the way in.`);
  const answers = input.figures.reduce((s, f) => s + f.n, 0);
  const cited = input.figures.reduce((s, f) => s + f.own_site_cited, 0);
  if (answers > 0 && cited === 0) out.push(`Give the assistants a page to cite: none of the ${answers} answers cited your website or Google profile. Add a page per service and city with your name, address and phone.`);
  for (const gap of (input.auditGaps ?? []).slice(0, 2)) out.push(`Fix what the audit found: ${gap}.`);
  if (input.overall && input.overall.low >= 0.5) out.push(`Keep it up: ${input.businessName} was named in ${pct(input.overall.mention_rate)} of answers (95% range ${pct(input.overall.low)}–${pct(input.overall.high)}).`);
  return out.slice(0, 6);
}
