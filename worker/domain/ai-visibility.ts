// AI Visibility's rules (issue 29). PLACEHOLDER for the scan pipeline's branch: h-aiv-eng's version (the listing-match
// rules, the figures) replaces this file at merge. Same names and signatures; simple, throw-free implementations.
import type { AiEngine, CitedDomain, CitedSource, NamedBusiness, QuestionEngineFigure, ScanView } from "./ai-visibility-contract";

type Party = { name: string; website?: string | null; phone?: string | null };
type Named = { name: string; self: boolean; local: boolean };

/** The 95% Wilson score interval of k successes in n. */
export function wilson(k: number, n: number): { low: number; high: number } {
  if (n <= 0) return { low: 0, high: 1 };
  const z = 1.959963984540054;
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

export function suggestQuestions(input: { category: string; city: string; region?: string; postalCode?: string }): string[] {
  const trade = input.category.toLowerCase();
  const out = [`best ${trade} in ${input.city}`, `emergency ${trade} near me`, `${trade} with good reviews in ${input.postalCode ?? input.city}`];
  if (input.region) out.push(`who is the best ${trade} in ${input.city} ${input.region}`);
  return out;
}

/** The businesses the text names (a plain case-insensitive name search), in the order they first appear. */
export function findNamedBusinesses(text: string, competitors: Party[], self: Party, sources?: CitedSource[]): Named[] {
  void sources;
  const lower = text.toLowerCase();
  const found: { at: number; named: Named }[] = [];
  const selfAt = self.name ? lower.indexOf(self.name.toLowerCase()) : -1;
  if (selfAt >= 0) found.push({ at: selfAt, named: { name: self.name, self: true, local: true } });
  for (const c of competitors) {
    const at = c.name ? lower.indexOf(c.name.toLowerCase()) : -1;
    if (at >= 0 && c.name.toLowerCase() !== self.name.toLowerCase()) found.push({ at, named: { name: c.name, self: false, local: true } });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.named);
}

function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(/^https?:\/\//i.test(url) ? url : `https://${url}`).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return null;
  }
}

export function questionEngineFigure(
  answers: { id: string; ok: boolean; named: Named[]; sources: CitedSource[] }[],
  self: { website?: string | null; gbpUrl?: string | null },
): Omit<QuestionEngineFigure, "questionId" | "question" | "engine"> {
  const ok = answers.filter((a) => a.ok);
  const n = ok.length;
  const naming = ok.filter((a) => a.named.some((x) => x.self));
  const k = naming.length;
  const { low, high } = wilson(k, n);
  const positions = naming.map((a) => a.named.findIndex((x) => x.self) + 1);
  let selfMentions = 0;
  let localMentions = 0;
  const byName = new Map<string, NamedBusiness>();
  for (const a of ok) {
    for (const x of a.named) {
      if (x.local) localMentions++;
      if (x.self) selfMentions++;
      const got = byName.get(x.name.toLowerCase()) ?? { name: x.name, mentions: 0, local: x.local, self: x.self };
      got.mentions++;
      byName.set(x.name.toLowerCase(), got);
    }
  }
  const site = hostOf(self.website);
  const own = ok.filter((a) => a.sources.some((s) => (site !== null && hostOf(s.url) === site) || (self.gbpUrl ? s.url === self.gbpUrl : false))).length;
  return {
    k,
    n,
    mention_rate: n === 0 ? 0 : k / n,
    low,
    high,
    failed: answers.length - n,
    avg_position: positions.length === 0 ? null : positions.reduce((s, p) => s + p, 0) / positions.length,
    share_of_voice: localMentions === 0 ? null : selfMentions / localMentions,
    own_site_cited: own,
    answerIds: answers.map((a) => a.id),
    named: [...byName.values()].sort((a, b) => b.mentions - a.mentions),
  };
}

export function overallFigure(figures: QuestionEngineFigure[]): ScanView["overall"] {
  const counted = figures.filter((f) => f.n > 0);
  if (counted.length === 0) return null;
  const k = counted.reduce((s, f) => s + f.k, 0);
  const n = counted.reduce((s, f) => s + f.n, 0);
  const { low, high } = wilson(k, n);
  const shares = counted.map((f) => f.share_of_voice).filter((s): s is number => s !== null);
  const share = shares.length === 0 ? null : shares.reduce((s, x) => s + x, 0) / shares.length;
  return { k, n, mention_rate: counted.reduce((s, f) => s + f.mention_rate, 0) / counted.length, low, high, share_of_voice: share, share_low: null, share_high: null };
}

export function countCitedDomains(answers: { engine: AiEngine; ok: boolean; sources: CitedSource[] }[], citationFound?: (domain: string) => boolean | null): CitedDomain[] {
  const ok = answers.filter((a) => a.ok);
  const byDomain = new Map<string, { answers: number; engines: Set<AiEngine> }>();
  for (const a of ok) {
    const domains = new Set(a.sources.map((s) => hostOf(s.url)).filter((d): d is string => d !== null));
    for (const d of domains) {
      const got = byDomain.get(d) ?? { answers: 0, engines: new Set<AiEngine>() };
      got.answers++;
      got.engines.add(a.engine);
      byDomain.set(d, got);
    }
  }
  return [...byDomain.entries()]
    .map(([domain, v]) => {
      const found = citationFound ? citationFound(domain) : null;
      return { domain, answers: v.answers, of: ok.length, engines: [...v.engines], missing: found === null ? null : !found };
    })
    .sort((a, b) => b.answers - a.answers || a.domain.localeCompare(b.domain));
}

/** Whether two intervals no longer overlap. */
export function intervalsSeparate(a: { low: number; high: number }, b: { low: number; high: number }): boolean {
  return a.high < b.low || b.high < a.low;
}

export function actionTemplates(input: { businessName: string; figures: QuestionEngineFigure[]; citedDomains: CitedDomain[] }): string[] {
  const out: string[] = [];
  for (const d of input.citedDomains.filter((c) => c.missing === true).slice(0, 3)) out.push(`Get listed on ${d.domain}: AI answers cited it in ${d.answers} of ${d.of} answers.`);
  if (out.length === 0) out.push(`Ask more customers for reviews so AI assistants name ${input.businessName} more often.`);
  return out;
}
