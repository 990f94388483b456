// Needs Attention (issue 41) against stubbed API answers typed by the contract: the ranked cards with the client and
// what happened, Google's edit side by side with Accept and Reject (a risky value asks first, then is sent with
// confirmRisks), the drafted reply published from the queue, snooze and done, the tabs' counts, and the empty, loading
// and error states.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { AttentionItemView, AttentionResponse } from "../../worker/features/command-center/rules/attention";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

const item = (over: Partial<AttentionItemView>): AttentionItemView => ({
  id: "item-1",
  kind: "low_review",
  kindLabel: "Low review unanswered",
  actionLabel: "Open the drafted reply",
  client: { userId: "user-a", name: "Summit Roofing", email: "owner@summit.test" },
  title: "2-star review from Tom Becker unanswered: “Nobody came.”",
  detail: "Nobody came.",
  happenedAt: "2026-11-12T09:30:00Z",
  status: "open",
  snoozedUntil: null,
  doneBy: null,
  doneAt: null,
  link: null,
  changeId: null,
  review: null,
  change: null,
  ...over,
});

const REVIEW = item({ id: "i-review", review: { id: "rev-1", draft: "Tom, we're sorry.", replyState: "none" } });
const EDIT = item({
  id: "i-edit",
  kind: "google_updated",
  kindLabel: "Profile changed",
  client: { userId: "user-b", name: "Ridge Roofing", email: "owner@ridge.test" },
  title: "Google changed the phone: “(512) 555-0177”",
  detail: null,
  changeId: "change-1",
  change: { field: "phoneNumbers", beforeText: "(512) 555-0142", afterText: "(512) 555-0177", source: "google" },
});
const LOST = item({
  id: "i-lost",
  kind: "verification_lost",
  kindLabel: "Verification lost",
  client: { userId: "user-c", name: "Canyon Roofing", email: "owner@canyon.test" },
  title: "Google suspended the profile (Canyon Roofing — Austin)",
  detail: "Google suspended the profile for not following its guidelines. Google has suspended this profile. Fix what breaks Google's guidelines, then ask for reinstatement in Google Business Profile.",
});

type Call = { method: string; url: string; body: unknown };

function api(answer: (status: string) => AttentionResponse | Response, write: (c: Call) => Response = () => json({ ok: true })) {
  const calls: Call[] = [];
  stubFetch((url, init) => {
    const method = init.method ?? "GET";
    const call = { method, url, body: init.body ? JSON.parse(String(init.body)) : undefined };
    if (url.startsWith("/api/agency/attention") && method === "GET") {
      calls.push(call);
      const a = answer(new URL(url, "http://x").searchParams.get("status") ?? "open");
      return a instanceof Response ? a : json(a);
    }
    if (url.startsWith("/api/agency") || url.startsWith("/api/gbp") || url.startsWith("/api/reviews")) {
      calls.push(call);
      return write(call);
    }
    return url.startsWith("/api/notifications") ? json({ notifications: [], unread: 0, nextCursor: null }) : json({ reports: [] });
  });
  return { calls, writes: () => calls.filter((c) => c.method !== "GET") };
}

const list = (items: AttentionItemView[], counts = { open: items.length, snoozed: 0, done: 0 }): AttentionResponse => ({ items, counts });
const card = async (client: string) => (await screen.findByText(client, {}, { timeout: 5000 })).closest("li")!;

describe("Needs Attention", () => {
  it("shows each item with its client, what happened and when, in the server's order", async () => {
    api(() => list([LOST, EDIT, REVIEW]));
    renderApp("/admin/attention", signedIn({ admin: true }));
    await card("Canyon Roofing");
    const cards = screen.getAllByRole("listitem").filter((li) => li.classList.contains("att-card"));
    expect(cards.map((c) => within(c).getByText(/Roofing$/).textContent)).toEqual(["Canyon Roofing", "Ridge Roofing", "Summit Roofing"]);
    expect(within(cards[0]!).getByText("Verification lost")).toBeTruthy();
    expect(within(cards[0]!).getByText(/ask for reinstatement/)).toBeTruthy();
    expect(within(cards[0]!).getByRole("link", { name: "Open Google Business Profile" }).getAttribute("target")).toBe("_blank");
    expect(screen.getByRole("tab", { name: "Open (3)" })).toBeTruthy();
  });

  it("rejects Google's edit; a risky accept asks first and is then sent with confirmRisks", async () => {
    const risky = json({ error: { code: "edit_risky", message: "Risky.", risks: [{ field: "title", code: "name_city", message: "The name adds the city “Austin”." }] } }, 409);
    const stub = api(
      () => list([EDIT]),
      (c) => (c.url.endsWith("/accept") && !(c.body as { confirmRisks?: boolean })?.confirmRisks ? risky : json({ change: { id: "change-1", status: "rejected" } })),
    );
    renderApp("/admin/attention", signedIn({ admin: true }));
    const edit = await card("Ridge Roofing");
    expect(within(edit).getByText("Your value")).toBeTruthy();
    expect(within(edit).getByText("(512) 555-0142")).toBeTruthy();
    expect(within(edit).getByText("Google's value")).toBeTruthy();
    fireEvent.click(within(edit).getByRole("button", { name: "Reject: keep yours" }));
    await waitFor(() => expect(stub.writes()).toHaveLength(1));
    expect(stub.writes()[0]).toEqual({ method: "POST", url: "/api/gbp/guard/change-1/reject", body: {} });

    fireEvent.click(within(edit).getByRole("button", { name: "Accept Google's value" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("The name adds the city “Austin”.")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Send it anyway" }));
    await waitFor(() => expect(stub.writes()).toHaveLength(3));
    expect(stub.writes()[2]).toEqual({ method: "POST", url: "/api/gbp/guard/change-1/accept", body: { confirmRisks: true } });
  });

  it("publishes the drafted reply as edited, and says it is on its way", async () => {
    const stub = api(() => list([REVIEW]), () => json({ review: { id: "rev-1" } }, 202));
    renderApp("/admin/attention", signedIn({ admin: true }));
    const review = await card("Summit Roofing");
    const box = within(review).getByLabelText("Drafted reply") as HTMLTextAreaElement;
    expect(box.value).toBe("Tom, we're sorry.");
    fireEvent.change(box, { target: { value: "Tom, we're sorry. Call us." } });
    fireEvent.click(within(review).getByRole("button", { name: "Publish reply" }));
    await waitFor(() => expect(stub.writes()).toEqual([{ method: "PUT", url: "/api/reviews/rev-1/reply", body: { comment: "Tom, we're sorry. Call us." } }]));
    expect(await within(review).findByText(/Publishing the reply on Google/)).toBeTruthy();
  });

  it("snoozes a day and marks done", async () => {
    const stub = api(() => list([LOST]));
    renderApp("/admin/attention", signedIn({ admin: true }));
    const lost = await card("Canyon Roofing");
    fireEvent.click(within(lost).getByRole("button", { name: "Snooze a day" }));
    await waitFor(() => expect(stub.writes()).toHaveLength(1));
    const body = stub.writes()[0]!.body as { action: string; until: string };
    expect(body.action).toBe("snooze");
    expect(body.until).toBe(new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
    fireEvent.click(within(lost).getByRole("button", { name: "Mark done" }));
    await waitFor(() => expect(stub.writes()[1]).toEqual({ method: "POST", url: "/api/agency/attention/i-lost", body: { action: "done" } }));
  });

  it("says when all is clear, and when the queue could not be read", async () => {
    api(() => list([]));
    renderApp("/admin/attention", signedIn({ admin: true }));
    expect(await screen.findByText("All clear", {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(/Nothing needs you right now/)).toBeTruthy();
  });

  it("tops an admin's dashboard with the most urgent items and the way to the queue", async () => {
    api(() => list([LOST, EDIT, REVIEW]));
    renderApp("/dashboard", signedIn({ admin: true }));
    const top = (await screen.findByRole("heading", { name: "Needs attention" }, { timeout: 5000 })).closest("section")!;
    expect(within(top).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "Verification lost Canyon Roofing: Google suspended the profile (Canyon Roofing — Austin)",
      "Profile changed Ridge Roofing: Google changed the phone: “(512) 555-0177”",
      "Low review unanswered Summit Roofing: 2-star review from Tom Becker unanswered: “Nobody came.”",
    ]);
    expect(within(top).getByRole("link", { name: "Open the queue" }).getAttribute("href")).toBe("/admin/attention");
  });

  it("shows the failure with a retry", async () => {
    api(() => json({ error: { code: "internal_error", message: "Something went wrong" } }, 500));
    renderApp("/admin/attention", signedIn({ admin: true }));
    expect(await screen.findByText(/Failed to load the attention queue: Something went wrong/, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole("button", { name: /Retry|Try again/ })).toBeTruthy();
  });
});
