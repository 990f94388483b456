// AI Visibility's engines (issue 29): one thin client per AI assistant, each asked a question as a customer in the
// business's city would ask it. ChatGPT through OpenAI's Responses API with the `web_search` tool (the `openai` SDK),
// Google AI Overviews and AI Mode through SerpAPI, Perplexity's Sonar API, Gemini with Google Search grounding. Every
// failure is an EngineOutcome (never a throw); no metering here: the scan's job reserves from the meter first.
import OpenAI from "openai";
import type { AiEngine, AskInput, AskLocation, CitedSource, EngineErrorKind, EngineOutcome } from "../../domain/ai-engines";
import type { Env } from "../env";
import { log } from "../log";
import { toAiError } from "./ai";
import { searchConfigured } from "./local-search";

export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";
export const DEFAULT_PERPLEXITY_BASE_URL = "https://api.perplexity.ai";
export const DEFAULT_GEMINI_BASE_URL = "https://generativelanguage.googleapis.com";
const DEFAULT_SERPAPI_BASE_URL = "https://serpapi.com";
/** A searched answer takes 10-30 s; past a minute the call is failed (the queue's message may try again). */
export const DEFAULT_AI_ENGINE_TIMEOUT_MS = 60_000;

/**
 * The models asked (fixed, not configuration: a figure compares like with like over the weeks). gpt-4.1-mini takes the
 * Responses API's web_search tool at a small model's price; sonar is Perplexity's base search model; gemini-2.5-flash
 * takes Google Search grounding. Google's two engines answer with Google's own model (SerpAPI does not name it).
 */
export const AI_ENGINE_MODELS = { chatgpt: "gpt-4.1-mini", perplexity: "sonar", gemini: "gemini-2.5-flash" } as const;

/** What each engine is called in a failure's message (the customer reads it on the answer). */
const ENGINE_NAMES: Record<AiEngine, string> = {
  chatgpt: "ChatGPT",
  google_ai_overview: "Google AI Overviews",
  google_ai_mode: "Google AI Mode",
  perplexity: "Perplexity",
  gemini: "Gemini",
};

const set = (v: string | undefined): boolean => typeof v === "string" && v.trim() !== "";
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);
const base = (value: string | undefined, fallback: string) => (value?.trim() || fallback).replace(/\/+$/, "");

/** The engines this deployment can ask, in the contract's order. */
export function configuredEngines(env: Env): AiEngine[] {
  const out: AiEngine[] = [];
  if (set(env.OPENAI_API_KEY)) out.push("chatgpt");
  if (searchConfigured(env)) out.push("google_ai_overview", "google_ai_mode");
  if (set(env.PERPLEXITY_API_KEY)) out.push("perplexity");
  if (set(env.GEMINI_API_KEY)) out.push("gemini");
  return out;
}

export function aiEngineTimeoutMs(env: Env): number {
  const n = Number(env.AI_ENGINE_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_AI_ENGINE_TIMEOUT_MS;
}

function failed(engine: AiEngine, kind: EngineErrorKind, error: string, fields: Record<string, string | number> = {}): EngineOutcome {
  if (kind !== "not_configured") log.warn("ai-visibility: engine call failed", { engine, kind, ...fields });
  return { ok: false, kind, error };
}

/** The failure's wording: what happened, in the customer's terms (never the provider's own text or a setting's name). */
function failureText(engine: AiEngine, kind: EngineErrorKind, detail: { ms?: number; status?: number } = {}): string {
  const name = ENGINE_NAMES[engine];
  switch (kind) {
    case "timeout":
      return `${name} did not answer within ${Math.max(1, Math.round((detail.ms ?? 0) / 1000))} s`;
    case "rate_limited":
      return `${name} is busy (too many requests); try again later`;
    case "http":
      return `${name} refused the question${detail.status ? ` (HTTP ${detail.status})` : ""}`;
    case "connection":
      return `${name} could not be reached`;
    case "empty":
      return `${name} gave no answer`;
    case "not_configured":
      return `${name} is not available`;
  }
}

/** Asks one engine one question. Never throws; a failed call is failed, never "not mentioned". */
export async function askEngine(env: Env, engine: AiEngine, input: AskInput): Promise<EngineOutcome> {
  if (!configuredEngines(env).includes(engine)) return failed(engine, "not_configured", failureText(engine, "not_configured"));
  const timeoutMs = aiEngineTimeoutMs(env);
  try {
    switch (engine) {
      case "chatgpt":
        return await askChatGpt(env, input, timeoutMs);
      case "google_ai_overview":
        return await askGoogleAiOverview(env, input, timeoutMs);
      case "google_ai_mode":
        return await askGoogleAiMode(env, input, timeoutMs);
      case "perplexity":
        return await askPerplexity(env, input, timeoutMs);
      case "gemini":
        return await askGemini(env, input, timeoutMs);
    }
  } catch (error) {
    // A parser's surprise is a failed call, not a crashed job.
    log.warn("ai-visibility: engine answer unreadable", { engine }, error);
    return { ok: false, kind: "empty", error: failureText(engine, "empty") };
  }
}

/** The same URL once: answers cite a page more than once (several annotations, a reference per block). */
function uniqueSources(sources: CitedSource[]): CitedSource[] {
  const seen = new Set<string>();
  const out: CitedSource[] = [];
  for (const s of sources) {
    if (!/^https?:\/\//i.test(s.url) || seen.has(s.url)) continue;
    seen.add(s.url);
    out.push(s.title ? { url: s.url, title: s.title } : { url: s.url });
  }
  return out;
}

function answered(engine: AiEngine, text: string, sources: CitedSource[], model?: string | null): EngineOutcome {
  if (text.trim() === "") return failed(engine, "empty", failureText(engine, "empty"));
  return { ok: true, answer: { text: text.trim(), sources: uniqueSources(sources), ...(model ? { model } : {}) } };
}

/** "Austin, Texas, US": where the question is asked from, for engines that read it from the prompt. */
function placeText(location: AskLocation): string {
  return [location.city, location.region, location.country].filter((p) => p && p.trim() !== "").join(", ");
}

/* ------------------------------ ChatGPT (OpenAI Responses API, web_search) ------------------------------ */

function openAiClient(env: Env, timeoutMs: number): OpenAI {
  return new OpenAI({ baseURL: base(env.OPENAI_BASE_URL, DEFAULT_OPENAI_BASE_URL), apiKey: env.OPENAI_API_KEY, timeout: timeoutMs, maxRetries: 0 });
}

async function askChatGpt(env: Env, input: AskInput, timeoutMs: number): Promise<EngineOutcome> {
  const { city, region, country, timezone } = input.location;
  // `max_tool_calls` is a documented request field the SDK's HTTP params type does not list yet (its realtime
  // ResponsesClientEvent does); the SDK sends the body as given.
  const body: OpenAI.Responses.ResponseCreateParamsNonStreaming & { max_tool_calls: number } = {
    model: AI_ENGINE_MODELS.chatgpt,
    input: input.question,
    // `web_search` (GA) replaced `web_search_preview`; the approximate location is how the API localises results.
    tools: [{ type: "web_search", user_location: { type: "approximate", city, region, country, ...(timezone ? { timezone } : {}) } }],
    // Each search is billed ($10 per 1,000 plus a fixed 8,000-token block on gpt-4.1-mini): two keep a call within the
    // meter's flat $0.03 (AI_ENGINE_USD_PER_CALL).
    max_tool_calls: 2,
    // Nothing to keep at OpenAI: the answer is stored here (R2).
    store: false,
  };
  let response: OpenAI.Responses.Response;
  try {
    response = await openAiClient(env, timeoutMs).responses.create(body);
  } catch (error) {
    const e = toAiError(error);
    return failed("chatgpt", e.kind, failureText("chatgpt", e.kind, { ms: timeoutMs, ...(e.status ? { status: e.status } : {}) }), e.status ? { status: e.status } : {});
  }
  const sources: CitedSource[] = [];
  let text = "";
  for (const item of response.output ?? []) {
    if (item.type !== "message") continue;
    for (const part of item.content) {
      if (part.type !== "output_text") continue;
      text += part.text;
      for (const a of part.annotations ?? []) if (a.type === "url_citation") sources.push({ url: a.url, title: a.title });
    }
  }
  return answered("chatgpt", text || response.output_text || "", sources, response.model);
}

/* --------------------------------------- JSON over fetch --------------------------------------- */

type JsonOutcome = { ok: true; body: Record<string, unknown> } | { ok: false; outcome: EngineOutcome };

async function fetchJson(engine: AiEngine, url: string, init: RequestInit, timeoutMs: number): Promise<JsonOutcome> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    text = await res.text();
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    const kind: EngineErrorKind = name === "TimeoutError" || name === "AbortError" ? "timeout" : "connection";
    return { ok: false, outcome: failed(engine, kind, failureText(engine, kind, { ms: timeoutMs })) };
  }
  if (!res.ok) {
    const kind: EngineErrorKind = res.status === 429 ? "rate_limited" : "http";
    // The provider's own words go to the log only.
    return { ok: false, outcome: failed(engine, kind, failureText(engine, kind, { status: res.status }), { status: res.status, detail: text.slice(0, 200) }) };
  }
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === "object" && !Array.isArray(body)) return { ok: true, body: body as Record<string, unknown> };
  } catch {
    // falls through
  }
  return { ok: false, outcome: failed(engine, "empty", failureText(engine, "empty"), { status: res.status }) };
}

/* ---------------------------- Google AI Overviews and AI Mode (SerpAPI) ---------------------------- */

const COUNTRY_NAMES: Record<string, string> = { US: "United States", CA: "Canada", GB: "United Kingdom", UK: "United Kingdom", AU: "Australia", NZ: "New Zealand", IE: "Ireland" };

/** SerpAPI's `location` ("Austin, Texas, United States"): the business's city, as its docs advise. */
export function serpLocation(location: AskLocation): string {
  const country = COUNTRY_NAMES[location.country.toUpperCase()] ?? location.country;
  return [location.city, location.region, country].filter((p) => p && p.trim() !== "").join(", ");
}

async function serpGet(env: Env, engine: AiEngine, params: Record<string, string>, timeoutMs: number): Promise<JsonOutcome> {
  const url = new URL(`${base(env.SERPAPI_BASE_URL, DEFAULT_SERPAPI_BASE_URL)}/search.json`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  // SerpAPI serves an identical search from its 1-hour cache: each sample must be Google's answer of the moment.
  url.searchParams.set("no_cache", "true");
  url.searchParams.set("api_key", env.SERPAPI_KEY ?? "");
  const got = await fetchJson(engine, url.toString(), { headers: { Accept: "application/json" } }, timeoutMs);
  if (!got.ok) return got;
  // SerpAPI answers some refusals with 200 and an `error` field ("hasn't returned any results" is an empty answer).
  const error = str(got.body.error);
  if (error) {
    const kind: EngineErrorKind = /hasn't returned any results|no results/i.test(error) ? "empty" : /run out of searches|rate/i.test(error) ? "rate_limited" : "http";
    return { ok: false, outcome: failed(engine, kind, failureText(engine, kind), { detail: error.slice(0, 200) }) };
  }
  return got;
}

type SerpReference = { link?: unknown; title?: unknown; index?: unknown };
type SerpBlock = { type?: unknown; title?: unknown; snippet?: unknown; list?: unknown; text_blocks?: unknown; table?: unknown };

/** SerpAPI's text_blocks as text: paragraphs and headings as lines, list items as "- **title**: snippet" (nested too). */
export function serpBlocksText(blocks: unknown, depth = 0): string {
  if (!Array.isArray(blocks)) return "";
  const lines: string[] = [];
  for (const block of blocks as SerpBlock[]) {
    if (!block || typeof block !== "object") continue;
    const title = str(block.title);
    const snippet = str(block.snippet);
    if (Array.isArray(block.list)) {
      if (title) lines.push(title);
      if (snippet) lines.push(snippet);
      for (const item of block.list as SerpBlock[]) {
        const t = str(item?.title);
        const s = str(item?.snippet);
        const indent = "  ".repeat(depth);
        if (t || s) lines.push(`${indent}- ${t ? `**${t}**${s ? `: ${s}` : ""}` : s}`);
        const nested = serpBlocksText(item?.list ? [{ list: item.list }] : item?.text_blocks, depth + 1);
        if (nested) lines.push(nested);
      }
    } else {
      if (title && snippet) lines.push(`**${title}**: ${snippet}`);
      else if (title ?? snippet) lines.push((title ?? snippet)!);
      const nested = serpBlocksText(block.text_blocks, depth);
      if (nested) lines.push(nested);
    }
  }
  return lines.join("\n");
}

function serpReferences(references: unknown): CitedSource[] {
  if (!Array.isArray(references)) return [];
  return (references as SerpReference[]).flatMap((r) => {
    const url = str(r?.link);
    const title = str(r?.title);
    return url ? [title ? { url, title } : { url }] : [];
  });
}

async function askGoogleAiOverview(env: Env, input: AskInput, timeoutMs: number): Promise<EngineOutcome> {
  const engine = "google_ai_overview";
  // AI Overviews show for English searches in a few countries (SerpAPI's docs): hl=en, gl from the business's country.
  const first = await serpGet(env, engine, { engine: "google", q: input.question, location: serpLocation(input.location), hl: "en", gl: input.location.country.toLowerCase() }, timeoutMs);
  if (!first.ok) return first.outcome;
  let overview = first.body.ai_overview as Record<string, unknown> | undefined;
  if (!overview || typeof overview !== "object") {
    return failed(engine, "empty", "Google showed no AI Overview for this question");
  }
  // Google sometimes loads the overview apart: the search answers only a page_token (valid 4 minutes), asked next.
  const token = str(overview.page_token);
  if (!Array.isArray(overview.text_blocks) && token) {
    const second = await serpGet(env, engine, { engine: "google_ai_overview", page_token: token }, timeoutMs);
    if (!second.ok) return second.outcome;
    overview = second.body.ai_overview as Record<string, unknown> | undefined;
    if (!overview || typeof overview !== "object") return failed(engine, "empty", "Google showed no AI Overview for this question");
  }
  return answered(engine, serpBlocksText(overview.text_blocks), serpReferences(overview.references));
}

async function askGoogleAiMode(env: Env, input: AskInput, timeoutMs: number): Promise<EngineOutcome> {
  const engine = "google_ai_mode";
  const got = await serpGet(env, engine, { engine: "google_ai_mode", q: input.question, location: serpLocation(input.location), hl: "en", gl: input.location.country.toLowerCase() }, timeoutMs);
  if (!got.ok) return got.outcome;
  const text = str(got.body.reconstructed_markdown) ?? serpBlocksText(got.body.text_blocks);
  return answered(engine, text, serpReferences(got.body.references));
}

/* ------------------------------------- Perplexity (Sonar API) ------------------------------------- */

async function askPerplexity(env: Env, input: AskInput, timeoutMs: number): Promise<EngineOutcome> {
  const engine = "perplexity";
  const { city, region, country } = input.location;
  const got = await fetchJson(
    engine,
    `${base(env.PERPLEXITY_BASE_URL, DEFAULT_PERPLEXITY_BASE_URL)}/chat/completions`,
    {
      method: "POST",
      headers: { Authorization: `Bearer ${env.PERPLEXITY_API_KEY}`, "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({
        model: AI_ENGINE_MODELS.perplexity,
        messages: [{ role: "user", content: input.question }],
        // The documented user location filter: city and region improve it most.
        web_search_options: { user_location: { country, region, city } },
      }),
    },
    timeoutMs,
  );
  if (!got.ok) return got.outcome;
  const body = got.body as { model?: unknown; choices?: { message?: { content?: unknown } }[]; citations?: unknown; search_results?: unknown };
  const text = str(body.choices?.[0]?.message?.content) ?? "";
  // search_results carry titles; citations (plain URLs) are the older field and still sent.
  const results = Array.isArray(body.search_results)
    ? (body.search_results as { url?: unknown; title?: unknown }[]).flatMap((r) => (str(r?.url) ? [{ url: str(r.url)!, ...(str(r.title) ? { title: str(r.title)! } : {}) }] : []))
    : [];
  const citations = Array.isArray(body.citations) ? (body.citations as unknown[]).flatMap((u) => (str(u) ? [{ url: str(u)! }] : [])) : [];
  const titled = new Map(results.map((r) => [r.url, r]));
  const sources = citations.length > 0 ? [...citations.map((c) => titled.get(c.url) ?? c), ...results] : results;
  return answered(engine, text, sources, str(body.model));
}

/* ------------------------------- Gemini (Google Search grounding) ------------------------------- */

async function askGemini(env: Env, input: AskInput, timeoutMs: number): Promise<EngineOutcome> {
  const engine = "gemini";
  const model = AI_ENGINE_MODELS.gemini;
  const got = await fetchJson(
    engine,
    `${base(env.GEMINI_BASE_URL, DEFAULT_GEMINI_BASE_URL)}/v1beta/models/${model}:generateContent`,
    {
      method: "POST",
      headers: { "x-goog-api-key": env.GEMINI_API_KEY ?? "", "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({
        // The Gemini API's google_search tool takes no location: the asker's city goes in as a system instruction.
        systemInstruction: { parts: [{ text: `The user is in ${placeText(input.location)}.` }] },
        contents: [{ role: "user", parts: [{ text: input.question }] }],
        tools: [{ google_search: {} }],
      }),
    },
    timeoutMs,
  );
  if (!got.ok) return got.outcome;
  type Candidate = { content?: { parts?: { text?: unknown }[] }; groundingMetadata?: { groundingChunks?: { web?: { uri?: unknown; title?: unknown } }[] } };
  const body = got.body as { candidates?: Candidate[]; modelVersion?: unknown };
  const candidate = body.candidates?.[0];
  const text = (candidate?.content?.parts ?? []).map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
  // Each chunk's uri is Google's grounding redirect; its title is the source's domain (worker/features/ai-visibility/rules/ai-visibility.ts reads it).
  const sources = (candidate?.groundingMetadata?.groundingChunks ?? []).flatMap((c) => {
    const url = str(c?.web?.uri);
    const title = str(c?.web?.title);
    return url ? [title ? { url, title } : { url }] : [];
  });
  return answered(engine, text, sources, str(body.modelVersion) ?? model);
}
