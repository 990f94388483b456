// TOTP (RFC 6238: SHA-1, 6 digits, 30 s, ±1 step) through the otpauth library, and the QR code of its otpauth:// URI (uqr).
import { Secret, TOTP } from "otpauth";
import { renderSVG } from "uqr";

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Codes of the step before and after the current one are accepted (clock drift). */
export const TOTP_WINDOW = 1;

function totp(secretBase32: string, issuer = "", label = "") {
  return new TOTP({ issuer, label, algorithm: "SHA1", digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/** A new random secret (160 bits, as RFC 4226 recommends), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** What an authenticator app needs: the secret, its otpauth:// URI and that URI as a QR code (SVG markup). */
export function totpEnrolment(secretBase32: string, issuer: string, accountName: string) {
  const uri = totp(secretBase32, issuer, accountName).toString();
  return { secret: secretBase32, uri, qr_code: renderSVG(uri, { border: 2, pixelSize: 6, ecc: "M" }) };
}

/**
 * The time step the code belongs to (within ±1 step of `nowMs`), or null when it matches none.
 * The caller makes sure a step is accepted only once.
 */
export function totpStep(secretBase32: string, code: string, nowMs = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secretBase32).validate({ token: code, timestamp: nowMs, window: TOTP_WINDOW });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
}
