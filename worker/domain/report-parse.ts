// Reading the model's reply: code fences and surrounding prose tolerated, then the content schema.
import { z } from "zod";
import { type NormalizedReportContent, type ReportBusiness, ReportContent, normalizeReportContent } from "./report-content";

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
  return { ok: true, content: normalizeReportContent(parsed.data, business) };
}
