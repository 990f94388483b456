// The Account page's rules shared by the forms and the API: a new password's length, deleting an account needs its
// password, a TOTP code is six digits, a recovery code is ten letters and digits.
import { z } from "zod";

export {
  MIN_PASSWORD_LENGTH,
  NewPassword,
  PASSWORD_HINT,
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
} from "../../../platform/auth/rules/accounts";

export const DeleteAccountInput = z.object({
  password: z.string().min(1, "Enter your password to delete your account.").max(1024),
});
export type DeleteAccountInput = z.infer<typeof DeleteAccountInput>;

/** The code an authenticator app shows: six digits (spaces a user types are dropped first). */
export const TotpCode = z
  .string()
  .transform((s) => s.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "The code is the 6 digits your authenticator app shows now."));

export const DELETE_ACCOUNT_LAST_ADMIN =
  "You are the only admin. Make another user an admin before you delete your account.";

/** A recovery code as typed: case, spaces and the dash in the middle do not matter; O reads as 0, I and L as 1. */
export const RecoveryCode = z
  .string()
  .max(40)
  .transform((s) => s.toUpperCase().replace(/[\s-]+/g, "").replace(/O/g, "0").replace(/[IL]/g, "1"))
  .pipe(z.string().regex(/^[0-9A-HJKMNP-TV-Z]{10}$/, "A recovery code is the 10 letters and digits from the list you saved, like ABCDE-12345."));

/** A code as shown: two groups of five. */
export function formatRecoveryCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}
