// Hostile strings for the XSS journey: markup and links that run script if a page ever treats them as HTML or
// follows them as a link. Each sets `window.__xss` to its own name when it runs, so a failure says which got through.

export const XSS_MARKUP = {
  img: `<img src=x onerror="window.__xss='img'">`,
  svg: `<svg onload="window.__xss='svg'"></svg>`,
  script: `<script>window.__xss='script'</script>`,
  /** Leaves an attribute, a textarea, a title or a script element first (server-rendered pages, JSON in a script). */
  breakout: `"'></textarea></title></script><img src=x onerror=window.__xss='breakout'>`,
} as const;

export const XSS_LINKS = {
  javascript: `javascript:window.__xss='javascript'`,
  data: `data:text/html,<script>parent.__xss='data'</script>`,
  /** Browsers ignore case, leading spaces and tabs inside a scheme. */
  disguised: ` JaVa\tScRiPt:window.__xss='disguised'`,
} as const;

/** Every markup payload in one string: what a free-text field gets. */
export const XSS_TEXT = Object.values(XSS_MARKUP).join(" ");

/** One payload short enough for small fields (a phone number: 50 characters). */
export const XSS_SHORT = `<img src=x onerror=window.__xss='short'>`;

/** `text` followed by every markup payload. */
export function hostile(text: string): string {
  return `${text} ${XSS_TEXT}`;
}
