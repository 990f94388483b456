// Voice speaks only what the assistant said: each sentence of a reply is signed for the chat it belongs to, and
// POST /api/tts takes a sentence only with its signature.
import { signFor, verifyFor } from "../../platform/auth/signing";
import { takeSentences, type VoiceLine } from "./rules/chat";
import type { Env } from "../../platform/env";

/** How long a reply's sentences may be spoken after it was written. */
export const VOICE_LINE_TTL_SECONDS = 3_600;

/** Whose chat a line belongs to: the admin who asked, or the shared report a visitor talks to. */
export type VoiceScope = { kind: "user"; userId: string } | { kind: "report"; reportId: string };

const PURPOSE = "voice lines";

function message(scope: VoiceScope, expires: number, text: string): string {
  return `${scope.kind === "user" ? `user:${scope.userId}` : `report:${scope.reportId}`}\n${expires}\n${text}`;
}

/** The reply's sentences, each with its token `<expires>.<hex mac>`. */
export async function signVoiceLines(env: Env, scope: VoiceScope, reply: string, nowMs = Date.now()): Promise<VoiceLine[]> {
  const { sentences, rest } = takeSentences(`${reply}\n`);
  const lines = [...sentences, rest.trim()].filter(Boolean);
  const expires = Math.floor(nowMs / 1000) + VOICE_LINE_TTL_SECONDS;
  return Promise.all(lines.map(async (text) => ({ text, token: `${expires}.${await signFor(env, PURPOSE, message(scope, expires, text))}` })));
}

/** True when the token was made by `signVoiceLines` for this text and scope and has not expired. */
export async function verifyVoiceLine(env: Env, scope: VoiceScope, line: VoiceLine, nowMs = Date.now()): Promise<boolean> {
  const match = /^(\d{1,12})\.([0-9a-f]{64})$/.exec(line.token);
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires < Math.floor(nowMs / 1000)) return false;
  return verifyFor(env, PURPOSE, message(scope, expires, line.text), match[2]!);
}
