// The Widgets page (issue 21) with a stubbed API: the empty state, the list, a widget's snippets and recent leads,
// the origin check before saving, the error state.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { LeadDto, WidgetDto, WidgetProtection } from "../../worker/features/widgets/rules/widgets";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

function widget(over: Partial<WidgetDto> = {}): WidgetDto {
  return {
    id: "0b7f3c2e-9f4d-4c7e-8a55-6f0e1b2c3d4e",
    name: "Homepage form",
    accent: "#0f766e",
    logoUrl: null,
    askWebsite: true,
    askPhone: false,
    consentText: "I agree to be contacted about my free audit.",
    origins: ["https://www.acme-marketing.test"],
    active: true,
    served: true,
    createdAt: "2026-11-20T10:00:00.000Z",
    leads: 2,
    dailyCapUsd: 2,
    today: { leads: 1, spentUsd: 0.35 },
    ...over,
  };
}

const protection = (over: Partial<WidgetProtection> = {}): WidgetProtection => ({ botCheck: "on", mailConfigured: true, mailsPerRecipientPerDay: 1, ...over });

const lead: LeadDto = {
  id: "lead-1",
  widgetId: widget().id,
  prospectId: "prospect-1",
  reportId: "report-1",
  status: "waiting_allowance",
  businessName: "Bright Plumbing",
  visitorEmail: "owner@bright.test",
  createdAt: "2026-11-21T10:00:00.000Z",
  mailedAt: null,
  mailOutcome: null,
};

/** What the rest of the shell asks for: the bell, and the newest report for the sidebar's AI Chat link. */
const others = (url: string) => (url.startsWith("/api/notifications") ? json({ notifications: [], unread: 0, nextCursor: null }) : json({ reports: [] }));

describe("Widgets page", () => {
  it("says there are no widgets yet and offers to create one", async () => {
    stubFetch((url) => (url.startsWith("/api/widgets") ? json({ widgets: [], protection: protection() }) : others(url)));
    renderApp("/admin/widgets", signedIn({ admin: true }));
    // The first test loads the page's chunk cold on a busy machine.
    expect(await screen.findByText("No widgets yet", {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Create your first widget" })).toBeTruthy();
  });

  it("lists widgets, and an opened one shows both snippets, the preview and its leads with links", async () => {
    const w = widget();
    stubFetch((url) => {
      if (url.startsWith(`/api/widgets/${w.id}`)) return json({ widget: w, leads: [lead], protection: protection() });
      if (url.startsWith("/api/widgets")) return json({ widgets: [w], protection: protection() });
      return others(url);
    });
    renderApp("/admin/widgets", signedIn({ admin: true }));
    const row = (await screen.findByText("Homepage form")).closest("tr")!;
    expect(within(row).getByText("https://www.acme-marketing.test")).toBeTruthy();
    expect(within(row).getByText("Active")).toBeTruthy();
    fireEvent.click(within(row).getByRole("button", { name: "Open" }));
    expect(await screen.findByText(`<script src="http://localhost:3000/widget/${w.id}.js" async></script>`)).toBeTruthy();
    expect(screen.getByText(/<iframe src="http:\/\/localhost:3000\/widget\/.+\/frame"/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Copy script snippet" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Copy iframe snippet" })).toBeTruthy();
    expect(screen.getByTitle("Preview of Homepage form").getAttribute("src")).toBe(`/widget/${w.id}/frame`);
    const leadRow = screen.getByText("Bright Plumbing").closest("tr")!;
    expect(within(leadRow).getByText("Waiting for allowance")).toBeTruthy();
    expect(within(leadRow).getByRole("link", { name: "Open prospect" }).getAttribute("href")).toBe("/admin/reports/report-1");
  });

  it("refuses an allowed site with a path before saving, naming it", async () => {
    const calls: string[] = [];
    stubFetch((url, init) => {
      calls.push(`${init.method ?? "GET"} ${url}`);
      if (url.startsWith("/api/widgets")) return json({ widgets: [], protection: protection() });
      return others(url);
    });
    renderApp("/admin/widgets?new=1", signedIn({ admin: true }));
    fireEvent.change(await screen.findByLabelText("Name (only you see it)"), { target: { value: "Footer" } });
    fireEvent.change(screen.getByLabelText("Allowed sites"), { target: { value: "https://www.acme.test/contact" } });
    fireEvent.click(screen.getByRole("button", { name: "Create widget" }));
    expect(await screen.findByText(/https:\/\/www\.acme\.test\/contact: Each origin is a scheme and host/)).toBeTruthy();
    expect(calls.filter((c) => c.startsWith("POST"))).toEqual([]);
  });

  it("shows each widget's spend today against its cap, its leads today and the bot check; explains the mail limit", async () => {
    const w = widget();
    stubFetch((url) => (url.startsWith("/api/widgets") ? json({ widgets: [w], protection: protection({ mailConfigured: false }) }) : others(url)));
    renderApp("/admin/widgets", signedIn({ admin: true }));
    const row = (await screen.findByText("Homepage form")).closest("tr")!;
    expect(row.querySelector('[data-label="Today"]')!.textContent).toBe("$0.35 of $2.00 · 1 lead");
    expect(row.querySelector('[data-label="Bot check"]')!.textContent).toBe("On");
    const card = screen.getByRole("region", { name: "Protection" });
    expect(within(card).getByText(/at most one report mail a day, across all widgets/)).toBeTruthy();
    expect(within(card).getByText(/No mail provider is set up/)).toBeTruthy();
    expect(within(card).getByText(/spend up to its cap a day/)).toBeTruthy();
  });

  it("in production without the bot check, says why an active widget is not shown", async () => {
    const w = widget({ served: false });
    stubFetch((url) => (url.startsWith("/api/widgets") ? json({ widgets: [w], protection: protection({ botCheck: "missing" }) }) : others(url)));
    renderApp("/admin/widgets", signedIn({ admin: true }));
    const row = (await screen.findByText("Homepage form")).closest("tr")!;
    expect(within(row).getByText("Not shown: no bot check")).toBeTruthy();
    expect(row.querySelector('[data-label="Bot check"]')!.textContent).toBe("Missing");
    expect(screen.getByText("Widgets are not shown: the bot check is not set up")).toBeTruthy();
    expect(screen.getByText(/TURNSTILE_SITE_KEY/)).toBeTruthy();
  });

  it("edits the daily cap in dollars and sends it; a negative cap is refused before saving", async () => {
    const w = widget();
    const sent: unknown[] = [];
    stubFetch((url, init) => {
      if (init.method === "PATCH") {
        sent.push(JSON.parse(String(init.body)));
        return json({ widget: { ...w, dailyCapUsd: 0.75 } });
      }
      if (url.startsWith(`/api/widgets/${w.id}`)) return json({ widget: w, leads: [], protection: protection() });
      if (url.startsWith("/api/widgets")) return json({ widgets: [w], protection: protection() });
      return others(url);
    });
    renderApp(`/admin/widgets?id=${w.id}`, signedIn({ admin: true }));
    const cap = (await screen.findByLabelText("Daily spending cap (dollars)")) as HTMLInputElement;
    expect(cap.value).toBe("2.00");
    expect(screen.getByText(/Spent today: \$0\.35 of \$2\.00, 1 lead\. Resets at midnight UTC\./)).toBeTruthy();
    fireEvent.change(cap, { target: { value: "-1" } });
    fireEvent.click(screen.getByRole("button", { name: "Save widget" }));
    expect(await screen.findByText("The daily cap cannot be negative")).toBeTruthy();
    expect(sent).toEqual([]);
    fireEvent.change(cap, { target: { value: "0.75" } });
    fireEvent.click(screen.getByRole("button", { name: "Save widget" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ dailyCapUsd: 0.75 });
  });

  it("shows the error with a retry when the list cannot load", async () => {
    stubFetch((url) =>
      url.startsWith("/api/widgets") ? json({ error: { code: "service_unavailable", message: "Down for a moment" } }, 503) : others(url),
    );
    renderApp("/admin/widgets", signedIn({ admin: true }));
    await waitFor(() => expect(screen.getByText(/Failed to load widgets/)).toBeTruthy());
    expect(screen.getByRole("button", { name: /try again|retry/i })).toBeTruthy();
  });
});
