// Secrets at rest (TOTP secrets; later OAuth tokens, webhook secrets): AES-GCM with a key derived by HKDF from ENCRYPTION_KEY.
import type { Env } from "../env";
import { HttpError } from "../errors";

const enc = new TextEncoder();
const dec = new TextDecoder();
const VERSION = "v1";

/** What a stored secret is for: each purpose has its own derived key, so one never opens another's. */
export type SecretPurpose = "totp-secret" | "google-token" | "webhook-secret";

/** For the logs and the admin Set-up checklist only: customers see what happened in their terms (below). */
export const ENCRYPTION_KEY_MISSING =
  "ENCRYPTION_KEY is not set (or shorter than 32 characters), so secrets cannot be stored. Set it with `wrangler secret put ENCRYPTION_KEY` (`npm start` writes one into .dev.vars locally).";

/** What a customer reads when a feature that keeps a secret cannot run (the agency is told through Set-up). */
export function encryptionUnavailableMessage(feature: string): string {
  return `${feature} isn't available yet; your agency has been told.`;
}

/** True when ENCRYPTION_KEY can protect secrets (features that store secrets refuse without it). */
export function encryptionConfigured(env: Env): boolean {
  return typeof env.ENCRYPTION_KEY === "string" && env.ENCRYPTION_KEY.length >= 32;
}

/** The derived keys, kept per isolate (HKDF and the import are cheap, but every code check needs one). */
const keys = new Map<string, Promise<CryptoKey>>();

function derivedKey(env: Env, purpose: SecretPurpose): Promise<CryptoKey> {
  if (!encryptionConfigured(env)) throw new HttpError(500, "server_misconfigured", ENCRYPTION_KEY_MISSING);
  const secret = env.ENCRYPTION_KEY!;
  const id = `${purpose}:${secret}`;
  let key = keys.get(id);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", enc.encode(secret), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: enc.encode("porchlight/secret-box/v1"), info: enc.encode(purpose) },
          base,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    keys.set(id, key);
  }
  return key;
}

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * Encrypts `plaintext` for `purpose`, bound to `context` (e.g. the row's id) as associated data, so a
 * ciphertext copied onto another row does not open. Format: `v1.<iv>.<ciphertext>` (base64url).
 */
export async function sealSecret(env: Env, purpose: SecretPurpose, context: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: enc.encode(context) },
    await derivedKey(env, purpose),
    enc.encode(plaintext),
  );
  return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
}

/** Opens what sealSecret made for the same purpose and context; throws when it was altered or the key changed. */
export async function openSecret(env: Env, purpose: SecretPurpose, context: string, sealed: string): Promise<string> {
  const [version, iv, body] = sealed.split(".");
  if (version !== VERSION || !iv || !body) throw new Error("unknown secret format");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64Url(iv), additionalData: enc.encode(context) },
    await derivedKey(env, purpose),
    fromBase64Url(body),
  );
  return dec.decode(plain);
}
