// "Ask for reviews" (issue 28, hardened in issue 39): the QR card names the business (the print view shows it), and
// the settings say where the link's Google listing comes from.
import { fireEvent, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RequestSettingsView } from "../../worker/features/review-requests/rules/review-requests";
import type { ReviewLinkView } from "../../worker/features/review-requests/requests";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

const link = (over: Partial<ReviewLinkView> = {}): ReviewLinkView => ({
  slug: "abcd2345",
  shortUrl: "http://localhost/r/abcd2345",
  clicks: 3,
  placeId: "ChIJfake-joes-plumbing",
  placeIdSource: "settings",
  reviewUrl: "https://search.google.com/local/writereview?placeid=ChIJfake-joes-plumbing",
  businessName: "Joe's Plumbing",
  ...over,
});

const settings = (over: Partial<RequestSettingsView> = {}): RequestSettingsView => ({
  delayMinutes: 120,
  emailSubject: "How did we do?",
  emailTemplate: "Hi {first_name}, {link}",
  smsTemplate: "Hi {first_name}, {link}",
  quietStart: "20:00",
  quietEnd: "08:00",
  smsEnabled: true,
  placeId: "",
  hookConfigured: false,
  hookCreatedAt: null,
  effectivePlaceId: "ChIJfake-joes-plumbing",
  placeIdSource: "settings",
  timeZone: "America/Chicago",
  smsAvailable: false,
  defaults: { emailSubject: "s", emailTemplate: "e", smsTemplate: "t" },
  ...over,
});

const list = { requests: [], figures: { total: 0, scheduled: 0, sent: 0, delivered: 0, opened: 0, failed: 0, optedOut: 0 }, openRate: null, likelyReviews: { count: 0, requestIds: [], lookbackDays: 180 }, channels: { sms: false, email: true } };
const inbox = { connection: "not_connected", connectHint: "Connect Google.", sync: { lastSyncAt: null, nextSyncAt: null, error: null, googleAverage: null, googleTotal: null }, aiAvailable: false, counts: { all: 0, needs_reply: 0, low: 0, with_text: 0, replied: 0 }, reviews: [], figures: { total: 0, averageRating: null, replyRate: null, medianReplyHours: null, months: [], competitors: [], pass: null }, timeZone: null };

function stubPanel(l: ReviewLinkView, s: RequestSettingsView) {
  stubFetch((url) => {
    if (url.startsWith("/api/review-requests/link?format=svg")) return new Response("<svg xmlns='http://www.w3.org/2000/svg'/>", { headers: { "Content-Type": "image/svg+xml" } });
    if (url.startsWith("/api/review-requests/link")) return json(l);
    if (url.startsWith("/api/review-requests/settings")) return json(s);
    if (url.startsWith("/api/review-requests")) return json(list);
    if (url.startsWith("/api/reviews?")) return json(inbox);
    return json({ settings: { tone: "friendly", signature: "", autoPublish: false, autoPublishDelayHours: 24 } });
  });
}

async function openAskTab() {
  renderApp("/tools/reviews", signedIn());
  fireEvent.click(await screen.findByRole("tab", { name: "Ask for reviews" }));
}

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => "blob:qr");
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.restoreAllMocks());

describe("Ask for reviews", () => {
  it("the QR card, which Print prints alone, carries the business's name", async () => {
    stubPanel(link(), settings());
    await openAskTab();
    const qr = (await screen.findByAltText("QR code of your review link")).closest("figure")!;
    expect(within(qr).getByText("Joe's Plumbing")).toBeTruthy();
    expect(within(qr).getByText("Scan to review us on Google")).toBeTruthy();
  });

  it("says the link's listing comes from the connected Google Business Profile", async () => {
    stubPanel(link({ placeIdSource: "google", placeId: "ChIJfake2001" }), settings({ placeIdSource: "google", effectivePlaceId: "ChIJfake2001" }));
    await openAskTab();
    expect(await screen.findByText("From your Google Business Profile: ChIJfake2001. Enter another only to send customers to a different listing.")).toBeTruthy();
  });

  it("without a listing, names connecting Google among the ways to make the link ready", async () => {
    stubPanel(link({ placeId: null, placeIdSource: null, reviewUrl: null }), settings({ placeIdSource: null, effectivePlaceId: null }));
    await openAskTab();
    expect(await screen.findByText(/connect your Google Business Profile, run an audit of your business, or enter your Google place ID/)).toBeTruthy();
  });
});
