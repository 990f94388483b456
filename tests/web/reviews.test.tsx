// The review inbox's screen (issue 28): without Google it says to connect (no Check now), the inbox with the
// template notice, a draft edited and published (the reply sent as typed), the filters, and the error state.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ReviewInboxResponse, ReviewJson } from "../../worker/features/reviews/rules/reviews";
import { REVIEWS_CONNECT_HINT } from "../../worker/features/reviews/rules/reviews";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

const at = "2026-11-20T15:01:23.000Z";
const review = (over: Partial<ReviewJson>): ReviewJson => ({
  id: "r1",
  googleReviewId: "AbFvOqm1",
  locationName: "accounts/1001/locations/2001",
  reviewer: { name: "Maria Gonzalez", photoUrl: null, anonymous: false },
  stars: 5,
  comment: "Fixed our roof repair the same week.",
  createTime: at,
  updateTime: at,
  edited: false,
  deletedAtGoogle: false,
  reply: null,
  draft: { comment: "Hi Maria, thank you!", source: "template", notice: "AI drafting is not available right now, so this reply was written from a template." },
  replyState: "none",
  replyError: null,
  autoPublishAt: null,
  history: [],
  ...over,
});

function inbox(over: Partial<ReviewInboxResponse> = {}): ReviewInboxResponse {
  const reviews = [review({}), review({ id: "r2", googleReviewId: "AbFvOqm2", reviewer: { name: "Tom Becker", photoUrl: null, anonymous: false }, stars: 2, comment: "Late.", replyState: "failed", replyError: "Google refused the reply: comment: not allowed" })];
  return {
    connection: "connected",
    connectHint: null,
    sync: { lastSyncAt: at, nextSyncAt: null, error: null, googleAverage: 3.5, googleTotal: 2 },
    aiAvailable: false,
    counts: { all: 2, needs_reply: 2, low: 1, with_text: 2, replied: 0 },
    reviews,
    figures: { total: 2, averageRating: 3.5, replyRate: 0, medianReplyHours: null, months: [{ month: "2026-11", count: 2, average: 3.5, cumulativeAverage: 3.5 }], competitors: [], pass: null },
    timeZone: "America/Chicago",
    ...over,
  };
}

const settings = { settings: { tone: "friendly", signature: "", autoPublish: false, autoPublishDelayHours: 24 } };

describe("Reviews", () => {
  it("without Google: says to connect, in the customer's words, and offers no Check now", async () => {
    stubFetch((url) => (url.startsWith("/api/reviews?") ? json(inbox({ connection: "not_connected", connectHint: REVIEWS_CONNECT_HINT, reviews: [], counts: { all: 0, needs_reply: 0, low: 0, with_text: 0, replied: 0 } })) : json(settings)));
    renderApp("/tools/reviews", signedIn());
    expect(await screen.findByText("Connect Google to see your reviews")).toBeTruthy();
    expect(screen.getByText(REVIEWS_CONNECT_HINT)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Connect Google" }).getAttribute("href")).toBe("/integrations");
    expect(screen.queryByRole("button", { name: "Check now" })).toBeNull();
  });

  it("lists the reviews with the template notice and Google's refusal, and publishes the edited draft", async () => {
    const sent: { url: string; body: unknown }[] = [];
    stubFetch((url, init) => {
      if (url.startsWith("/api/reviews?")) return json(inbox());
      if (url === "/api/reviews/r1/reply") {
        sent.push({ url, body: JSON.parse(String(init.body)) });
        return json({ review: review({ replyState: "queued" }) }, 202);
      }
      return json(settings);
    });
    renderApp("/tools/reviews", signedIn());
    const maria = (await screen.findByText("Maria Gonzalez")).closest("li")!;
    expect(screen.getByText(/replies are drafted from a template/)).toBeTruthy();
    expect(within(maria).getByText("Drafted reply (template)")).toBeTruthy();
    const tom = screen.getByText("Tom Becker").closest("li")!;
    expect(within(tom).getByText("Google refused the reply: comment: not allowed")).toBeTruthy();
    fireEvent.change(within(maria).getByRole("textbox"), { target: { value: "Thank you, Maria! — Dana" } });
    fireEvent.click(within(maria).getByRole("button", { name: "Publish" }));
    await waitFor(() => expect(sent).toEqual([{ url: "/api/reviews/r1/reply", body: { comment: "Thank you, Maria! — Dana" } }]));
    expect(screen.getByRole("button", { name: "Check now" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "1–3 stars (1)" })).toBeTruthy();
  });

  it("with no reviews yet, points to asking every customer, not only happy ones (issue 39)", async () => {
    stubFetch((url) => (url.startsWith("/api/reviews?") ? json(inbox({ reviews: [], counts: { all: 0, needs_reply: 0, low: 0, with_text: 0, replied: 0 } })) : json(settings)));
    renderApp("/tools/reviews", signedIn());
    expect(await screen.findByText(/Ask your customers in the Ask for reviews tab\./)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/happy customers/i);
  });

  it("a refused Check now says in words when it may run again (issue 39)", async () => {
    const words = "Your reviews were checked a moment ago. You can check again in 4 minutes.";
    stubFetch((url) => {
      if (url.startsWith("/api/reviews?")) return json(inbox());
      if (url === "/api/reviews/sync") return json({ error: { code: "sync_too_soon", message: words, retryAt: "2026-11-20T15:05:00.000Z" } }, 429);
      return json(settings);
    });
    renderApp("/tools/reviews", signedIn());
    fireEvent.click(await screen.findByRole("button", { name: "Check now" }));
    expect(await screen.findByText(words)).toBeTruthy();
  });

  it("says when the reviews could not be loaded", async () => {
    stubFetch((url) => (url.startsWith("/api/reviews?") ? json({ error: { code: "service_unavailable", message: "down" } }, 503) : json(settings)));
    renderApp("/tools/reviews", signedIn());
    expect(await screen.findByText("Your reviews could not be loaded.")).toBeTruthy();
  });
});
