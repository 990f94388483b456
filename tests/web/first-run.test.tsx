// What a new customer meets in the first ten minutes (issue 22): placeholder pages, the search tools' neutral start
// and example listings, Subscription's promises, and 'Loading...' instead of a blank screen.
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter, useLocation } from "react-router";
import { describe, expect, it } from "vitest";
import { buildLocalServiceListings, LOCAL_SERVICES_SAMPLE_NOTE } from "../../worker/features/tools/rules/search-tools";
import { GuestOnly } from "../../web/app/route-guards";
import { AuthContext } from "../../web/lib/auth";
import { budgetFixture, fakeAuth, json, renderApp, signedIn, stubFetch } from "./helpers";

const noBilling = { checkout: { monthly: null, annual: null }, portal: null, subscription: null, allowances: { free: 1, selfService: 30 } };
const usage = { stats: { totalUsage: 0, totalTokens: 0, totalCost: 0, usageByTool: [], recentLogs: [], daily: [], budget: budgetFixture() }, all: null };

describe("placeholder tool pages", () => {
  it("are all gone: the Citation Tracker, the last of them, shows its own title and the way back", async () => {
    stubFetch(() => json(noBilling));
    renderApp("/tools/citation-tracker", signedIn());
    expect(await screen.findByRole("heading", { level: 1, name: "Citation Tracker" })).toBeTruthy();
    expect(screen.queryByText("This tool will be implemented soon")).toBeNull();
    expect(screen.getByRole("link", { name: "Back to Dashboard" }).getAttribute("href")).toBe("/dashboard");
    await waitFor(() => expect(document.head.querySelector("title")?.textContent).toBe("Citation Tracker · Porchlight"));
  });
});

describe("Local Services Analyzer", () => {
  it("opens on a neutral start, not on 'No Local Services Found', and marks every sample listing 'Example'", async () => {
    const asked: string[] = [];
    stubFetch((url) => {
      if (!url.includes("/api/tools/local-services")) return json(noBilling);
      const q = new URL(url, "http://localhost").searchParams;
      asked.push(q.get("businessType")!);
      const listings = buildLocalServiceListings({ businessType: q.get("businessType")!, location: q.get("location")! });
      return json({ listings, sample: true, warning: LOCAL_SERVICES_SAMPLE_NOTE });
    });
    renderApp("/tools/google-ads-analyzer", signedIn());
    expect(await screen.findByRole("heading", { name: "See how local businesses show up on Google" })).toBeTruthy();
    expect(screen.queryByText("No Local Services Found")).toBeNull();
    expect(screen.queryByText("Using Sample Data")).toBeNull();
    expect(asked).toEqual([]);

    fireEvent.click(screen.getByRole("button", { name: "Try Restaurant" }));
    const results = await screen.findByRole("region", { name: "Local services results" });
    expect(asked).toEqual(["Restaurant"]);
    expect(within(results).getAllByRole("listitem")).toHaveLength(5);
    expect(within(results).getAllByText("Example")).toHaveLength(5);
    for (const phone of within(results).getAllByText(/\(\d{3}\) 555-\d{4}/)) expect(phone.textContent).toMatch(/555-01\d\d/);
  });

  it("says 'No Local Services Found' only after a search found nothing", async () => {
    stubFetch((url) => (url.includes("/api/tools/local-services") ? json({ listings: [], sample: true, warning: LOCAL_SERVICES_SAMPLE_NOTE }) : json(noBilling)));
    renderApp("/tools/google-ads-analyzer", signedIn());
    await screen.findByRole("heading", { name: "See how local businesses show up on Google" });
    fireEvent.click(screen.getByRole("button", { name: "Analyze" }));
    expect(await screen.findByRole("heading", { name: "No Local Services Found" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "See how local businesses show up on Google" })).toBeNull();
  });
});

describe("Google Search Results before a search", () => {
  it("opens on a neutral start with 'Try Restaurant', not on 'No Search Results Found'", async () => {
    stubFetch(() => json(noBilling));
    renderApp("/tools/google-results", signedIn());
    expect(await screen.findByRole("heading", { name: "See who ranks on Google" })).toBeTruthy();
    expect(screen.queryByText("No Search Results Found")).toBeNull();
    expect(screen.getByRole("button", { name: "Try Restaurant" })).toBeTruthy();
  });
});

describe("Subscription", () => {
  it("lists only what a subscriber gets, led by the plan's allowance, and locks nothing", async () => {
    stubFetch((url) => json(url.includes("/api/usage") ? usage : noBilling));
    renderApp("/subscription", signedIn());
    const card = await screen.findByRole("region", { name: /Self Service/ });
    await within(card).findByText("$30.00 of AI use every month");
    const features = within(card)
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(features).toEqual([
      "$30.00 of AI use every month",
      "Posts for Facebook, your Google Business Profile and the other networks, video scripts and a monthly social plan, written from your business profile",
      "Google Business Profile posts scheduled and published for you",
      "A Local Search Audit and GBP Audit of your own business",
      "The Local Search Grid, and up to 25 keywords in the Local Rank Tracker",
      "Google Search Results and the Local Services Analyzer",
      "Your AI usage and its cost, on the AI Usage page",
      "Each new tool as it ships, at no extra cost",
    ]);
    expect(await screen.findByText("You are not subscribed yet.")).toBeTruthy();
    const text = document.body.textContent ?? "";
    for (const admin of ["SEO reports", "prospects", "shared report links", "unlock"]) expect(text).not.toContain(admin);
  });
});

describe("'Loading...' instead of a blank screen", () => {
  it("shows it while the first page's code loads", async () => {
    renderApp("/login", fakeAuth());
    expect(screen.getByRole("status").textContent).toBe("Loading...");
    expect(document.head.querySelector("title")?.textContent).toBe("Porchlight");
    expect(await screen.findByRole("heading", { name: "Welcome back" })).toBeTruthy();
  });

  it("shows it on /login and /signup while a signed-in visitor is sent on to /dashboard", async () => {
    function Where() {
      return <output data-testid="where">{useLocation().pathname}</output>;
    }
    render(
      <AuthContext.Provider value={signedIn()}>
        <MemoryRouter initialEntries={["/login"]}>
          <GuestOnly>
            <p>Sign-in form</p>
          </GuestOnly>
          <Where />
        </MemoryRouter>
      </AuthContext.Provider>,
    );
    expect(screen.getByText("Loading...")).toBeTruthy();
    expect(screen.queryByText("Sign-in form")).toBeNull();
    await waitFor(() => expect(screen.getByTestId("where").textContent).toBe("/dashboard"));
  });
});
