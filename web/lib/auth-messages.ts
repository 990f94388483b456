// The spec's §8 wording for sign-in and sign-up failures, from an auth-js error.
export const MIN_PASSWORD_LENGTH = 6;
export const PASSWORD_HINT = "Password must be at least 6 characters";
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
