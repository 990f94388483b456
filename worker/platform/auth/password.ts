// Password hashing: PBKDF2-SHA256 with a self-describing stored format, so parameters can be raised later.
import { MIN_PASSWORD_LENGTH, NewPassword } from "./rules/accounts";
import { isCommonPassword } from "./common-passwords";

/** Cloudflare Workers refuse PBKDF2 above 100,000 iterations in production. */
export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

const enc = new TextEncoder();

export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}
export function fromBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", enc.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
    key,
    HASH_BITS,
  );
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${toBase64(salt)}$${toBase64(hash)}`;
}

/** Same-length comparison that does not stop at the first difference. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * A stored hash for a password nobody has. Verifying against it when the email is unknown makes
 * "no such user" cost the same as "wrong password".
 */
export const DUMMY_HASH = `pbkdf2-sha256$${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iter, saltB64, hashB64] = stored.split("$");
  if (scheme !== "pbkdf2-sha256" || !iter || !saltB64 || !hashB64) return false;
  const iterations = Math.min(Number(iter), PBKDF2_ITERATIONS);
  if (!Number.isInteger(iterations) || iterations < 1) return false;
  const expected = fromBase64(hashB64);
  const actual = await derive(password, fromBase64(saltB64), iterations);
  return constantTimeEqual(actual, expected);
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): { code: "weak_password"; message: string; reasons: string[] } | null {
  if (!NewPassword.safeParse(password).success)
    return {
      code: "weak_password",
      message: `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`,
      reasons: ["length"],
    };
  if (isCommonPassword(password))
    return {
      code: "weak_password",
      message: "This password is too common and easy to guess. Please choose a different one.",
      reasons: ["pwned"],
    };
  return null;
}
