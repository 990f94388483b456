// The Account page's rules shared by the form and the API: deleting an account needs its password; a TOTP code is six digits.
import { z } from "zod";

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
