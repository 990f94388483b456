// Structured logs: one JSON line per event with level, message and the request id, never emails, phones or prompts.
import { AsyncLocalStorage } from "node:async_hooks";

export type LogLevel = "debug" | "info" | "warn" | "error";
/** Small facts about the event (ids, counts, codes): no bodies, no prompts, no personal data. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** The unit of work a line belongs to: an HTTP request (its request id) or a queue message (its id). */
const scope = new AsyncLocalStorage<{ requestId: string }>();

/** Runs `fn` with `requestId` stamped on every log line written inside it, however deep. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return scope.run({ requestId }, fn);
}

export function currentRequestId(): string | undefined {
  return scope.getStore()?.requestId;
}

/** Longest text kept from one field or error message. */
const MAX_TEXT = 300;
const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[a-z]{2,}/gi;
// North-American style numbers and +international ones; not digits inside ids (UUIDs, hashes).
const PHONE = /(?<![\w-])(?:\+\d[\d ().-]{7,}\d|\(?\d{3}\)?[ .-]?\d{3}[ .-]\d{4})(?![\w-])/g;

/** Emails and phone numbers out, length capped. */
export function redact(text: string): string {
  const clean = text.replace(EMAIL, "[email]").replace(PHONE, "[phone]");
  return clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT - 1)}…` : clean;
}

function errorFields(error: unknown) {
  if (error instanceof Error) {
    return {
      error: redact(`${error.name}: ${error.message}`),
      // Where it happened, without the message line the stack repeats.
      at: error.stack?.split("\n").slice(1, 4).map((l) => l.trim()).join(" < ").slice(0, MAX_TEXT),
    };
  }
  return error === undefined ? {} : { error: redact(String(error)) };
}

/** The line itself (exported for tests). */
export function logLine(level: LogLevel, message: string, fields: LogFields = {}, error?: unknown): string {
  const entry: Record<string, unknown> = { level, message: redact(message), requestId: currentRequestId() ?? null };
  for (const [k, v] of Object.entries(fields)) {
    if (v !== undefined) entry[k] = typeof v === "string" ? redact(v) : v;
  }
  Object.assign(entry, errorFields(error));
  entry.time = new Date().toISOString();
  return JSON.stringify(entry);
}

function write(level: LogLevel, message: string, fields?: LogFields, error?: unknown) {
  const line = logLine(level, message, fields, error);
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

export const log = {
  debug: (message: string, fields?: LogFields) => write("debug", message, fields),
  info: (message: string, fields?: LogFields) => write("info", message, fields),
  warn: (message: string, fields?: LogFields, error?: unknown) => write("warn", message, fields, error),
  error: (message: string, fields?: LogFields, error?: unknown) => write("error", message, fields, error),
};
