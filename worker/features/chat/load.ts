// Loading what a chat talks about, with the spec's load errors (§8), for the admin and the public routes.
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import type { AppEnv } from "../../platform/context";
import { getDb, type Db } from "../../platform/db/client";
import { getChatSubject, getChatSubjectWithAudit, type ChatSubject } from "./queries";
import { aiConfigured } from "../../platform/providers/ai";
import { CHAT_BODY_MAX_BYTES } from "./rules/limits";
import { CHAT_TEXT, ChatRequest, chatLimitProblem, DEFAULT_QUESTIONS, DEFAULT_VOICE_ID, greetingFor, VOICES } from "./rules/chat";
import { apiError, ErrorCode, type FieldErrors } from "../../platform/errors";
import { subjectQuestions } from "./reply";
import { log } from "../../platform/log";

export const ReportId = z.uuid();

/** A chat message's body limit (the admin's and the public chat's): the conversation as sent. */
export const chatBodyLimit = bodyLimit({
  maxSize: CHAT_BODY_MAX_BYTES,
  onError: (c) => apiError(c, 413, ErrorCode.payloadTooLarge, "The conversation is too large to send."),
});

/** The typed error response, so the RPC client sees every route's success body. */
type ErrorResponse = ReturnType<typeof apiError>;

/** The subject (and what `read` adds), or the error response the page shows (400 bad id, 404 report / prospect, 503 store failure). */
async function loadSubjectVia<T extends { subject: ChatSubject | null }>(
  c: Context<AppEnv>,
  audience: "admin" | "public",
  read: (db: Db, reportId: string) => Promise<T>,
): Promise<(T & { subject: ChatSubject }) | { error: ErrorResponse }> {
  const id = c.req.param("reportId") ?? "";
  if (!ReportId.safeParse(id).success) {
    return { error: apiError(c, 400, "invalid_chat_id", audience === "admin" ? CHAT_TEXT.invalidId : CHAT_TEXT.invalidLink) };
  }
  let found: T;
  try {
    found = await read(getDb(c.env), id);
  } catch (error) {
    log.error("chat load failed", {}, error);
    return { error: apiError(c, 503, ErrorCode.unavailable, CHAT_TEXT.loadFailed) };
  }
  const subject = found.subject;
  if (!subject) {
    return { error: apiError(c, 404, ErrorCode.notFound, audience === "admin" ? CHAT_TEXT.reportNotFound : CHAT_TEXT.chatNotFound) };
  }
  if (!subject.prospectId) return { error: apiError(c, 404, ErrorCode.notFound, CHAT_TEXT.prospectNotFound) };
  return { ...found, subject };
}

/** The subject, or the error response the page shows. */
export function loadSubject(c: Context<AppEnv>, audience: "admin" | "public") {
  return loadSubjectVia(c, audience, async (db, id) => ({ subject: await getChatSubject(db, id) }));
}

/** The admin's message: the subject and its prospect's latest audit, in one round trip. */
export function loadSubjectWithAudit(c: Context<AppEnv>) {
  return loadSubjectVia(c, "admin", getChatSubjectWithAudit);
}

/** What both chat pages start from; the admin one adds the prospect's details and the system prompt. */
export function chatBootstrap(c: Context<AppEnv>, subject: ChatSubject) {
  const questions = subjectQuestions(subject);
  return {
    report_id: subject.reportId,
    greeting: greetingFor(subject),
    questions: questions.length ? questions : [...DEFAULT_QUESTIONS],
    ai_configured: aiConfigured(c.env),
    tts_configured: typeof c.env.ELEVENLABS_API_KEY === "string" && c.env.ELEVENLABS_API_KEY.trim() !== "",
    voices: VOICES.map(({ id, name }) => ({ id, name })),
    default_voice_id: DEFAULT_VOICE_ID,
  };
}

/** The POST body: JSON, no `system` turn (400), the schema (400), then the size caps (413 / 422). */
export async function readChatRequest(c: Context<AppEnv>): Promise<{ data: ChatRequest } | { error: ErrorResponse }> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    return { error: apiError(c, 400, ErrorCode.validation, "The request body must be JSON.") };
  }
  const turns = raw && typeof raw === "object" ? (raw as { messages?: unknown }).messages : undefined;
  if (Array.isArray(turns) && turns.some((t) => t && typeof t === "object" && (t as { role?: unknown }).role === "system")) {
    return { error: apiError(c, 400, "system_turn_refused", SYSTEM_TURN_REFUSED) };
  }
  const parsed = ChatRequest.safeParse(raw);
  if (!parsed.success) {
    const fields: FieldErrors = {};
    for (const issue of parsed.error.issues) (fields[issue.path.join(".") || "_"] ??= []).push(issue.message);
    const [key, messages] = Object.entries(fields)[0] ?? ["_", ["Invalid request"]];
    return { error: apiError(c, 400, ErrorCode.validation, `${key}: ${messages[0]}`, fields) };
  }
  const problem = chatLimitProblem(parsed.data.messages);
  if (problem) {
    return {
      error: apiError(c, problem.status, problem.status === 413 ? ErrorCode.payloadTooLarge : "conversation_too_long", problem.message),
    };
  }
  return { data: parsed.data };
}

export const SYSTEM_TURN_REFUSED = "Only user and assistant messages may be sent: the server writes the assistant's instructions.";

export { clientIp } from "../../platform/auth/session";
