// The owner's profile guard on /integrations (issue 41) against stubbed answers typed by the contract: each location's
// last check in the business's words (a failed check says it could not be checked, never "no changes"), a lost
// verification and what to do, a change to keep or undo, Check now, the owner's own edit after the risk check; nothing
// shown without a connection.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { GuardResponse } from "../../worker/features/gbp-guard/rules/guard";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

const AUSTIN = { name: "accounts/1/locations/2", title: "Ridge Roofing — Austin", address: "Austin, TX", canOperateLocalPost: true };
const connected = { google: { status: "connected", canConnect: true, locations: [AUSTIN], available: [AUSTIN], lastSyncAt: "2026-11-20T10:00:00.000Z", error: null } };

const guard = (over: Partial<GuardResponse> = {}): GuardResponse => ({
  connection: "connected",
  business: { userId: "user-1", name: "Ridge Roofing" },
  locations: [
    { locationName: AUSTIN.name, title: AUSTIN.title, status: "failed", lastCheckedAt: null, checkText: "Google did not answer (503).", verified: false, voiceAction: "verify", voiceText: "Not verified: your edits do not go live." },
  ],
  open: [
    {
      id: "change-1",
      locationName: AUSTIN.name,
      locationTitle: AUSTIN.title,
      field: "websiteUri",
      label: "Website",
      source: "outside",
      sourceText: "Changed outside Porchlight",
      beforeText: "https://ridgeroofing.example/",
      afterText: "https://spam.example/",
      status: "open",
      statusText: "Waiting for a decision",
      detectedAt: "2026-11-28T03:00:00Z",
      resolvedAt: null,
      error: null,
      rejectRisks: [],
      acceptRisks: [],
    },
  ],
  recent: [],
  notice: null,
  ...over,
});

function api(integrations: unknown, answer: GuardResponse) {
  const writes: { method: string; url: string; body: unknown }[] = [];
  stubFetch((url, init) => {
    const method = init.method ?? "GET";
    if (url.startsWith("/api/integrations")) return json(integrations);
    if (url.startsWith("/api/gbp/guard")) {
      if (method === "GET") return json(answer);
      writes.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      return json({ queued: 1, change: { id: "change-1" } }, 202);
    }
    if (url.startsWith("/api/webhooks")) return json({ endpoints: [], events: [], urlRule: "" });
    return url.startsWith("/api/notifications") ? json({ notifications: [], unread: 0, nextCursor: null }) : json({ reports: [] });
  });
  return writes;
}

describe("Profile guard on Integrations", () => {
  it("shows each location's check and verification, and a change to keep or undo", async () => {
    const writes = api(connected, guard());
    renderApp("/integrations", signedIn());
    const section = (await screen.findByRole("heading", { name: "Profile guard" }, { timeout: 5000 })).closest("section")!;
    expect(within(section).getByText(/Could not be checked: Google did not answer \(503\)\./)).toBeTruthy();
    expect(within(section).queryByText(/No changes/)).toBeNull();
    expect(within(section).getByText("Not verified")).toBeTruthy();
    expect(within(section).getByText("Not verified: your edits do not go live.")).toBeTruthy();
    expect(within(section).getByText("Website · Changed outside Porchlight · Ridge Roofing — Austin")).toBeTruthy();
    expect(within(section).getByText("Before")).toBeTruthy();
    expect(within(section).getByText("https://spam.example/")).toBeTruthy();
    fireEvent.click(within(section).getByRole("button", { name: "Put it back" }));
    await waitFor(() => expect(writes).toEqual([{ method: "POST", url: "/api/gbp/guard/change-1/reject", body: {} }]));
    fireEvent.click(within(section).getByRole("button", { name: "Check now" }));
    await waitFor(() => expect(writes[1]).toEqual({ method: "POST", url: "/api/gbp/guard/check?business=own", body: undefined }));
  });

  it("edits the name on Google only after the risk check: the reasons shown, sent when confirmed", async () => {
    const sent: unknown[] = [];
    stubFetch((url, init) => {
      const method = init.method ?? "GET";
      if (url.startsWith("/api/integrations")) return json(connected);
      if (url === "/api/gbp/guard/edit?business=own") {
        const body = JSON.parse(String(init.body)) as { confirmRisks?: boolean };
        sent.push(body);
        if (!body.confirmRisks)
          return json({ error: { code: "edit_risky", message: "x", risks: [{ field: "title", code: "name_city", message: "The name adds the city “Austin”: Google suspends profiles whose name adds a location." }] } }, 409);
        return json({ field: "title", text: "Ridge Roofing Austin", message: "Sent to Google. Google may review the edit before it shows on the profile." });
      }
      if (url.startsWith("/api/gbp/guard") && method === "GET") return json(guard({ open: [] }));
      if (url.startsWith("/api/webhooks")) return json({ endpoints: [], events: [], urlRule: "" });
      return url.startsWith("/api/notifications") ? json({ notifications: [], unread: 0, nextCursor: null }) : json({ reports: [] });
    });
    renderApp("/integrations", signedIn());
    const section = (await screen.findByRole("heading", { name: "Profile guard" }, { timeout: 5000 })).closest("section")!;
    fireEvent.click(within(section).getByRole("button", { name: "Edit on Google" }));
    const dialog = await screen.findByRole("dialog");
    const name = within(dialog).getByLabelText("Business name") as HTMLInputElement;
    expect(name.value).toBe(AUSTIN.title);
    fireEvent.change(name, { target: { value: "Ridge Roofing Austin" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Check and send" }));
    expect(await within(dialog).findByText(/adds the city “Austin”/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Send it anyway" }));
    expect(await within(dialog).findByText(/Sent to Google\./)).toBeTruthy();
    expect(sent).toEqual([
      { locationName: AUSTIN.name, edit: { field: "title", title: "Ridge Roofing Austin" } },
      { locationName: AUSTIN.name, edit: { field: "title", title: "Ridge Roofing Austin" }, confirmRisks: true },
    ]);
  });

  it("is not shown before Google is connected", async () => {
    api({ google: { status: "not_connected", canConnect: true, locations: [], available: [], lastSyncAt: null, error: null } }, guard({ connection: "none", locations: [], open: [] }));
    renderApp("/integrations", signedIn());
    await screen.findByRole("button", { name: "Connect Google Business Profile" }, { timeout: 5000 });
    expect(screen.queryByRole("heading", { name: "Profile guard" })).toBeNull();
  });
});
