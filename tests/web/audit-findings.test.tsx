// "What we found" with fixture audits: a check that could not be made never reads as a failure, sections without data
// say why, the score's movement, the fix-first order, steps still running, and the listing picker.
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { AuditFindings, GBP_SECTIONS, movementText } from "../../web/features/audits/audit-findings";
import { ListingPicker, needsListingChoice } from "../../web/features/audits/audit-listing-picker";
import { CHECK_LABELS } from "../../web/features/audits/audit-labels";
import { SECTIONS } from "../../worker/features/audits/rules/score";
import { auditFixture } from "./audit-fixtures";

const checkItem = (label: string) => screen.getByText(label, { selector: ".audit-check-name" }).closest("li")!;

describe("What we found", () => {
  it("groups the checks it could not make: one line per section and reason, the checks named under it, never as failures", () => {
    const audit = auditFixture("no-search");
    render(<AuditFindings audit={audit} />);
    const unknown = audit.checks.filter((c) => c.verdict === "unknown");
    const failed = audit.checks.filter((c) => c.verdict === "fail");
    expect(unknown.length).toBeGreaterThan(5);
    const findings = document.querySelector(".audit-findings") as HTMLElement;
    // The reason is said once per section, not once per check.
    expect(findings.textContent).not.toMatch(/We could not check this/);
    for (const section of SECTIONS) {
      const inSection = unknown.filter((c) => c.section === section.id);
      const reasons = [...new Set(inSection.map((c) => c.reason))];
      const group = screen.getByRole("group", { name: new RegExp(`^${section.label}`) });
      const lines = within(group).queryAllByText(/checks? could not be made/);
      expect(lines).toHaveLength(reasons.length);
      for (const reason of reasons) {
        const n = inSection.filter((c) => c.reason === reason).length;
        // Issue 39: a reason already said (in the score panel, or an earlier section) is not said again.
        const line = within(group).getByText(new RegExp(`^${n} checks? could not be made(: ${reason!.replace(/[()]/g, "\\$&")}|, for the reason given above)$`));
        const item = line.closest("li")!;
        expect(item.className).toContain("is-unknown");
        expect(within(item).getByText("Not checked")).toBeTruthy();
        expect(within(item).queryByText("Needs fixing")).toBeNull();
        // Each check is named under its line, in the order of the section.
        const named = within(item.querySelector(".audit-unchecked") as HTMLElement).getAllByRole("listitem").map((li) => li.textContent);
        expect(named).toEqual(inSection.filter((c) => c.reason === reason).map((c) => CHECK_LABELS[c.id]));
      }
      expect(within(group).queryAllByText("Not checked")).toHaveLength(reasons.length);
    }
    const gbp = screen.getByRole("group", { name: /^Google Business Profile/ });
    expect(within(gbp).getByText("4 checks could not be made, for the reason given above")).toBeTruthy();
    // Only real failures carry the failure badge.
    expect(within(findings).queryAllByText("Needs fixing")).toHaveLength(failed.length);
  });

  it("says each reason a check could not be made once on the page, not once per section (issue 39)", () => {
    const audit = auditFixture("no-search");
    const { container } = render(<AuditFindings audit={audit} />);
    const reasons = [...new Set(audit.checks.filter((c) => c.verdict === "unknown" && c.reason).map((c) => c.reason!))];
    expect(reasons.length).toBeGreaterThan(0);
    const text = container.textContent!;
    for (const reason of reasons) expect(text.split(reason).length - 1, reason).toBe(1);
  });

  it("keeps what an unmade check says beyond its reason: the listing to pick", () => {
    render(<AuditFindings audit={auditFixture("not-found")} />);
    // The reason itself is said once, in the score panel (issue 39).
    expect(screen.getByText(/: no confident match\.$/, { selector: ".audit-section-why" })).toBeTruthy();
    const line = screen.getByText("1 check could not be made, for the reason given above");
    expect(line.closest("li")!.textContent).toMatch(new RegExp(`${CHECK_LABELS.gbp_found} · Google Maps showed 2 possible listings`));
  });

  it("shows every section's score, and 'No data' with the reason for a section nothing could be checked in", () => {
    const audit = auditFixture("no-search");
    render(<AuditFindings audit={audit} />);
    const scores = screen.getByRole("list", { name: "Score by section" });
    const rows = within(scores).getAllByRole("listitem");
    expect(rows.map((r) => r.querySelector(".audit-section-name")!.textContent)).toEqual(SECTIONS.map((s) => s.label));
    const gbp = rows[1]!;
    expect(within(gbp).getByText("No data")).toBeTruthy();
    expect(screen.getByText("From 3 of 7 sections; the others had no data")).toBeTruthy();
    expect(gbp.textContent).not.toMatch(/could not be looked up/);
    expect(screen.getByText(/^No data for Google Business Profile(, [\w -]+)* and [\w -]+: the Google listing could not be looked up \(no search key is configured\)\.$/)).toBeTruthy();
    const seo = rows[4]!;
    const value = audit.score.sections.find((s) => s.id === "on_page_seo")!.score!;
    expect(within(seo).getByRole("img", { name: `On-page SEO: ${value} out of 100` })).toBeTruthy();
    expect(screen.getByText(String(audit.score.overall), { selector: ".audit-overall-value", exact: false })).toBeTruthy();
  });

  it("says how the overall score moved since the last audit", () => {
    expect(movementText(60, { id: "a", createdAt: "2026-11-01T10:00:00.000Z", overall: 48 })).toBe("Up 12 points since November 1, 2026");
    expect(movementText(47, { id: "a", createdAt: "2026-11-01T10:00:00.000Z", overall: 48 })).toBe("Down 1 point since November 1, 2026");
    expect(movementText(48, { id: "a", createdAt: "2026-11-01T10:00:00.000Z", overall: 48 })).toBe("No change since November 1, 2026");
    expect(movementText(48, null)).toBe("First audit of this business");
    const audit = auditFixture("done");
    render(<AuditFindings audit={audit} />);
    const diff = audit.score.overall! - 48;
    expect(screen.getByText(new RegExp(`^${diff > 0 ? "Up" : "Down"} ${Math.abs(diff)} points? since November 1, 2026$`))).toBeTruthy();
  });

  it("lists what to fix first by impact, with the points each fix adds", () => {
    const audit = auditFixture("done");
    render(<AuditFindings audit={audit} />);
    const list = screen.getByRole("heading", { name: "What to fix first" }).nextElementSibling as HTMLElement;
    const items = within(list).getAllByRole("listitem");
    expect(items.map((li) => li.querySelector("strong")!.textContent)).toEqual(audit.fixFirst.map((f) => CHECK_LABELS[f.check.id]));
    const points = items.map((li) => Number(li.querySelector(".audit-fix-points")!.textContent!.replace(/[^\d.]/g, "")));
    expect(points).toEqual([...points].sort((a, b) => b - a));
    expect(points[0]).toBeGreaterThan(0);
  });

  it("puts the business beside its top three competitors with rating and reviews", () => {
    render(<AuditFindings audit={auditFixture("done")} />);
    const table = screen.getByRole("table");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      "Ridge Roofing You4.2 ★18",
      "Capitol Roofing4.8 ★212",
      "Lone Star Roofs4.6 ★95",
      "Hill Country Roofing4.9 ★61",
    ]);
  });

  it("shows steps still running as progress, and page speed as 'Measuring…' until it lands", () => {
    const audit = auditFixture("running");
    render(<AuditFindings audit={audit} />);
    const progress = screen.getByRole("list", { name: "Audit progress" });
    expect(within(progress).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "Finding the business on Google Done",
      "Reading the website Done",
      "Measuring page speed Running…",
      "Checking where it ranks Waiting",
    ]);
    const lcp = checkItem(CHECK_LABELS.lcp);
    expect(within(lcp).getByText("Measuring…")).toBeTruthy();
    expect(within(lcp).queryByText("Not checked")).toBeNull();
    // A section whose every check waits reads as one line.
    const rank = screen.getByRole("group", { name: /Local rank/ });
    expect(within(rank).getByText("Checking…")).toBeTruthy();
    expect(within(rank).getByText("Checking where it ranks…")).toBeTruthy();
    expect(within(rank).queryAllByRole("listitem")).toHaveLength(0);
    // What has landed already shows its verdict.
    expect(within(checkItem(CHECK_LABELS.title)).getByText("Could be better")).toBeTruthy();
    expect(screen.getByText("Checking who shows up beside this business on Google Maps…")).toBeTruthy();
    // A score still filling in has not moved: no "Up n points" until every step is done.
    expect(screen.getByText("So far, from the steps done")).toBeTruthy();
    expect(screen.queryByText(/points? since/)).toBeNull();
  });

  it("GBP Audit shows only the listing, reputation and competitors, scored on their own", () => {
    const audit = auditFixture("done");
    render(<AuditFindings audit={audit} sections={GBP_SECTIONS} overallLabel="Profile score" />);
    const rows = within(screen.getByRole("list", { name: "Score by section" })).getAllByRole("listitem");
    expect(rows.map((r) => r.querySelector(".audit-section-name")!.textContent)).toEqual(["Google Business Profile", "Reputation", "Competitors"]);
    expect(screen.queryByText(CHECK_LABELS.title)).toBeNull();
    expect(screen.getByText("On Google Maps")).toBeTruthy();
    expect(screen.getByText("Profile score")).toBeTruthy();
  });
});

describe("the listing picker", () => {
  it("is offered when Google Maps matched no listing for sure, and sends the chosen candidate", () => {
    const audit = auditFixture("not-found");
    expect(needsListingChoice(audit)).toBe(true);
    expect(needsListingChoice(auditFixture("done"))).toBe(false);
    const onPick = vi.fn();
    render(<ListingPicker audit={audit} onPick={onPick} busy={false} error={null} />);
    const use = screen.getByRole("button", { name: "Use this listing" }) as HTMLButtonElement;
    expect(use.disabled).toBe(true);
    fireEvent.click(screen.getByRole("radio", { name: /Ridge Line Roofing/ }));
    fireEvent.click(use);
    expect(onPick).toHaveBeenCalledWith({ placeId: "cand-2" });
  });

  it("takes a pasted Google Maps link, and refuses anything else with a clear message", () => {
    const onPick = vi.fn();
    render(<ListingPicker audit={auditFixture("not-found", { candidates: [] })} onPick={onPick} busy={false} error={null} />);
    expect(screen.queryByRole("radio")).toBeNull();
    const input = screen.getByLabelText("Or paste its Google Maps link");
    fireEvent.change(input, { target: { value: "https://example.com/not-maps" } });
    fireEvent.click(screen.getByRole("button", { name: "Use this link" }));
    expect(onPick).not.toHaveBeenCalled();
    expect(screen.getByText(/Paste a Google Maps link/)).toBeTruthy();
    fireEvent.change(input, { target: { value: "https://maps.app.goo.gl/abc123" } });
    fireEvent.click(screen.getByRole("button", { name: "Use this link" }));
    expect(onPick).toHaveBeenCalledWith({ mapsUrl: "https://maps.app.goo.gl/abc123" });
  });
});
