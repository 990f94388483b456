// "Ask for reviews" (issue 39): settings errors in the form's words under their fields, gone once the value is fixed;
// a paste/CSV answer with rows not sent is no green box, each row's reason listed; and sending waits for the link.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { RequestSettingsView } from "../../worker/features/review-requests/rules/review-requests";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

const PLACE_ID = "ChIJN1t_tDeuEmsRUsoyG83frY4";
const settingsView: RequestSettingsView = {
  delayMinutes: 120,
  emailSubject: "How did we do, {first_name}?",
  emailTemplate: "Hi {first_name}, {link}",
  smsTemplate: "Hi {first_name}, thanks for choosing {business}! {link}",
  quietStart: "20:00",
  quietEnd: "08:00",
  smsEnabled: true,
  placeId: PLACE_ID,
  hookConfigured: false,
  hookCreatedAt: null,
  effectivePlaceId: PLACE_ID,
  placeIdSource: "settings",
  timeZone: "America/Chicago",
  smsAvailable: true,
  defaults: { emailSubject: "", emailTemplate: "", smsTemplate: "" },
};
const list = { requests: [], figures: { total: 0, scheduled: 0, sent: 0, delivered: 0, opened: 0, failed: 0, optedOut: 0 }, openRate: null, likelyReviews: { count: 0, requestIds: [], lookbackDays: 180 }, channels: { sms: true, email: true } };
const link = (ready: boolean) => ({ slug: "abcd2345", shortUrl: "http://localhost/r/abcd2345", clicks: 0, placeId: ready ? PLACE_ID : null, placeIdSource: ready ? "settings" : null, reviewUrl: ready ? `https://search.google.com/local/writereview?placeid=${PLACE_ID}` : null });
const inbox = { connection: "not_connected", connectHint: null, sync: { lastSyncAt: null, nextSyncAt: null, error: null, googleAverage: null, googleTotal: null }, aiAvailable: false, counts: { all: 0, needs_reply: 0, low: 0, with_text: 0, replied: 0 }, reviews: [], figures: { total: 0, averageRating: null, replyRate: null, medianReplyHours: null, months: [], competitors: [], pass: null }, timeZone: "UTC" };

type Handler = (url: string, init: RequestInit) => Response | undefined;
function api(over: Handler = () => undefined, ready = true) {
  return stubFetch((url, init) => {
    const answer = over(url, init);
    if (answer) return answer;
    if (url.startsWith("/api/review-requests/settings")) return json(settingsView);
    if (url.startsWith("/api/review-requests/link")) return ready ? json(link(true)) : json(link(false));
    if (url.startsWith("/api/review-requests")) return json(list);
    if (url.startsWith("/api/reviews/settings")) return json({ settings: { tone: "friendly", signature: "", autoPublish: false, autoPublishDelayHours: 24 } });
    if (url.startsWith("/api/reviews")) return json(inbox);
    return json({});
  });
}

async function openAsk() {
  renderApp("/tools/reviews", signedIn());
  fireEvent.click(await screen.findByRole("tab", { name: "Ask for reviews" }));
  await screen.findByRole("button", { name: "Save settings" });
}

describe("Ask for reviews: settings", () => {
  it("shows a refused value's error under its field in words, never the field's key, and clears it once fixed", async () => {
    const puts: unknown[] = [];
    api((url, init) => {
      if (url === "/api/review-requests/settings" && init.method === "PUT") {
        puts.push(JSON.parse(String(init.body)));
        return json(settingsView);
      }
      return undefined;
    });
    await openAsk();
    const text = screen.getByLabelText("Text message");
    fireEvent.change(text, { target: { value: "Verify your account at evil.com {link}" } });
    fireEvent.change(screen.getByLabelText("Send after (minutes)"), { target: { value: "1.5" } });
    fireEvent.click(screen.getByRole("button", { name: "Save settings" }));
    expect(await screen.findByText("Remove “evil.com”: {link} is the only web address a message may carry")).toBeTruthy();
    expect(screen.getByText("Enter whole minutes")).toBeTruthy();
    expect(text.getAttribute("aria-invalid")).toBe("true");
    expect(document.body.textContent).not.toMatch(/smsTemplate|delayMinutes|placeId/);
    expect(puts).toEqual([]);

    // Fixing a value takes its error away at once; the other stays until it is fixed too.
    fireEvent.change(text, { target: { value: "Thanks from {business}! {link}" } });
    expect(screen.queryByText(/evil\.com/)).toBeNull();
    expect(screen.getByText("Enter whole minutes")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Send after (minutes)"), { target: { value: "90" } });
    expect(screen.queryByText("Enter whole minutes")).toBeNull();
    expect(screen.queryByText("Some settings need a change: see the fields marked above.")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Save settings" }));
    expect(await screen.findByText("Settings saved.")).toBeTruthy();
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({ delayMinutes: 90, smsTemplate: "Thanks from {business}! {link}" });
  });

  it("takes the server's refusal away once the value it was about is changed", async () => {
    api((url, init) => (url === "/api/review-requests/settings" && init.method === "PUT" ? json({ error: { code: "template_web_address", message: "Email subject: Keep the subject on one line" } }, 400) : undefined));
    await openAsk();
    fireEvent.click(screen.getByRole("button", { name: "Save settings" }));
    expect(await screen.findByText("Email subject: Keep the subject on one line")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Email subject"), { target: { value: "Thanks, {first_name}" } });
    expect(screen.queryByText("Email subject: Keep the subject on one line")).toBeNull();
  });
});

describe("Ask for reviews: sending", () => {
  const refusal = (row: number, code: string, message: string) => ({ row, ok: false, code, message });
  /** Sends these pasted rows, the POST answered with `answer`; returns the alert that says `said`. */
  async function sendRows(rows: string, answer: object, said: string) {
    api((url, init) => (url === "/api/review-requests" && init.method === "POST" ? json(answer) : undefined));
    await openAsk();
    fireEvent.click(screen.getByRole("button", { name: "Paste or CSV" }));
    fireEvent.change(screen.getByLabelText(/Customers, one a line/), { target: { value: rows } });
    fireEvent.click(screen.getByRole("button", { name: "Send request" }));
    return (await screen.findByText(said)).closest(".alert")!;
  }
  it("says none was scheduled, as an error with each row's reason, when no row went (no green box)", async () => {
    const box = await sendRows(
      'Ann,ann@example.com\n"Bob,bob@example.com',
      { results: [refusal(1, "opted_out", "This customer asked not to be contacted, so no request is sent."), refusal(2, "unclosed_quote", 'A quote (") is opened and not closed on this row')], created: 0, refused: 2 },
      "No request was scheduled: 2 rows not sent.",
    );
    expect(box.className).toContain("alert-error");
    const rows = within(box as HTMLElement).getByRole("list", { name: "Rows not sent" });
    expect(within(rows).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "Row 1: This customer asked not to be contacted, so no request is sent.",
      'Row 2: A quote (") is opened and not closed on this row',
    ]);
    expect(document.querySelector(".alert-success")).toBeNull();

    // Editing the rows takes the old answer away.
    fireEvent.change(screen.getByLabelText(/Customers, one a line/), { target: { value: "Ann,ann@example.com" } });
    expect(screen.queryByText("No request was scheduled: 2 rows not sent.")).toBeNull();
  });

  it("warns, not congratulates, when some rows went and some did not", async () => {
    const box = await sendRows(
      "Ann,ann@example.com\nBo,bo@example.com",
      { results: [{ row: 1, ok: true, id: "r1", status: "scheduled", dueAt: "2026-11-28T12:00:00.000Z" }, refusal(2, "asked_recently", "This customer was asked in the last 90 days.")], created: 1, refused: 1 },
      "1 request scheduled, 1 row not sent.",
    );
    expect(box.className).toContain("alert-warning");
    expect(box.textContent).toContain("Row 2: This customer was asked in the last 90 days.");
  });

  it("waits for the review link: says so and offers no Send", async () => {
    api(undefined, false);
    await openAsk();
    expect(await screen.findByText("Requests can be sent once your review link is ready: it needs your Google listing (see above).")).toBeTruthy();
    await waitFor(() => expect((screen.getByRole("button", { name: "Send request" }) as HTMLButtonElement).disabled).toBe(true));
  });
});
