// Reading the model's reply: code fences and surrounding prose tolerated, then the content schema.
import { z } from "zod";
import { type NormalizedReportContent, type ReportBusiness, ReportContent, normalizeReportContent } from "./content";

export const EMPTY_AI_RESPONSE = "Empty response received from OpenRouter";

export type ParseReportResult =
  | { ok: true; content: NormalizedReportContent }
  | { ok: false; reason: "empty" | "malformed" | "schema"; detail: string };

function stripCodeFence(text: string): string {
  const fenced = /^```[a-z]*\s*([\s\S]*?)\s*```$/i.exec(text);
  return fenced ? (fenced[1] ?? "") : text;
}

function parseJsonLoosely(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // Models sometimes wrap the object in a sentence; try the outermost braces before giving up.
    const start = text.indexOf("{");
    const end = text.lastIndexOf("}");
    if (start >= 0 && end > start && (start > 0 || end < text.length - 1)) {
      return JSON.parse(text.slice(start, end + 1));
    }
    throw error;
  }
}

export function parseReportContent(raw: string, business?: ReportBusiness): ParseReportResult {
  const text = stripCodeFence(raw.trim()).trim();
  if (text === "") return { ok: false, reason: "empty", detail: EMPTY_AI_RESPONSE };

  let json: unknown;
  try {
    json = parseJsonLoosely(text);
  } catch (error) {
    return { ok: false, reason: "malformed", detail: error instanceof Error ? error.message : String(error) };
  }

  const parsed = ReportContent.safeParse(json);
  if (!parsed.success) return { ok: false, reason: "schema", detail: z.prettifyError(parsed.error) };
  return { ok: true, content: normalizeReportContent(onlyWebLinks(parsed.data), business) };
}

/** The fields of the model's reply that hold a link (display URL, target URL, canonical URL, image). */
const LINK_FIELDS = new Set(["displayUrl", "targetUrl", "url", "canonical", "canonicalUrl", "image", "href"]);

/**
 * A link the model wrote is kept only if it is http(s) or has no scheme at all (a display URL like
 * "example.com/roofing"); `javascript:`, `data:` and every other scheme, however disguised, become "".
 */
export function safeLink(value: string): string {
  // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:"), so the check does too.
  // eslint-disable-next-line no-control-regex
  const squeezed = value.replace(/[\u0000-\u0020\u007f-\u00a0\u2028\u2029]/g, "");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(squeezed)?.[1]?.toLowerCase();
  if (scheme === undefined) return /^(&|%|\\)/.test(squeezed) ? "" : value;
  return scheme === "http" || scheme === "https" ? value : "";
}

/** A copy of the model's content with every link field passed through safeLink. */
export function onlyWebLinks<T>(content: T): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== "object") return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, LINK_FIELDS.has(key) && typeof value === "string" ? safeLink(value) : walk(value)]),
    );
  };
  return walk(content) as T;
}
