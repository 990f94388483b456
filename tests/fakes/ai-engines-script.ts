// What the AI Visibility engine fakes answer (tests/fakes/ai-engines-fake.ts for OpenAI, Perplexity and Gemini; the
// search fake for Google AI Overviews and AI Mode), scripted by markers in the question so a scan's figures are known
// in advance. Pure: the fakes count the samples and build the documented answer around what this returns.
//
// Markers (any order, anywhere in the question; several `fail` markers may be given):
//   [aiv:names=Ridge Plumbing|Desert Sun Plumbing]  businesses the answer lists, in order (default: the fixture's two)
//   [aiv:pattern=11000]  sample i (0-based, counted per engine and question) lists the FIRST name only when the
//                        pattern's (i mod length)-th digit is 1; the other names are always listed. Default: always.
//   [aiv:cite=angi.com|yelp.com]  the domains the answer cites (default: the fixture's sources)
//   [aiv:fail=500] | [aiv:fail=perplexity:429] | [aiv:fail=gemini:timeout@1,3] | [aiv:fail=empty]
//                        every engine (or the one named) fails on every sample (or on the samples after @) with an
//                        HTTP 500, a 429, no answer until the client gives up, or an answer without text
//   [aiv:page_token]     Google answers its AI Overview in two calls (the search gives a page_token only)
import type { AiEngine } from '../../worker/features/ai-visibility/rules/contract';

export type AiFailure = '500' | '429' | 'timeout' | 'empty';

/** How long a `timeout` failure holds the request open if the client never gives up. */
export const AI_FAKE_HANG_MS = 30_000;

/** The fixtures' own businesses, listed when the question names none. */
export const AI_FAKE_DEFAULT_NAMES = ['Radiant Plumbing & Air Conditioning', 'S&D Plumbing'];

export interface AiScript {
  names: string[];
  pattern: string | null;
  cite: string[] | null;
  fails: { engine: AiEngine | null; failure: AiFailure; samples: number[] | null }[];
  pageToken: boolean;
}

const MARKER = /\[aiv:([a-z_]+)(?:=([^\]]*))?\]/gi;

export function parseAiScript(question: string): AiScript {
  const script: AiScript = { names: [], pattern: null, cite: null, fails: [], pageToken: false };
  for (const [, key, value = ''] of question.matchAll(MARKER)) {
    const k = key!.toLowerCase();
    if (k === 'names') script.names = value.split('|').map((n) => n.trim()).filter(Boolean);
    else if (k === 'pattern') script.pattern = value.replace(/[^01]/g, '') || null;
    else if (k === 'cite') script.cite = value.split('|').map((d) => d.trim()).filter(Boolean);
    else if (k === 'page_token') script.pageToken = true;
    else if (k === 'fail') {
      const [target, at] = value.split('@');
      const parts = target!.split(':');
      const failure = parts.pop() as AiFailure;
      const engine = (parts[0] as AiEngine | undefined) ?? null;
      const samples = at ? at.split(',').map(Number).filter(Number.isInteger) : null;
      script.fails.push({ engine, failure, samples });
    }
  }
  return script;
}

/** The question without its markers: what a real engine would have been asked. */
export function plainQuestion(question: string): string {
  return question.replace(MARKER, '').replace(/\s+/g, ' ').trim();
}

/** How this sample fails, if it does. */
export function failureFor(script: AiScript, engine: AiEngine, sample: number): AiFailure | null {
  const hit = script.fails.find((f) => (f.engine === null || f.engine === engine) && (f.samples === null || f.samples.includes(sample)));
  return hit?.failure ?? null;
}

/** The businesses this sample's answer lists, in order. */
export function namesFor(script: AiScript, sample: number): string[] {
  const names = script.names.length > 0 ? script.names : AI_FAKE_DEFAULT_NAMES;
  if (!script.pattern) return names;
  const listFirst = script.pattern[sample % script.pattern.length] === '1';
  return listFirst ? names : names.slice(1);
}

/** One line per business, as assistants write their lists. */
export function blurbFor(name: string, i: number): string {
  const blurbs = ['known for same-day service and upfront prices', 'a family business with 24/7 emergency calls', 'highly rated for water heater installs', 'praised for clean, on-time work'];
  return `${blurbs[i % blurbs.length]!.charAt(0).toUpperCase()}${blurbs[i % blurbs.length]!.slice(1)}.`;
}

/** The answer's text: an intro and a numbered list of bold names (what findNamedBusinesses reads). */
export function answerText(question: string, names: string[]): string {
  const intro = `Here are some well-reviewed options for "${plainQuestion(question)}":`;
  return [intro, '', ...names.map((n, i) => `${i + 1}. **${n}** - ${blurbFor(n, i)}`)].join('\n');
}

/** The cited sources: the scripted domains, or null for the fixture's own. */
export function citedFor(script: AiScript): { url: string; title: string }[] | null {
  if (!script.cite) return null;
  return script.cite.map((domain) => ({ url: `https://www.${domain.replace(/^www\./, '')}/austin-tx/plumbers`, title: `Best plumbers in Austin - ${domain}` }));
}
