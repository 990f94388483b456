// The Prospects screen (spec §2, §4, §5, §8) with a stubbed API: count title, empty states, form button, import messages.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ProspectDto, ProspectImportResponse, ProspectListResponse } from "../../worker/features/accounts/rules/admin-api";
import { INVALID_ROW_FORMAT } from "../../worker/features/prospects/rules/import";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

const PATH = "/admin/report-generator";

function prospect(over: Partial<ProspectDto> = {}): ProspectDto {
  return {
    id: "p-1",
    name: "Acme Roofing",
    description: "Roof repair and replacement",
    area: "Austin, TX",
    keyword: "roofer in austin",
    phone: "15125550100",
    email: "info@acme.test",
    tag: "Roofing",
    company_name: "Acme Roofing",
    user_id: "admin-1",
    created_at: "2026-03-04T10:00:00.000Z",
    report: { id: "r-1", content_generated: false, status: "draft" },
    ...over,
  };
}

function page(prospects: ProspectDto[], over: Partial<ProspectListResponse> = {}): ProspectListResponse {
  return { prospects, total: prospects.length, all: prospects.length, nextCursor: null, ...over };
}

type Calls = { url: string; method: string; body: unknown }[];

/** Stubs the API: `list(url)` answers GET /api/prospects; `importer(body)` answers the import. */
function api(opts: {
  list: (url: URL) => ProspectListResponse;
  importer?: (body: { text: string; startRow: number; allowDuplicates: boolean }) => ProspectImportResponse | Promise<ProspectImportResponse>;
}) {
  const calls: Calls = [];
  stubFetch(async (url, init) => {
    const u = new URL(url, "http://localhost");
    const method = init.method ?? "GET";
    const body = typeof init.body === "string" ? JSON.parse(init.body) : undefined;
    calls.push({ url: u.pathname + u.search, method, body });
    if (u.pathname === "/api/prospects" && method === "GET") return json(opts.list(u));
    if (u.pathname === "/api/prospects/import" && opts.importer) return json(await opts.importer(body));
    if (u.pathname === "/api/reports") return json({ reports: [] });
    return json({ error: { code: "not_found", message: "Not found" } }, 404);
  });
  return calls;
}

const admin = () => signedIn({ admin: true });
const heading = () => screen.findByRole("heading", { level: 1 });

describe("Prospects screen: title and empty states", () => {
  it("shows '0 prospects created' and the no-prospects empty state with its button", async () => {
    api({ list: () => page([]) });
    renderApp(PATH, admin());
    expect((await screen.findByText("0 prospects created")).tagName).toBe("H1");
    expect(screen.getByRole("heading", { name: "No prospects found" })).toBeTruthy();
    expect(screen.getByText("No prospects have been created yet.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Create Your First Prospect" })).toBeTruthy();
  });

  it("words one prospect in the singular and shows every field of its card", async () => {
    api({ list: () => page([prospect()]) });
    renderApp(PATH, admin());
    expect(await screen.findByText("1 prospect created")).toBeTruthy();
    const card = screen.getByRole("article", { name: "Acme Roofing" });
    for (const text of ["Roof repair and replacement", "roofer in austin", "Austin, TX", "+1 (512) 555-0100", "info@acme.test", "Mar 4, 2026"]) {
      expect(within(card).getByText(text)).toBeTruthy();
    }
    expect((within(card).getByLabelText("Tag for Acme Roofing") as HTMLSelectElement).value).toBe("Roofing");
    expect(within(card).getByRole("link", { name: "AI Chat" }).getAttribute("href")).toBe("/admin/prospect-chat/r-1");
    expect(within(card).getByRole("link", { name: "View" }).getAttribute("href")).toBe("/admin/reports/r-1");
    expect(within(card).getByRole("button", { name: "Delete Acme Roofing" })).toBeTruthy();
  });

  it("words many prospects in the plural, counting all prospects", async () => {
    api({ list: () => page([prospect(), prospect({ id: "p-2", name: "Drip Co" })], { all: 12, total: 2 }) });
    renderApp(PATH, admin());
    expect(await screen.findByText("12 prospects created")).toBeTruthy();
  });

  it("offers 'Add Tag' on a card without a tag", async () => {
    api({ list: () => page([prospect({ tag: null })]) });
    renderApp(PATH, admin());
    const select = (await screen.findByLabelText("Tag for Acme Roofing")) as HTMLSelectElement;
    expect(select.value).toBe("");
    expect(within(select).getByRole("option", { name: "Add Tag" })).toBeTruthy();
    expect(within(select).getAllByRole("option")).toHaveLength(22);
  });

  it("shows the no-results empty state for a search, asking the server with the search text", async () => {
    const calls = api({ list: (u) => (u.searchParams.get("q") ? page([], { all: 3 }) : page([prospect()], { all: 3 })) });
    renderApp(PATH, admin());
    await screen.findByText("3 prospects created");
    fireEvent.change(screen.getByRole("searchbox", { name: "Search prospects" }), { target: { value: "Plumbers" } });
    expect(await screen.findByText('No results found for "Plumbers". Try a different search term.')).toBeTruthy();
    expect(screen.getByRole("heading", { name: "No prospects found" })).toBeTruthy();
    expect(calls.some((c) => c.url === "/api/prospects?q=Plumbers")).toBe(true);
    expect(screen.getByText("3 prospects created")).toBeTruthy();
  });

  it("offers to clear a search that matched nothing when prospects exist, not to create the first one", async () => {
    api({ list: (u) => (u.searchParams.get("q") ? page([], { all: 3 }) : page([prospect()], { all: 3 })) });
    renderApp(PATH, admin());
    await screen.findByText("3 prospects created");
    const box = screen.getByRole("searchbox", { name: "Search prospects" }) as HTMLInputElement;
    fireEvent.change(box, { target: { value: "Plumbers" } });
    await screen.findByText('No results found for "Plumbers". Try a different search term.');
    expect(screen.queryByRole("button", { name: "Create Your First Prospect" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Clear search" }));
    expect(box.value).toBe("");
    expect(await screen.findByRole("link", { name: "View" })).toBeTruthy();
  });

  it("still offers 'Create Your First Prospect' for a search when there are no prospects at all", async () => {
    api({ list: () => page([], { all: 0 }) });
    renderApp(PATH, admin());
    await screen.findByText("0 prospects created");
    fireEvent.change(screen.getByRole("searchbox", { name: "Search prospects" }), { target: { value: "Plumbers" } });
    await screen.findByText('No results found for "Plumbers". Try a different search term.');
    expect(screen.getByRole("button", { name: "Create Your First Prospect" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Clear search" })).toBeNull();
  });

  it("shows 'Failed to load prospects: ' and the server's message when the list fails", async () => {
    stubFetch((url) =>
      url.startsWith("/api/prospects")
        ? json({ error: { code: "internal_error", message: "Database unavailable" } }, 500)
        : json({ reports: [] }),
    );
    renderApp(PATH, admin());
    expect(await screen.findByText("Failed to load prospects: Database unavailable")).toBeTruthy();
  });
});

describe("Prospects screen: the paste form", () => {
  it("labels the header button New Prospect, Hide Form (open and empty) and Create Prospect (text)", async () => {
    api({ list: () => page([]) });
    renderApp(PATH, admin());
    await heading();
    fireEvent.click(screen.getByRole("button", { name: "New Prospect" }));
    expect(screen.getByRole("button", { name: "Hide Form" })).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Paste prospects"), { target: { value: "x" } });
    expect(screen.getByRole("button", { name: "Create Prospect" })).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Paste prospects"), { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Hide Form" }));
    expect(screen.queryByLabelText("Paste prospects")).toBeNull();
    expect(screen.getByRole("button", { name: "New Prospect" })).toBeTruthy();
  });

  it("shows row errors from the shared parser before anything is sent", async () => {
    const calls = api({ list: () => page([]) });
    renderApp(PATH, admin());
    await heading();
    fireEvent.click(screen.getByRole("button", { name: "New Prospect" }));
    fireEvent.change(screen.getByLabelText("Paste prospects"), {
      target: { value: "Roofing\tAcme\tAustin\nPlumbing\tDrip\tDenver\njust one field" },
    });
    expect(await screen.findByText(`Row 3: ${INVALID_ROW_FORMAT}`)).toBeTruthy();
    expect(screen.getByText("2 rows ready")).toBeTruthy();
    expect(screen.getByText("1 row with errors")).toBeTruthy();
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);
  });

  it("says 'Please enter prospect data' for a blank paste without calling the server", async () => {
    const calls = api({ list: () => page([]) });
    renderApp(PATH, admin());
    await heading();
    fireEvent.click(screen.getByRole("button", { name: "New Prospect" }));
    fireEvent.change(screen.getByLabelText("Paste prospects"), { target: { value: "   " } });
    fireEvent.click(screen.getByRole("button", { name: "Create Prospect" }));
    expect(await screen.findByText("Please enter prospect data")).toBeTruthy();
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);
  });

  it("shows progress, then the partial-success message with the failed row, and lists the new cards", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let created = false;
    const calls = api({
      list: () => (created ? page([prospect({ id: "p-2", name: "Drip Co" }), prospect()]) : page([])),
      importer: async () => {
        await gate;
        created = true;
        return {
          created: [
            { row: 1, prospect: prospect(), reportId: "r-1" },
            { row: 2, prospect: prospect({ id: "p-2", name: "Drip Co" }), reportId: "r-2" },
          ],
          errors: [{ row: 3, message: INVALID_ROW_FORMAT }],
          duplicates: [],
          skipped: [], headerSkipped: false,
          total: 3,
        };
      },
    });
    renderApp(PATH, admin());
    await heading();
    fireEvent.click(screen.getByRole("button", { name: "New Prospect" }));
    fireEvent.change(screen.getByLabelText("Paste prospects"), {
      target: { value: "Roofing\tAcme Roofing\tAustin\nPlumbing\tDrip Co\tDenver\nbad" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Create Prospect" }));
    expect(await screen.findByText("Processing prospect 1 of 3...")).toBeTruthy();
    await act(async () => release());
    const partial = (await screen.findByText("Created 2 prospects successfully. 1 failed.")).closest(".alert") as HTMLElement;
    expect(within(partial).getByText(`Row 3: ${INVALID_ROW_FORMAT}`)).toBeTruthy();
    expect(await screen.findByText("2 prospects created")).toBeTruthy();
    const post = calls.find((c) => c.method === "POST")!;
    expect(post.body).toEqual({
      text: "Roofing\tAcme Roofing\tAustin\nPlumbing\tDrip Co\tDenver\nbad",
      startRow: 1,
      allowDuplicates: false,
    });
  });

  it("sends a long paste in chunks of 100 rows, keeping row numbers, and says 'Created {n} prospects successfully!'", async () => {
    const bodies: { startRow: number; text: string }[] = [];
    api({
      list: () => page([]),
      importer: (body) => {
        bodies.push(body);
        const rows = body.text.split("\n");
        return {
          created: rows.map((_, i) => ({ row: body.startRow + i, prospect: prospect({ id: `p-${body.startRow + i}` }), reportId: "r" })),
          errors: [],
          duplicates: [],
          skipped: [], headerSkipped: false,
          total: rows.length,
        };
      },
    });
    renderApp(PATH, admin());
    await heading();
    fireEvent.click(screen.getByRole("button", { name: "New Prospect" }));
    const text = Array.from({ length: 250 }, (_, i) => `Roofing\tCo ${i}\tAustin`).join("\n");
    fireEvent.change(screen.getByLabelText("Paste prospects"), { target: { value: text } });
    fireEvent.click(screen.getByRole("button", { name: "Create Prospect" }));
    expect(await screen.findByText("Created 250 prospects successfully!")).toBeTruthy();
    expect(bodies.map((b) => [b.startRow, b.text.split("\n").length])).toEqual([
      [1, 100],
      [101, 100],
      [201, 50],
    ]);
    expect(screen.queryByLabelText("Paste prospects")).toBeNull();
  });

  it("reports duplicates and sends 'import duplicates anyway' when ticked", async () => {
    const bodies: { allowDuplicates: boolean }[] = [];
    api({
      list: () => page([prospect()]),
      importer: (body) => {
        bodies.push(body);
        return body.allowDuplicates
          ? { created: [{ row: 1, prospect: prospect({ id: "p-9" }), reportId: "r-9" }], errors: [], duplicates: [], skipped: [], headerSkipped: false, total: 1 }
          : { created: [], errors: [], duplicates: [{ row: 1, name: "Acme Roofing", existingId: "p-1" }], skipped: [], headerSkipped: false, total: 1 };
      },
    });
    renderApp(PATH, admin());
    await screen.findByText("1 prospect created");
    fireEvent.click(screen.getByRole("button", { name: "New Prospect" }));
    fireEvent.change(screen.getByLabelText("Paste prospects"), { target: { value: "Roofing\tAcme Roofing\tAustin" } });
    fireEvent.click(screen.getByRole("button", { name: "Create Prospect" }));
    expect(await screen.findByText("Skipped 1 duplicate")).toBeTruthy();
    expect(screen.getByText("Row 1: Acme Roofing")).toBeTruthy();
    fireEvent.click(screen.getByLabelText("Import duplicates anyway"));
    fireEvent.click(screen.getByRole("button", { name: "Create Prospect" }));
    expect(await screen.findByText("Created 1 prospects successfully!")).toBeTruthy();
    expect(bodies.map((b) => b.allowDuplicates)).toEqual([false, true]);
  });
});

describe("Prospects screen: tag and delete", () => {
  it("updates a tag with 'Prospect tag updated to \"{tag}\"'", async () => {
    const calls: string[] = [];
    stubFetch(async (url, init) => {
      calls.push(`${init.method ?? "GET"} ${url}`);
      if (url.startsWith("/api/prospects/p-1")) return json({ prospect: prospect({ tag: "HVAC" }) });
      if (url.startsWith("/api/prospects")) return json(page([prospect()]));
      return json({ reports: [] });
    });
    renderApp(PATH, admin());
    const select = (await screen.findByLabelText("Tag for Acme Roofing")) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: "HVAC" } });
    expect(await screen.findByText('Prospect tag updated to "HVAC"')).toBeTruthy();
    expect(calls).toContain("PATCH /api/prospects/p-1");
    expect(select.value).toBe("HVAC");
  });

  it("shows a new tag at once and puts the old one back, with 'Failed to update tag: ', when saving fails", async () => {
    let answer: (res: Response) => void = () => {};
    stubFetch(async (url, init) => {
      if (url.startsWith("/api/prospects/p-1") && init.method === "PATCH") return new Promise<Response>((resolve) => (answer = resolve));
      if (url.startsWith("/api/prospects")) return json(page([prospect()]));
      return json({ reports: [] });
    });
    renderApp(PATH, admin());
    const select = (await screen.findByLabelText("Tag for Acme Roofing")) as HTMLSelectElement;
    const before = select.value;
    fireEvent.change(select, { target: { value: "HVAC" } });
    await waitFor(() => expect((screen.getByLabelText("Tag for Acme Roofing") as HTMLSelectElement).value).toBe("HVAC"));
    answer(json({ error: { code: "internal_error", message: "Database unavailable" } }, 500));
    expect(await screen.findByText("Failed to update tag: Database unavailable")).toBeTruthy();
    expect((screen.getByLabelText("Tag for Acme Roofing") as HTMLSelectElement).value).toBe(before);
  });

  it("deletes through the dialog with the spec's texts", async () => {
    stubFetch(async (url, init) => {
      if (url === "/api/prospects/p-1" && init.method === "DELETE") return json({ deleted: { id: "p-1", reportId: "r-1" } });
      if (url.startsWith("/api/prospects")) return json(page([prospect()]));
      return json({ reports: [] });
    });
    renderApp(PATH, admin());
    fireEvent.click(await screen.findByRole("button", { name: "Delete Acme Roofing" }));
    const dialog = screen.getByRole("alertdialog", { name: "Delete Prospect" });
    expect(within(dialog).getByText("Are you sure you want to delete this prospect? This action cannot be undone.")).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Prospect deleted successfully")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(screen.getByText("0 prospects created")).toBeTruthy();
    expect(screen.getByText("No prospects have been created yet.")).toBeTruthy();
  });
});
