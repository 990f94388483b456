// First-day findings of issue 26 on the web side: one tool count for the landing page and the dashboard, and the
// dashboard's reminder to confirm the address (and that admin rights wait on it).
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderLanding } from "../../web/landing/render";
import { TOOL_COUNT, WORKING_TOOLS } from "../../web/lib/tools";
import { confirmEmailNotice } from "../../worker/domain/profile";
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

  it("is not asked once the address is confirmed", async () => {
    stubFetch(() => json({}));
    renderApp("/dashboard", signedIn());
    await screen.findByText("Tools ready to use");
    expect(screen.queryByText("Confirm your email address")).toBeNull();
  });
});
