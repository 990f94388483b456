// The spec's §8 wording for sign-in and sign-up failures, from an auth-js error.
export { MIN_PASSWORD_LENGTH, PASSWORD_HINT } from "../../../worker/features/accounts/rules/account";
/** Redirect after sign-up (spec §9). */
export const SIGNUP_REDIRECT_MS = 2000;

type AuthErrorLike = { message?: string; status?: number } | null | undefined;

export function signInErrorMessage(error: AuthErrorLike): string {
  const message = error?.message ?? "";
  if (message.includes("Invalid login credentials")) {
    return "Invalid login credentials. Please make sure you have signed up first using the Sign Up page.";
  }
  if (error?.status === 500) {
    return "A server error occurred. This may be because the user does not exist in the auth system. Please sign up first.";
  }
  return message || "An error occurred during login";
}

export function signUpErrorMessage(error: AuthErrorLike): string {
  if (error?.status === 500) return "A server error occurred. Please try again later.";
  return error?.message || "An error occurred during signup";
}

/** The two-factor prompt (issue 17). */
export const TOTP_PROMPT = "Enter the 6-digit code from your authenticator app";

/** A failed two-factor code, in words: wrong, already used, too many tries, or the server's own message. */
export function totpErrorMessage(error: { code?: string; message?: string; status?: number } | null | undefined): string {
  switch (error?.code) {
    case "mfa_verification_failed":
      return "That code is not right. Check the time on your phone and enter the code your authenticator app shows now.";
    case "mfa_code_reused":
      return "That code was already used. Wait for the next code from your authenticator app and enter it.";
    case "mfa_challenge_expired":
      return "That took too long. Enter the code your authenticator app shows now.";
  }
  if (error?.status === 429) return "Too many attempts. Please wait a few minutes and try again.";
  return error?.message || "The code could not be checked. Please try again.";
}

/** The recovery-code prompt (issue 26). */
export const RECOVERY_PROMPT = "Enter one of the recovery codes you saved when you set up two-factor sign-in";

/** A refused recovery code, in words. */
export function recoveryErrorMessage(error: { code?: string; message?: string; status?: number } | null | undefined): string {
  if (error?.code === "mfa_verification_failed") return "That recovery code is not right, or it was already used. Each code works once.";
  if (error?.status === 429) return "Too many attempts. Please wait a few minutes and try again.";
  return error?.message || "The code could not be checked. Please try again.";
}

/** Where a deleted account's browser lands, and what /login then says. */
export const ACCOUNT_DELETED_PATH = "/login?deleted=1";
export const ACCOUNT_DELETED_NOTICE = "Your account and its data were deleted.";
