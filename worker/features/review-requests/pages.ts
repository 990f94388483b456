// The small pages the review link serves itself (issue 28): the unsubscribe page a message links to, its answer,
// and the link's answer while the business has no Google listing set. Plain HTML, no script, one nonce'd style.
import { escape, page } from "../../platform/plain-page";

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
