// The Prospects screen's report generation: "Generate all reports", status badges, and live status polling.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ProspectDto, ProspectListResponse } from "../../worker/features/accounts/rules/admin-api";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

function prospect(id: string, status: string): ProspectDto {
  return {
    id: `p-${id}`,
    name: `Roofer ${id}`,
    description: "Roof repair",
    area: "Austin, TX",
    keyword: "roofer in austin",
    phone: "",
    email: "",
    tag: "Roofing",
    company_name: `Roofer ${id}`,
    user_id: "admin-1",
    created_at: "2026-03-04T10:00:00.000Z",
    report: { id: `r-${id}`, content_generated: status === "ready", status },
  };
}

const page = (prospects: ProspectDto[]): ProspectListResponse => ({ prospects, total: prospects.length, all: prospects.length, nextCursor: null });

describe("Prospects screen: Generate all reports", () => {
  it("queues every ungenerated report and follows each status until it is ready", async () => {
    let queued = false;
    let polls = 0;
    const posted: string[] = [];
    stubFetch((url, init) => {
      const u = new URL(url, "http://localhost");
      if (u.pathname === "/api/prospects") {
        return json(page(queued ? [prospect("1", "queued"), prospect("2", "queued"), prospect("3", "ready")] : [prospect("1", "draft"), prospect("2", "failed"), prospect("3", "ready")]));
      }
      if (u.pathname === "/api/reports/generate-all" && init.method === "POST") {
        posted.push(u.pathname);
        queued = true;
        return json({ queued: 2 }, 202);
      }
      if (u.pathname === "/api/reports/status") {
        polls += 1;
        const ids = u.searchParams.get("ids")!.split(",");
        expect(ids.sort()).toEqual(["r-1", "r-2"]);
        return json({
          statuses: ids.map((id) => ({
            id,
            status: polls === 1 ? (id === "r-1" ? "generating" : "queued") : "ready",
            source: "ai",
            attempts: 1,
            content_generated: polls > 1,
            generated_at: null,
            claimed_at: null,
          })),
        });
      }
      return json({ reports: [] });
    });
    renderApp("/admin/report-generator", signedIn({ admin: true }));

    const card = async (name: string) => (await screen.findByRole("heading", { name })).closest("article")!;
    expect(within(await card("Roofer 1")).getByText("Not generated")).toBeTruthy();
    expect(within(await card("Roofer 2")).getByText("Generation failed")).toBeTruthy();
    expect(within(await card("Roofer 3")).getByText("Report ready")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Generate all reports" }));
    expect(await screen.findByText("Queued 2 reports for generation")).toBeTruthy();
    expect(posted).toEqual(["/api/reports/generate-all"]);
    await waitFor(() => expect(within(screen.getByRole("heading", { name: "Roofer 1" }).closest("article")!).getByText("Queued")).toBeTruthy());
    await waitFor(() => expect(within(screen.getByRole("heading", { name: "Roofer 1" }).closest("article")!).getByText("Generating")).toBeTruthy(), { timeout: 4000 });
    await waitFor(
      () => {
        for (const name of ["Roofer 1", "Roofer 2"]) {
          expect(within(screen.getByRole("heading", { name }).closest("article")!).getByText("Report ready")).toBeTruthy();
        }
      },
      { timeout: 6000 },
    );
    // Nothing left to generate: the button goes away and polling stops.
    expect(screen.queryByRole("button", { name: "Generate all reports" })).toBeNull();
    const settled = polls;
    await new Promise((r) => setTimeout(r, 2500));
    expect(polls).toBe(settled);
  }, 15_000);
});
