// Stripe webhooks: the signature (HMAC-SHA256 of "{t}.{raw body}", any of several v1 values, 5-minute tolerance)
// and the parts of an event the webhook reads.
import { z } from "zod";

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: string };

function hexToBytes(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Verifies a `Stripe-Signature` header (`t=…,v1=…,v1=…`) for the raw body. Each candidate is checked
 * with `crypto.subtle.verify`, which compares in constant time; any matching v1 passes.
 */
export async function verifyStripeSignature(
  rawBody: string,
  header: string | undefined,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<SignatureCheck> {
  if (!header) return { ok: false, reason: "Missing Stripe-Signature header." };
  let timestamp = NaN;
  const candidates: Uint8Array[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") timestamp = /^\d+$/.test(value) ? Number(value) : NaN;
    else if (key === "v1") {
      const bytes = hexToBytes(value);
      if (bytes) candidates.push(bytes);
    }
  }
  if (!Number.isFinite(timestamp)) return { ok: false, reason: "The signature has no valid timestamp." };
  if (candidates.length === 0) return { ok: false, reason: "The signature has no v1 value." };
  if (Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) {
    return { ok: false, reason: "The signature timestamp is outside the tolerance." };
  }
  const key = await hmacKey(secret, "verify");
  const signed = new TextEncoder().encode(`${timestamp}.${rawBody}`);
  for (const candidate of candidates) {
    if (await crypto.subtle.verify("HMAC", key, candidate, signed)) return { ok: true, timestamp };
  }
  return { ok: false, reason: "No signature matches the payload." };
}

/** Signs a payload as Stripe does (tests and local tools use it to send webhooks). */
export async function signStripePayload(rawBody: string, secret: string, timestamp: number): Promise<string> {
  const key = await hmacKey(secret, "sign");
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${timestamp}.${rawBody}`)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

function hmacKey(secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [usage]);
}

/** The parts of a Stripe event the webhook reads; anything else in the payload is ignored. */
export const StripeEvent = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  created: z.number().int().nonnegative(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type StripeEvent = z.infer<typeof StripeEvent>;
