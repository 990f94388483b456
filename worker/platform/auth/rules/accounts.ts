// The auth service's rules that the account screens share (worker/features/accounts/rules re-exports them): a new
// password's length, the recovery codes' alphabet, the user list's filters. Pure: shared by the worker and the web.
import { z } from "zod";

/** Issue 26 raised the spec's 6 to 8 (NIST SP 800-63B's minimum); the common-password check stays on the server. */
export const MIN_PASSWORD_LENGTH = 8;
export const PASSWORD_HINT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;

/** A new password (sign-up, reset, change): the server refuses a shorter one with GoTrue's weak_password. */
export const NewPassword = z.string().min(MIN_PASSWORD_LENGTH, PASSWORD_HINT).max(1024);

/** How many one-time recovery codes a set has. */
export const RECOVERY_CODE_COUNT = 10;
/** Their characters: Crockford's base32 (digits and capitals without I, L, O, U), 10 of them: 50 random bits a code. */
export const RECOVERY_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const RECOVERY_CODE_LENGTH = 10;

/** Users Management's filter: everyone, the admins, or the rest. */
export const USER_FILTERS = ["all", "admins", "regular"] as const;
export type UserFilter = (typeof USER_FILTERS)[number];
