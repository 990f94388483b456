// The search tool and subscription screens' states: validation, results, sample banner, empty, errors, billing not set up.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Sidebar } from "../../web/app/sidebar";
import { buildSampleSearchResults } from "../../worker/features/tools/rules/search-tools";
import type { BudgetState } from "../../worker/features/usage/rules/usage-stats";
import { budgetFixture, json, renderApp, renderAt, signedIn, stubFetch } from "./helpers";

const noBilling = { checkout: { monthly: null, annual: null }, portal: null, subscription: null, allowances: { free: 1, selfService: 30 } };

function search(keyword: string, location: string) {
  fireEvent.change(screen.getByLabelText("Search Keyword"), { target: { value: keyword } });
  fireEvent.change(screen.getByLabelText("Location"), { target: { value: location } });
  // The page's own button (the sidebar has a 'Search' group too).
  fireEvent.click(within(screen.getByRole("main")).getByRole("button", { name: "Search" }));
}

describe("Google Search Results", () => {
  it("asks for both fields before calling the server", async () => {
    const fetch = stubFetch(() => json(noBilling));
    renderApp("/tools/google-results", signedIn());
    await screen.findByText("See who ranks on Google");
    search("plumber", " ");
    expect(await screen.findByText("Please enter both a keyword and location")).toBeTruthy();
    expect(fetch.mock.calls.some(([u]) => String(u).includes("google-results"))).toBe(false);
  });

  it("shows sample results under the 'Using Sample Data' banner when the live search failed", async () => {
    const results = buildSampleSearchResults({ keyword: "plumber", location: "Austin" });
    const fetch = stubFetch((url) =>
      url.includes("google-results")
        ? json({ results, sample: true, warning: "Unable to fetch results. Showing sample data instead.", error: "Request timed out after 15 seconds", message: null, cached: false })
        : json(noBilling),
    );
    renderApp("/tools/google-results", signedIn());
    await screen.findByText("See who ranks on Google");
    search("plumber", "Austin");
    expect(await screen.findByText("Using Sample Data")).toBeTruthy();
    expect(screen.getByText("Unable to fetch results. Showing sample data instead.")).toBeTruthy();
    // Why the live search failed is the operator's business: a customer never reads server details.
    expect(screen.queryByText("Request timed out after 15 seconds")).toBeNull();
    expect(screen.getAllByRole("button", { name: "Copy Title" })).toHaveLength(5);
    expect(screen.getAllByText("Example")).toHaveLength(5);
    const called = fetch.mock.calls.map(([u]) => String(u)).find((u) => u.includes("google-results"))!;
    expect(new URL(called, "http://localhost").searchParams.get("keyword")).toBe("plumber");
  });

  it("shows the empty state with the spec's message, and Try Restaurant searches again", async () => {
    const seen: string[] = [];
    stubFetch((url) => {
      if (!url.includes("google-results")) return json(noBilling);
      seen.push(new URL(url, "http://localhost").searchParams.get("keyword")!);
      return json({
        results: [],
        sample: false,
        warning: null,
        error: null,
        message: "No results found for this keyword and location combination. Try different search terms.",
        cached: false,
      });
    });
    renderApp("/tools/google-results", signedIn());
    await screen.findByText("See who ranks on Google");
    search("zzz", "Austin");
    await screen.findByText(/No results found for this keyword and location combination/);
    fireEvent.click(screen.getByRole("button", { name: "Try Restaurant" }));
    await waitFor(() => expect(seen).toEqual(["zzz", "Restaurant"]));
  });

  it("shows a failed request with a retry", async () => {
    stubFetch((url) =>
      url.includes("google-results") ? json({ error: { code: "internal_error", message: "Server down" } }, 500) : json(noBilling),
    );
    renderApp("/tools/google-results", signedIn());
    await screen.findByText("See who ranks on Google");
    search("plumber", "Austin");
    expect(await screen.findByText("Server down")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });
});

describe("Google Search Results for an admin", () => {
  it("shows the operator why the live search failed, under the same banner", async () => {
    const results = buildSampleSearchResults({ keyword: "plumber", location: "Austin" });
    stubFetch((url) =>
      url.includes("google-results")
        ? json({ results, sample: true, warning: "Unable to fetch results. Showing sample data instead.", error: "Request timed out after 15 seconds", message: null, cached: false })
        : url.startsWith("/api/reports")
          ? json({ reports: [] })
          : json(noBilling),
    );
    renderApp("/tools/google-results", signedIn({ admin: true }));
    await screen.findByText("See who ranks on Google");
    search("plumber", "Austin");
    expect(await screen.findByText("Request timed out after 15 seconds")).toBeTruthy();
  });
});

/** GET /api/usage with this month's allowance (the rest empty). */
function usage(budget: Partial<BudgetState> = {}) {
  return { stats: { totalUsage: 0, totalTokens: 0, totalCost: 0, usageByTool: [], recentLogs: [], daily: [], budget: budgetFixture(budget) }, all: null };
}
const billingAndUsage = (billing: unknown, budget: Partial<BudgetState> = {}) => (url: string) =>
  url.includes("/api/usage") ? json(usage(budget)) : json(billing);

describe("Subscription Plans", () => {
  it("shows the allowance half used: used, left and the renewal day, with the plans' allowances", async () => {
    stubFetch(billingAndUsage(noBilling, { spent_usd: 0.4, reserved_usd: 0.1, used_usd: 0.5, left_usd: 0.5 }));
    renderApp("/subscription", signedIn());
    const meter = await screen.findByTestId("allowance");
    expect(within(meter).getByText("$0.50 of $1.00")).toBeTruthy();
    expect(within(meter).getByText("$0.50")).toBeTruthy();
    expect(within(meter).getByText("December 1")).toBeTruthy();
    expect(within(meter).getByText(/\$0\.10 of it is for requests still running/)).toBeTruthy();
    expect(within(meter).getByRole("meter").getAttribute("aria-valuenow")).toBe("0.5");
    expect(await screen.findByText(/Free includes \$1\.00 of AI use a month, Self Service \$30\.00/)).toBeTruthy();
  });

  it("past the allowance says why tools use templates, and the usage panel offers the upgrade", async () => {
    stubFetch(billingAndUsage(noBilling, { spent_usd: 1, used_usd: 1, left_usd: 0, over: true }));
    renderApp("/usage", signedIn());
    const meter = await screen.findByTestId("allowance");
    expect(within(meter).getByText(/You have used your monthly AI budget of \$1\.00\. AI features are paused until December 1/)).toBeTruthy();
    expect(within(meter).getByRole("link", { name: "Upgrade to Self Service" }).getAttribute("href")).toBe("/subscription");
  });

  it("explains that billing is not set up instead of linking nowhere", async () => {
    stubFetch(billingAndUsage(noBilling));
    renderApp("/subscription", signedIn());
    const notSetUp = await screen.findAllByText(/Online subscriptions are not open yet/);
    expect(notSetUp.length).toBeGreaterThan(0);
    expect((screen.getByRole("button", { name: "Subscribe Now" }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole("link", { name: "Subscribe Now" })).toBeNull();
  });

  it("switches the price and the checkout link with the monthly / annual toggle", async () => {
    stubFetch(
      billingAndUsage({ ...noBilling, checkout: { monthly: "https://buy.stripe.test/m?client_reference_id=user-1", annual: "https://buy.stripe.test/a?client_reference_id=user-1" } }),
    );
    renderApp("/subscription", signedIn());
    const link = await screen.findByRole("link", { name: "Subscribe Now" });
    expect(link.getAttribute("href")).toContain("/m?");
    expect(screen.getByText("$97")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Annual" }));
    expect(screen.getByRole("link", { name: "Subscribe Now" }).getAttribute("href")).toContain("/a?");
    expect(screen.getByText("$970")).toBeTruthy();
  });

  it("shows the checkout error alert when the billing details could not be loaded", async () => {
    stubFetch(() => json({ error: { code: "bad", message: "Could not load billing" } }, 400));
    renderApp("/subscription", signedIn());
    await screen.findByText("Could not load billing");
    fireEvent.click(screen.getByRole("button", { name: "Subscribe Now" }));
    expect(await screen.findByText("There was an error redirecting to checkout. Please try again.")).toBeTruthy();
  });
});

describe("sidebar plan", () => {
  it("shows the current plan beside Subscription", async () => {
    stubFetch((url) =>
      url.includes("/api/billing")
        ? json({ ...noBilling, subscription: { status: "active", plan: "Self Service", interval: "year", currentPeriodEnd: null, active: true } })
        : json({ reports: [] }),
    );
    renderAt("/dashboard", signedIn(), <Sidebar />);
    const link = screen.getByRole("link", { name: /Subscription/ });
    expect(link.getAttribute("href")).toBe("/subscription");
    await waitFor(() => expect(within(link).getByText("Self Service · Annual")).toBeTruthy());
  });
});
