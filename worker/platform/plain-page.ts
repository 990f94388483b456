// A small plain HTML page the worker serves itself (the review link's, a client report recipient's confirmation):
// its title and body, one nonce'd style, no script, and the CSP that allows exactly that.
const STYLE = "body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1f2937}button{font:inherit;padding:.6rem 1.2rem;border-radius:6px;border:1px solid #1f2937;background:#1f2937;color:#fff}";

/** A small plain page: its title and body (HTML the caller escaped), one nonce'd style, no script. */
export function page(title: string, body: string, nonce: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style nonce="${nonce}">${STYLE}</style></head><body>${body}</body></html>`;
}

/** The page's Content-Security-Policy: its own style, and its form posting to this origin. */
export function pageCsp(nonce: string): string {
  return `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;
}

export const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
