// The Widgets page (issue 21) with a stubbed API: the empty state, the list, a widget's snippets and recent leads,
// the origin check before saving, the error state.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { LeadDto, WidgetDto } from "../../worker/domain/widgets";
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
    createdAt: "2026-11-20T10:00:00.000Z",
    leads: 2,
    ...over,
  };
}

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
};

/** What the rest of the shell asks for: the bell, and the newest report for the sidebar's AI Chat link. */
const others = (url: string) => (url.startsWith("/api/notifications") ? json({ notifications: [], unread: 0, nextCursor: null }) : json({ reports: [] }));

describe("Widgets page", () => {
  it("says there are no widgets yet and offers to create one", async () => {
    stubFetch((url) => (url.startsWith("/api/widgets") ? json({ widgets: [] }) : others(url)));
    renderApp("/admin/widgets", signedIn({ admin: true }));
    expect(await screen.findByText("No widgets yet")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Create your first widget" })).toBeTruthy();
  });

  it("lists widgets, and an opened one shows both snippets, the preview and its leads with links", async () => {
    const w = widget();
    stubFetch((url) => {
      if (url.startsWith(`/api/widgets/${w.id}`)) return json({ widget: w, leads: [lead] });
      if (url.startsWith("/api/widgets")) return json({ widgets: [w] });
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
      if (url.startsWith("/api/widgets")) return json({ widgets: [] });
      return others(url);
    });
    renderApp("/admin/widgets?new=1", signedIn({ admin: true }));
    fireEvent.change(await screen.findByLabelText("Name (only you see it)"), { target: { value: "Footer" } });
    fireEvent.change(screen.getByLabelText("Allowed sites"), { target: { value: "https://www.acme.test/contact" } });
    fireEvent.click(screen.getByRole("button", { name: "Create widget" }));
    expect(await screen.findByText(/https:\/\/www\.acme\.test\/contact: Each origin is a scheme and host/)).toBeTruthy();
    expect(calls.filter((c) => c.startsWith("POST"))).toEqual([]);
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
