// Scaffold (issue 28): the "Ask for reviews" part of /tools/reviews. The review-requests helper (branch h-rreq) builds
// it; the inbox page (branch h-rin) mounts it in its second tab.
export function ReviewRequestsPanel() {
  return null;
}
