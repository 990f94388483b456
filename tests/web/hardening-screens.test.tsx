// Issue 26 on the screens: customers read what they can't do (never the server's set-up) and actions that cannot work
// are disabled; the admin Set-up checklist; the audit's progress says failed/skipped; a stale audit offers a re-run; the
// search tools start from the business's trade and city; the grid's prospect search field is styled on its page.
import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AuditProgress } from "../../web/features/audits/audit-findings";
import { providerStatuses, type ProviderId } from "../../worker/features/setup/rules/setup";
import { auditFixture } from "./audit-fixtures";
import { json, notFound, renderApp, signedIn, stubFetch } from "./helpers";

const SERVER_WORDING = /on this server|wrangler secret|\.dev\.vars|Cloud Console|[A-Z]{3,}_(API_)?(KEY|SECRET)\b/;

function plumber() {
  const auth = signedIn();
  auth.profile = { ...auth.profile!, company_name: "Joe's Plumbing", company_location: "Austin, TX", company_category: "Plumbing" };
  return auth;
}

const NO_SEARCH = { search: false, pagespeed: true, ai: true, mail: false, publishing: false };

describe("a missing service on customers' screens", () => {
  it("the grid says search isn't available and keeps Run the grid disabled", async () => {
    stubFetch((url) => {
      if (url === "/api/capabilities") return json(NO_SEARCH);
      if (url === "/api/rank/grids?business=own") return json({ scans: [] });
      if (url.startsWith("/api/rank/grids?estimate=1")) return json({ size: 5, searches: 25, estimateUsd: 0.25, allowanceLeftUsd: 0.75, allowed: true });
      return notFound();
    });
    renderApp("/tools/local-search-grid", plumber());
    expect(await screen.findByRole("heading", { level: 1, name: "Local Search Grid" }, { timeout: 4000 })).toBeTruthy();
    expect(await screen.findByText("Search isn't available yet")).toBeTruthy();
    expect(screen.getByText(/your agency has been told/)).toBeTruthy();
    const keyword = screen.getByLabelText("Keyword") as HTMLInputElement;
    expect(keyword.disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Run the grid" }) as HTMLButtonElement).disabled).toBe(true);
    expect(document.body.textContent).not.toMatch(SERVER_WORDING);
  }, 20_000);

  it("the tracker disables Track keyword without search", async () => {
    stubFetch((url) => {
      if (url === "/api/capabilities") return json(NO_SEARCH);
      if (url === "/api/rank/keywords?business=own") return json({ keywords: [], limit: 25, used: 0 });
      return notFound();
    });
    renderApp("/tools/local-rank-tracker", plumber());
    expect(await screen.findByText("Search isn't available yet")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Track keyword" }) as HTMLButtonElement).disabled).toBe(true);
    expect(document.body.textContent).not.toMatch(SERVER_WORDING);
  });

  it("Integrations without Google set up shows no set-up steps", async () => {
    stubFetch((url) =>
      url.startsWith("/api/integrations") ? json({ google: { status: "not_configured", canConnect: false, locations: [], available: [], lastSyncAt: null, error: null } }) : json({}),
    );
    renderApp("/integrations", signedIn());
    expect(await screen.findByText("Publishing to Google isn't available yet")).toBeTruthy();
    expect(document.body.textContent).not.toMatch(SERVER_WORDING);
  });
});

describe("the admin Set-up checklist", () => {
  it("lists each service, set up or not, with how to configure the missing ones", async () => {
    const configured = { ai: true, search: false, pagespeed: true, mail: false, google: false, encryption: true, voice: false, billing: false, turnstile: false, sms: false, openai: true, perplexity: false, gemini: false } satisfies Record<ProviderId, boolean>;
    stubFetch((url) => (url === "/api/admin/setup" ? json({ providers: providerStatuses(configured), environment: "development" }) : notFound()));
    renderApp("/admin/setup", signedIn({ admin: true }));
    expect(await screen.findByRole("heading", { level: 1, name: "Set-up" })).toBeTruthy();
    expect(await screen.findByText("9 of 13 services are not set up. Customers are told what they can't do; the steps are here.")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Google search (SerpAPI)" })).toBeTruthy();
    expect(screen.getByText(/wrangler secret put SERPAPI_KEY/)).toBeTruthy();
    // AI Visibility's engines (issue 29): each its own line, saying how to add the missing ones.
    expect(screen.getByRole("heading", { name: "Perplexity for AI Visibility" })).toBeTruthy();
    expect(screen.getByText(/wrangler secret put GEMINI_API_KEY/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Set-up" }).getAttribute("href")).toBe("/admin/setup");
    // Where it sends the admin exists: every "Admin › …" it names is in the admin menu, and the outbox is where it is.
    const text = screen.getByRole("list", { name: "Services" }).textContent!;
    for (const [, page] of text.matchAll(/Admin › ([A-Z][\w-]*(?: [A-Z][\w-]*)*)/g)) expect(screen.getByRole("link", { name: page! })).toBeTruthy();
    expect(screen.getByText(/Mail is kept in the outbox, not sent: admins read it at \/api\/admin\/outbox/)).toBeTruthy();
  });
});

describe("the audit's progress", () => {
  it("says a step failed or was skipped, with the reason, never 'No data' beside 'Done'", () => {
    const audit = auditFixture("done", {
      steps: {
        find: { status: "skipped", reason: "Google search isn't available yet", code: "search_unavailable" },
        fetch: { status: "failed", reason: "the site did not answer within 10 s" },
        speed: { status: "failed", reason: "unavailable: it did not finish within 12 minutes", code: "step_timed_out" },
        rank: { status: "done" },
      },
    });
    render(<AuditProgress audit={audit} />);
    expect(screen.getByText("Skipped: Google search isn't available yet")).toBeTruthy();
    expect(screen.getByText("Failed: the site did not answer within 10 s")).toBeTruthy();
    expect(screen.getByText("Failed: unavailable: it did not finish within 12 minutes")).toBeTruthy();
  });

  it("without search, an own audit with no website is not offered: it would check nothing (issue 39)", async () => {
    stubFetch((url) => {
      if (url === "/api/capabilities") return json(NO_SEARCH);
      if (url === "/api/audits?own=1") return json({ audits: [] });
      return notFound();
    });
    renderApp("/tools/local-search-audit", plumber());
    expect(await screen.findByText(/Without Google search the audit can only read your website/)).toBeTruthy();
    expect((screen.getByRole("button", { name: "Run the audit" }) as HTMLButtonElement).disabled).toBe(true);
    expect(document.body.textContent).not.toMatch(SERVER_WORDING);
  });

  it("a stale audit offers Run again at once", async () => {
    const audit = auditFixture("done", { subject: { ...auditFixture().subject, kind: "own", prospectId: null }, stale: true, rerunAfter: null });
    stubFetch((url) => {
      if (url === "/api/audits?own=1") return json({ audits: [{ id: audit.id, subject: audit.subject, status: "done", createdAt: audit.createdAt, overall: 60 }] });
      if (url === `/api/audits/${audit.id}`) return json(audit);
      if (url === "/api/capabilities") return json({ ...NO_SEARCH, search: true });
      return notFound();
    });
    renderApp("/tools/local-search-audit", plumber());
    expect(await screen.findByText(/Your business details changed since this audit ran/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Run again" })).toBeTruthy();
  });
});

describe("the search tools", () => {
  it("open on the business's own trade and city and offer to try it", async () => {
    stubFetch(() => json({}));
    renderApp("/tools/google-ads-analyzer", plumber());
    const type = (await screen.findByLabelText("Business Type")) as HTMLInputElement;
    await waitFor(() => expect(type.value).toBe("Plumbing"));
    expect((screen.getByLabelText("Location") as HTMLInputElement).value).toBe("Austin, TX");
    expect(screen.queryByText("Try Restaurant")).toBeNull();
  });
});
