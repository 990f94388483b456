// The Jobs panel under Prospects: loading, empty, error, the list with attempts and last errors, and regeneration.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ReportJob, ReportJobsResponse } from "../../worker/features/reports/rules/jobs";
import { json, renderApp, signedIn, stubFetch } from "./helpers";
import { TEMPLATE_JOB_NOTE } from "../../worker/features/reports/rules/jobs";

function job(id: string, kind: ReportJob["kind"], over: Partial<ReportJob> = {}): ReportJob {
  return {
    id,
    kind,
    status: kind === "template" ? "ready" : kind,
    source: kind === "template" ? "template" : null,
    attempts: kind === "template" ? 5 : 1,
    max_attempts: 5,
    last_error: kind === "template" ? "AI generation failed 5 times; last error: API request failed: 500" : null,
    claimed_at: null,
    created_at: "2026-03-04T10:00:00.000Z",
    generated_at: null,
    prospect: { id: `p-${id}`, name: `Roofer ${id}`, company_name: null },
    ...over,
  };
}

function list(jobs: ReportJob[], aiConfigured = true): ReportJobsResponse {
  const counts = { generating: 0, queued: 0, failed: 0, template: 0 };
  for (const j of jobs) counts[j.kind] += 1;
  return { jobs, counts, truncated: false, ai_configured: aiConfigured };
}

const PATH = "/admin/report-generator/jobs";

/** Answers the Jobs list with `jobs()`; the app shell's other reads get empty lists. */
function stubJobs(jobs: () => Response, other: (u: URL, init: RequestInit) => Response | undefined = () => undefined) {
  return stubFetch((url, init) => {
    const u = new URL(url, "http://localhost");
    if (u.pathname === "/api/reports/jobs") return jobs();
    return other(u, init) ?? json({ reports: [], next_cursor: null });
  });
}

describe("Jobs panel", () => {
  it("lists jobs with attempts and last error, and regenerates a template report", async () => {
    let jobs = [job("1", "generating"), job("2", "template")];
    const posted: string[] = [];
    stubFetch((url, init) => {
      const u = new URL(url, "http://localhost");
      if (u.pathname === "/api/reports/jobs") return json(list(jobs));
      if (u.pathname === "/api/reports/2/regenerate" && init.method === "POST") {
        posted.push(u.pathname);
        jobs = [job("1", "generating"), job("2", "queued", { attempts: 0 })];
        return json({ job: jobs[1], enqueued: true }, 202);
      }
      return json({ error: { code: "not_found", message: "Not found" } }, 404);
    });
    renderApp(PATH, signedIn({ admin: true }));

    expect(await screen.findByRole("heading", { name: "Jobs" })).toBeTruthy();
    const row = (await screen.findByText("Roofer 2")).closest("tr")!;
    expect(within(row).getByText("5 / 5")).toBeTruthy();
    // A report ready from the template is not in error (issue 26): its row says what it is instead.
    expect(within(row).getByText(TEMPLATE_JOB_NOTE)).toBeTruthy();
    expect(within(row).queryByText(/last error: API request failed: 500/)).toBeNull();
    expect(within(row).getByLabelText("Report: Ready (template)")).toBeTruthy();
    // A report being generated cannot be restarted from here.
    const busyRow = screen.getByText("Roofer 1").closest("tr")!;
    expect(within(busyRow).queryByRole("button", { name: "Regenerate" })).toBeNull();

    fireEvent.click(within(row).getByRole("button", { name: "Regenerate" }));
    expect(await screen.findByText('Queued "Roofer 2" for generation')).toBeTruthy();
    expect(posted).toEqual(["/api/reports/2/regenerate"]);
    await waitFor(() => expect(within(screen.getByText("Roofer 2").closest("tr")!).getByLabelText("Report: Queued")).toBeTruthy());
  });

  it("regenerates all failed and template reports in one go", async () => {
    let calls = 0;
    stubFetch((url, init) => {
      const u = new URL(url, "http://localhost");
      if (u.pathname === "/api/reports/jobs") return json(list([job("1", "failed"), job("2", "template"), job("3", "template")]));
      if (u.pathname === "/api/reports/regenerate-template" && init.method === "POST") {
        calls += 1;
        return json({ queued: 3 }, 202);
      }
      return json({ error: { code: "not_found", message: "Not found" } }, 404);
    });
    renderApp(PATH, signedIn({ admin: true }));
    fireEvent.click(await screen.findByRole("button", { name: "Regenerate all (3)" }));
    expect(await screen.findByText("Queued 3 reports for generation")).toBeTruthy();
    expect(calls).toBe(1);
  });

  it("says when there is nothing to do, and filters by group", async () => {
    stubJobs(() => json(list([])));
    renderApp(PATH, signedIn({ admin: true }));
    expect(await screen.findByRole("heading", { name: "No jobs" })).toBeTruthy();
    expect((screen.getByRole("button", { name: /Regenerate all/ }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: /^Failed/ }));
    expect(await screen.findByRole("heading", { name: "No reports: failed" })).toBeTruthy();
  });

  it("turns regeneration off, and says why, when AI is not configured", async () => {
    stubJobs(() => json(list([job("2", "template")], false)));
    renderApp(PATH, signedIn({ admin: true }));
    expect(await screen.findByText(/AI generation is not configured on this server/)).toBeTruthy();
    expect((screen.getByRole("button", { name: "Regenerate" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows a failed load with a way to try again", async () => {
    let fail = true;
    stubJobs(() => (fail ? json({ error: { code: "internal_error", message: "Boom" } }, 500) : json(list([job("9", "failed")]))));
    renderApp(PATH, signedIn({ admin: true }));
    expect(await screen.findByText(/Failed to load jobs: Boom/, {}, { timeout: 4000 })).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Roofer 9")).toBeTruthy();
  });

  it("is reached from the Prospects screen", async () => {
    stubJobs(
      () => json(list([])),
      (u) => (u.pathname === "/api/prospects" ? json({ prospects: [], total: 0, all: 0, nextCursor: null }) : undefined),
    );
    renderApp("/admin/report-generator", signedIn({ admin: true }));
    fireEvent.click(await screen.findByRole("link", { name: "Jobs" }));
    expect(await screen.findByRole("heading", { name: "Jobs" })).toBeTruthy();
  });
});
