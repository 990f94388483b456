// Voice speaks only what the assistant said: each sentence of a reply is signed (HMAC-SHA256 with a key derived from
// JWT_SECRET) for the chat it belongs to, and POST /api/tts takes a sentence only with its signature.
import { takeSentences, type VoiceLine } from "../domain/chat";
import type { Env } from "../env";

/** How long a reply's sentences may be spoken after it was written. */
export const VOICE_LINE_TTL_SECONDS = 3_600;

/** Whose chat a line belongs to: the admin who asked, or the shared report a visitor talks to. */
export type VoiceScope = { kind: "user"; userId: string } | { kind: "report"; reportId: string };

let cachedKey: { secret: string; key: Promise<CryptoKey> } | null = null;

function voiceKey(env: Env): Promise<CryptoKey> {
  const secret = env.JWT_SECRET ?? "";
  if (!secret) throw new Error("JWT_SECRET is not set: voice lines cannot be signed.");
  if (cachedKey?.secret !== secret) {
    // A key of its own (not the token key): a signature here never verifies as anything else.
    const material = new TextEncoder().encode(`porchlight voice lines v1\n${secret}`);
    cachedKey = { secret, key: crypto.subtle.importKey("raw", material, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]) };
  }
  return cachedKey.key;
}

function scopeId(scope: VoiceScope): string {
  return scope.kind === "user" ? `user:${scope.userId}` : `report:${scope.reportId}`;
}

function signed(scope: VoiceScope, expires: number, text: string): Uint8Array {
  return new TextEncoder().encode(`${scopeId(scope)}\n${expires}\n${text}`);
}

const toHex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

/** The reply's sentences, each with its token `<expires>.<hex mac>`. */
export async function signVoiceLines(env: Env, scope: VoiceScope, reply: string, nowMs = Date.now()): Promise<VoiceLine[]> {
  const { sentences, rest } = takeSentences(`${reply}\n`);
  const lines = [...sentences, rest.trim()].filter(Boolean);
  const expires = Math.floor(nowMs / 1000) + VOICE_LINE_TTL_SECONDS;
  const key = await voiceKey(env);
  return Promise.all(
    lines.map(async (text) => ({ text, token: `${expires}.${toHex(await crypto.subtle.sign("HMAC", key, signed(scope, expires, text)))}` })),
  );
}

/** True when the token was made by `signVoiceLines` for this text and scope and has not expired. */
export async function verifyVoiceLine(env: Env, scope: VoiceScope, line: VoiceLine, nowMs = Date.now()): Promise<boolean> {
  const match = /^(\d{1,12})\.([0-9a-f]{64})$/.exec(line.token);
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires < Math.floor(nowMs / 1000)) return false;
  const mac = new Uint8Array(match[2]!.match(/../g)!.map((h) => parseInt(h, 16)));
  return crypto.subtle.verify("HMAC", await voiceKey(env), mac, signed(scope, expires, line.text));
}
