// HMAC-SHA256 signatures the worker gives out and checks itself (voice lines, visit tokens): one key per purpose,
// derived from JWT_SECRET, so a signature made for one purpose never verifies for another.
import type { Env } from "../env";

const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(env: Pick<Env, "JWT_SECRET">, purpose: string): Promise<CryptoKey> {
  const secret = env.JWT_SECRET ?? "";
  if (!secret) throw new Error("JWT_SECRET is not set: nothing can be signed.");
  const id = `${purpose}\n${secret}`;
  let key = keys.get(id);
  if (!key) {
    const material = new TextEncoder().encode(`porchlight ${purpose} v1\n${secret}`);
    key = crypto.subtle.importKey("raw", material, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(id, key);
  }
  return key;
}

/** The signature of `message` for `purpose`, as 64 hex characters. */
export async function signFor(env: Pick<Env, "JWT_SECRET">, purpose: string, message: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await keyFor(env, purpose), new TextEncoder().encode(message));
  return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** True when `hex` is the signature of `message` for `purpose` (compared in constant time by WebCrypto). */
export async function verifyFor(env: Pick<Env, "JWT_SECRET">, purpose: string, message: string, hex: string): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(hex)) return false;
  const mac = new Uint8Array(hex.match(/../g)!.map((h) => parseInt(h, 16)));
  return crypto.subtle.verify("HMAC", await keyFor(env, purpose), mac, new TextEncoder().encode(message));
}
