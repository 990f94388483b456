// The small pages the review link serves itself (issue 28): the unsubscribe page a message links to, its answer,
// and the link's answer while the business has no Google listing set. Plain HTML, no script, one nonce'd style.
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

export function stopPageHtml(business: string, token: string, nonce: string): string {
  return page(
    "Unsubscribe",
    `<h1>Stop review requests</h1><p>${escape(business)} won't ask you for a review again, by email or text message.</p><form method="post" action="/api/review-requests/unsubscribe"><input type="hidden" name="token" value="${escape(token)}"><button type="submit">Unsubscribe</button></form>`,
    nonce,
  );
}

export function stopConfirmationHtml(done: boolean, nonce = crypto.randomUUID().replace(/-/g, "")): string {
  return done
    ? page("Unsubscribed", "<h1>You're unsubscribed</h1><p>You won't get review requests from this business again.</p>", nonce)
    : page("Link not valid", "<h1>This link is not valid</h1><p>It may have been copied incompletely. Reply STOP to a text message, or contact the business.</p>", nonce);
}

export function linkNotReadyHtml(nonce: string): string {
  return page("Review link not ready", "<h1>This review link isn't ready yet</h1><p>The business hasn't connected its Google listing yet. Please try again later.</p>", nonce);
}
