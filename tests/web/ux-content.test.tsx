// First-day findings of issue 26 on the web side: one tool count for the landing page and the dashboard, and the
// dashboard's reminder to confirm the address (and that admin rights wait on it); issue 39: the reminder on every
// signed-in page with "Send the link again", and no admin sentence once the account is admin.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderLanding } from "../../web/features/landing/render";
import { TOOL_COUNT, WORKING_TOOLS } from "../../web/lib/tools";
import { confirmEmailNotice } from "../../worker/features/profile/rules/profile";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

describe("the tool count", () => {
  it("is what works, said alike by the landing page and the dashboard", async () => {
    expect(TOOL_COUNT).toBe(WORKING_TOOLS.length);
    const landing = renderLanding();
    expect(landing).toContain(`${TOOL_COUNT} AI tools, one dashboard.`);
    expect(landing).not.toContain("Nine AI tools");
    stubFetch(() => json({}));
    renderApp("/dashboard", signedIn());
    expect((await screen.findByText("Tools ready to use")).previousElementSibling!.textContent).toBe(String(TOOL_COUNT));
  });
});

describe("confirming the address", () => {
  it("is asked on the dashboard until confirmed, and an ADMIN_EMAILS user is told admin rights wait on it", async () => {
    stubFetch(() => json({}));
    const auth = { ...signedIn({ email: "boss@agency.test" }), emailUnconfirmed: true, adminAwaitsConfirmation: true };
    renderApp("/dashboard", auth);
    expect(await screen.findByText("Confirm your email address")).toBeTruthy();
    expect(screen.getByText(confirmEmailNotice("boss@agency.test", true))).toBeTruthy();
    expect(confirmEmailNotice("boss@agency.test", true)).toMatch(/administrator rights start once the address is confirmed/);
  });

  it("offers 'Send the link again' on every signed-in page, and says what waits on the link (issue 39)", async () => {
    const fetched = stubFetch(() => json({}));
    renderApp("/tools/google-results", { ...signedIn(), emailUnconfirmed: true });
    expect(await screen.findByText("Confirm your email address")).toBeTruthy();
    expect(screen.getByText(/AI features, scans and review requests start once it is confirmed\./)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Send the link again" }));
    await waitFor(() => expect(fetched.mock.calls.some(([url]) => String(url).endsWith("/auth/v1/resend"))).toBe(true));
    const call = fetched.mock.calls.find(([url]) => String(url).endsWith("/auth/v1/resend"))!;
    expect(JSON.parse(String((call[1] as RequestInit).body))).toMatchObject({ type: "signup", email: "owner@plumbing.test" });
    expect(await screen.findByText(/We sent a new link to owner@plumbing.test/)).toBeTruthy();
  });

  it("after `npm run admin:grant`, an admin is not told admin rights or paid features wait on the link", async () => {
    stubFetch(() => json({}));
    renderApp("/dashboard", { ...signedIn({ admin: true, email: "boss@agency.test" }), emailUnconfirmed: true, adminAwaitsConfirmation: false });
    expect(await screen.findByText("Confirm your email address")).toBeTruthy();
    expect(screen.getByText(confirmEmailNotice("boss@agency.test", false))).toBeTruthy();
    expect(screen.queryByText(/administrator rights start/)).toBeNull();
    expect(screen.queryByText(/AI features, scans and review requests/)).toBeNull();
  });

  it("is not asked once the address is confirmed", async () => {
    stubFetch(() => json({}));
    renderApp("/dashboard", signedIn());
    await screen.findByText("Tools ready to use");
    expect(screen.queryByText("Confirm your email address")).toBeNull();
  });
});
