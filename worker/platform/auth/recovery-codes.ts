// One-time recovery codes for two-factor sign-in: made from random bytes, stored only as a keyed hash (a copy of the
// database alone cannot be searched for them), each usable once.
import { RECOVERY_CODE_ALPHABET, RECOVERY_CODE_COUNT, RECOVERY_CODE_LENGTH } from "./rules/accounts";
import type { Env } from "../env";
import { signFor } from "./signing";

const PURPOSE = "mfa recovery code";

/** A new set of codes (unformatted, 10 characters each): 32 letters, so each random byte's low 5 bits pick one. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () =>
    Array.from(crypto.getRandomValues(new Uint8Array(RECOVERY_CODE_LENGTH)), (b) => RECOVERY_CODE_ALPHABET[b & 31]).join(""),
  );
}

/** What is stored for a code: HMAC-SHA256 of the user id and the normalized code, with a key derived from JWT_SECRET. */
export function recoveryCodeHash(env: Env, userId: string, code: string): Promise<string> {
  return signFor(env, PURPOSE, `${userId}\n${code}`);
}
