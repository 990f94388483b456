// The only hosts outside the app whose images its pages load: the ones the app itself writes image URLs for.
// Everything else (an AI-written post image, a pasted URL) fails the CSP and the page draws its stand-in.

/** Post placeholder images (placeholderImageUrl). Search result favicons are left out (issue 26). */
export const TRUSTED_IMAGE_ORIGINS = ["https://placehold.co"] as const;

/** True for an https URL on one of TRUSTED_IMAGE_ORIGINS. */
export function isTrustedImageUrl(url: string): boolean {
  try {
    return (TRUSTED_IMAGE_ORIGINS as readonly string[]).includes(new URL(url).origin);
  } catch {
    return false;
  }
}
