// AI Visibility's screen (issue 29): the empty state, the cost before a scan in cents, the allowance message on a 402,
// the progress while a scan runs, the figures with their intervals one click from their answers (text, sources,
// names, model and time in the business's zone), a failed engine shown failed, the template actions' label, the
// questions list, the history chart; and the report's section on the shared page.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { SharedReportResponse } from "../../worker/features/reports/rules/view";
import { SharedReportView } from "../../web/features/reports/shared-report-view";
import { enhanceSharedReport } from "../../web/features/reports/shared-page/enhance";
import { answer, AT, doneScan, estimate, historyRow, questionsView, reportAi, runningScan, weeklyHistory } from "./ai-visibility-fixtures";
import { sharedRoofer } from "./shared-report-fixtures";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

function owner() {
  const auth = signedIn();
  auth.profile = { ...auth.profile!, company_name: "Ridge Plumbing", company_location: "1200 Main St, Austin, TX 78701", time_zone: "America/Chicago" };
  return auth;
}

type Route = (url: string, init: RequestInit) => Response | undefined;

/** The API as the page sees it; `over` answers first. Records each request (method, url, body). */
function api(data: { scans?: ReturnType<typeof historyRow>[]; scan?: ReturnType<typeof doneScan> } = {}, over: Route = () => undefined) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  const fetch = stubFetch((url, init) => {
    calls.push({ method: init.method ?? "GET", url, body: init.body ? JSON.parse(String(init.body)) : null });
    const own = over(url, init);
    if (own) return own;
    if (url === "/api/profile") return json({ profile: owner().profile });
    if (url === "/api/ai-visibility/questions?business=own") return json(questionsView());
    if (url === "/api/ai-visibility/scans?estimate=1") return json(estimate);
    if (url === "/api/ai-visibility/scans?business=own") return json({ scans: data.scans ?? [] });
    if (data.scan && url === `/api/ai-visibility/scans/${data.scan.id}`) return json(data.scan);
    const a = /^\/api\/ai-visibility\/answers\/(.+)$/.exec(url);
    if (a) return json(answer(a[1]!));
    return json({});
  });
  return { fetch, calls };
}

describe("AI Visibility", () => {
  it("before any scan: says what the tool does, prices the scan in cents and offers the first scan", async () => {
    const { calls } = api();
    renderApp("/tools/ai-visibility", owner());
    expect(await screen.findByRole("heading", { level: 1, name: "AI Visibility" }, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByText("What do AI assistants say about you?")).toBeTruthy();
    const cost = await screen.findByText(/= 30 calls · about/);
    expect(cost.textContent).toBe("2 questions × 3 assistants × 5 answers = 30 calls · about $0.45");
    expect(screen.getByText("OpenAI API with web search: 10 calls, $0.30 · Perplexity: 10 calls, $0.10 · Gemini: 10 calls, $0.05")).toBeTruthy();
    // The estimate asked the saved questions on the configured engines, 5 answers each.
    const asked = calls.find((c) => c.url === "/api/ai-visibility/scans?estimate=1")!;
    expect(asked.body).toEqual({ business: "own", questions: ["best plumber in Austin", "emergency plumber near me"], engines: ["chatgpt", "perplexity", "gemini"], samples: 5 });
    // Engines not configured, in the customer's words; the ChatGPT engine's note.
    expect(screen.getByText("Google AI Overviews: not available on your plan yet")).toBeTruthy();
    expect(screen.getByText("Google AI Mode: not available right now")).toBeTruthy();
    expect(screen.getByText("Answers through the API can differ from what the ChatGPT app shows.")).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/API_KEY|SERPAPI|on this server|Set-up page/);
    const first = screen.getByRole("button", { name: "Run your first scan" }) as HTMLButtonElement;
    await waitFor(() => expect(first.disabled).toBe(false));
  });

  it("says no assistant is available, not 'choose one', when none can be chosen, and offers no scan", async () => {
    const none = questionsView().engines.map((e) => ({ ...e, available: false, reason: "unavailable" as const }));
    const { calls } = api({}, (url) => (url === "/api/ai-visibility/questions?business=own" ? json(questionsView({ engines: none })) : undefined));
    renderApp("/tools/ai-visibility", owner());
    expect(await screen.findByText("No assistant is available right now; your agency has been told.")).toBeTruthy();
    expect(screen.getByText("A scan can run once an assistant is available.")).toBeTruthy();
    expect(screen.queryByText("Choose at least one assistant.")).toBeNull();
    expect(within(screen.getByRole("group", { name: "Assistants to ask" })).queryAllByRole("checkbox")).toEqual([]);
    expect((screen.getByRole("button", { name: "Run your first scan" }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.some((c) => c.url.endsWith("estimate=1"))).toBe(false);
  });

  it("shows the allowance message with the subscription link when the scan is answered 402, and none of the server's words", async () => {
    api({}, (url, init) => (url === "/api/ai-visibility/scans" && init.method === "POST" ? json({ error: { code: "allowance_exceeded", message: "Over the allowance" } }, 402) : undefined));
    renderApp("/tools/ai-visibility", owner());
    const first = (await screen.findByRole("button", { name: "Run your first scan" })) as HTMLButtonElement;
    await waitFor(() => expect(first.disabled).toBe(false));
    fireEvent.click(first);
    expect(await screen.findByText("Over this month's allowance")).toBeTruthy();
    const box = screen.getByText("Over this month's allowance").closest(".alert")!;
    expect(box.textContent).toContain("This scan needs about $0.45, which is more than is left of this month's allowance.");
    expect(within(box as HTMLElement).getByRole("link", { name: "upgrade your plan" }).getAttribute("href")).toBe("/subscription");
  });

  it("disables the scan when the estimate says the allowance does not cover it", async () => {
    api({}, (url) => (url === "/api/ai-visibility/scans?estimate=1" ? json({ ...estimate, allowed: false }) : undefined));
    renderApp("/tools/ai-visibility", owner());
    expect(await screen.findByText("Over this month's allowance")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Run your first scan" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows a running scan's progress, polled until done", async () => {
    const running = runningScan();
    api({ scans: [historyRow(running)], scan: running });
    renderApp("/tools/ai-visibility", owner());
    expect(await screen.findByText(/Asking the assistants: 12 of 30 answers in, 1 failed/)).toBeTruthy();
    expect((screen.getByRole("progressbar", { name: "Scan progress" }) as HTMLProgressElement).value).toBe(12);
    expect((screen.getByRole("button", { name: "A scan is running…" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("lets the next scan run as soon as the shown scan is done, before the scans list has caught up", async () => {
    const scan = doneScan();
    // The list still says running (it polls less often); the scan itself answers done.
    const { calls } = api({ scans: [historyRow(runningScan())], scan });
    renderApp("/tools/ai-visibility", owner());
    const next = (await screen.findByRole("button", { name: "Scan now" })) as HTMLButtonElement;
    await waitFor(() => expect(next.disabled).toBe(false));
    // And the list is asked again once the scan is seen finished.
    await waitFor(() => expect(calls.filter((c) => c.url === "/api/ai-visibility/scans?business=own").length).toBeGreaterThan(1));
  });

  it("shows the figures with their intervals; a figure opens its answers, and one answer shows whole in the business's time zone", async () => {
    const scan = doneScan();
    api({ scans: [historyRow(scan)], scan });
    renderApp("/tools/ai-visibility", owner());
    const table = (await screen.findByRole("heading", { name: "Each question on each assistant" })).closest("section")!;
    const rows = within(table).getAllByRole("row");
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Question", "Named you in", "First mention", "Share of AI voice", "Your site cited"]);
    const chatgpt = rows[1]!;
    expect(chatgpt.textContent).toContain("OpenAI API with web search");
    expect(within(chatgpt).getByRole("button", { name: "2 of 5 answers (40%, 95% interval 12–77%)" })).toBeTruthy();
    expect(within(chatgpt).getByRole("img", { name: "40%, 95% interval 12–77%" })).toBeTruthy();
    expect(chatgpt.textContent).toContain("#2");
    expect(chatgpt.textContent).toContain("25%");
    expect(chatgpt.textContent).toContain("1 of 5");
    expect(rows[2]!.textContent).toContain("0 of 5 answers (0%, 95% interval 0–43%)");
    expect(rows[2]!.textContent).toContain("Not named");
    expect(screen.getByText("Mention rate: 5 of 20 answers (25%, 95% interval 11–47%)")).toBeTruthy();
    expect(screen.getByText("Share of AI voice (95% interval 9–38%)")).toBeTruthy();

    // One click: the figure's five answers; another: one of them whole.
    fireEvent.click(within(chatgpt).getByRole("button", { name: "2 of 5 answers (40%, 95% interval 12–77%)" }));
    const dialog = await screen.findByRole("dialog", { name: "“best plumber in Austin” on OpenAI API with web search" });
    await waitFor(() => expect(within(dialog).getAllByText("Names you")).toHaveLength(5));
    fireEvent.click(within(dialog).getAllByRole("button", { name: "Read answer" })[1]!);
    const one = await within(dialog).findByRole("article", { name: "Answer 2" });
    expect(one.textContent).toContain("OpenAI API with web search · model gpt-4.1-mini · asked Nov 20, 2026, 9:00 AM");
    expect([...one.querySelectorAll("mark")].map((m) => [m.textContent, m.className])).toEqual([
      ["Lone Star Plumbing", ""],
      ["Ridge Plumbing", "aiv-self"],
    ]);
    expect(within(one).getByRole("link", { name: /Top plumbers in Austin - Angi/ }).getAttribute("href")).toBe("https://www.angi.com/companylist/us/tx/austin/plumbing.htm");
    expect(one.textContent).toContain("Businesses named: Lone Star Plumbing, Ridge Plumbing (you)");
    fireEvent.click(within(dialog).getByRole("button", { name: "All 5 answers" }));
    expect(await within(dialog).findAllByRole("button", { name: "Read answer" })).toHaveLength(5);
  });

  it("shows a failed engine as failed with what to do, never as 'not mentioned'", async () => {
    const scan = doneScan();
    api({ scans: [historyRow(scan)], scan });
    renderApp("/tools/ai-visibility", owner());
    const table = (await screen.findByRole("heading", { name: "Each question on each assistant" })).closest("section")!;
    const gemini = within(table).getAllByRole("row")[3]!;
    expect(gemini.textContent).toContain("Gemini");
    expect(within(gemini).getByText("Failed")).toBeTruthy();
    expect(gemini.textContent).toContain("5 of 5 answers failed, so this is not counted as “not mentioned”.");
    expect(gemini.textContent).toContain("Run the scan again later.");
    expect(gemini.textContent).not.toMatch(/0 of 0|Not named/);
    expect(screen.getByText("Gemini failed")).toBeTruthy();
  });

  it("labels template actions as suggested from the figures and says AI was not available; AI-written ones as such", async () => {
    const scan = doneScan();
    const { fetch } = api({ scans: [historyRow(scan)], scan });
    const first = renderApp("/tools/ai-visibility", owner());
    const todo = (await screen.findByRole("heading", { name: "What to do" })).closest("section")!;
    expect(within(todo).getByText("Suggested from your figures")).toBeTruthy();
    expect(todo.textContent).toContain("AI writing wasn't available for this scan");
    expect(within(todo).getAllByRole("listitem")[0]!.textContent).toBe("Get listed on Angi: Perplexity cited it in 7 of 10 answers.");
    // The cited sites: flagged where the Citation Tracker did not find the business.
    const cited = screen.getByRole("heading", { name: "Sources the assistants cite" }).closest("section")!;
    const angi = within(cited).getByText("angi.com").closest("tr")!;
    expect(angi.textContent).toContain("7 of 10 answers");
    expect(within(angi).getByText("You are not on Angi")).toBeTruthy();
    expect(within(within(cited).getByText("yelp.com").closest("tr")!).getByText("Listed")).toBeTruthy();
    first.unmount();
    fetch.mockClear();
    const ai = doneScan({ actions: { items: ["Get listed on Angi."], source: "ai" } });
    api({ scans: [historyRow(ai)], scan: ai });
    renderApp("/tools/ai-visibility", owner());
    const again = (await screen.findByRole("heading", { name: "What to do" })).closest("section")!;
    expect(within(again).getByText("Written by AI from these figures")).toBeTruthy();
    expect(again.textContent).not.toContain("wasn't available");
  });

  it("draws the weekly scans' mention rate per engine over time with its interval band", async () => {
    const scans = weeklyHistory();
    api({ scans, scan: doneScan({ id: "s-1" }) });
    renderApp("/tools/ai-visibility", owner());
    const history = (await screen.findByRole("heading", { name: "History" })).closest("section")!;
    expect(history.textContent).toContain("Your tracked questions, asked every week");
    const chart = within(history).getByRole("img", { name: "Mention rate over time per assistant, with its 95% interval" });
    const chatgpt = chart.querySelector('[data-series="chatgpt"]')!;
    // Oldest first: 1, 2 then 4 of 5 (y = 12 + (1 - rate) × 180).
    expect(chatgpt.querySelector("polyline")!.getAttribute("points")).toBe("44.0,156.0 336.0,120.0 628.0,48.0");
    expect(chatgpt.querySelectorAll("polygon")).toHaveLength(1);
    expect(chart.querySelector('[data-series="perplexity"]')).toBeTruthy();
    expect(within(history).getAllByText(/^Named in /)).toHaveLength(3);
    expect(within(history).getAllByText(/· weekly$/)).toHaveLength(3);
  });

  it("adds a suggestion, tracks a question and removes one through the questions routes", async () => {
    const { calls } = api({}, (url, init) => {
      if (url === "/api/ai-visibility/questions" && init.method === "POST") return json({ id: "q-3", text: "x", tracked: true, createdAt: AT }, 201);
      if (url.startsWith("/api/ai-visibility/questions/") && init.method === "PATCH") return json({ id: "q-2", text: "emergency plumber near me", tracked: true, createdAt: AT });
      if (url.startsWith("/api/ai-visibility/questions/") && init.method === "DELETE") return new Response(null, { status: 204 });
      return undefined;
    });
    renderApp("/tools/ai-visibility", owner());
    expect(await screen.findByText("2 of 10 questions on your plan")).toBeTruthy();
    const suggestions = screen.getByRole("heading", { name: "Suggested from your category and city" }).parentElement!;
    // The saved question is not suggested twice.
    expect(within(suggestions).queryByText("“best plumber in Austin”")).toBeNull();
    fireEvent.click(within(within(suggestions).getByText("“who installs water heaters in Austin TX”").closest("li")!).getByRole("button", { name: /Add and track/ }));
    const row = screen.getByText("“emergency plumber near me”").closest("li")!;
    fireEvent.click(within(row).getByRole("checkbox", { name: "Track weekly" }));
    fireEvent.click(within(row).getByRole("button", { name: "Remove “emergency plumber near me”" }));
    await waitFor(() => expect(calls.filter((c) => c.method !== "GET" && c.url.includes("/questions"))).toHaveLength(3));
    const writes = calls.filter((c) => c.method !== "GET" && c.url.includes("/questions"));
    expect(writes).toEqual([
      { method: "POST", url: "/api/ai-visibility/questions", body: { business: "own", text: "who installs water heaters in Austin TX", tracked: true } },
      { method: "PATCH", url: "/api/ai-visibility/questions/q-2", body: { tracked: true } },
      { method: "DELETE", url: "/api/ai-visibility/questions/q-2", body: null },
    ]);
  });

  it("says when the page could not load, with a way to try again", async () => {
    api({}, (url) => (url === "/api/ai-visibility/questions?business=own" ? json({ error: { code: "unavailable", message: "The service is busy." } }, 503) : undefined));
    renderApp("/tools/ai-visibility", owner());
    expect(await screen.findByText("The service is busy.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });

  it("opens on the prospect the address names, for an admin, who is told where engines are set up", async () => {
    const { calls } = api({}, (url) => {
      if (url === "/api/ai-visibility/questions?business=p-9") return json(questionsView({ questions: [] }));
      if (url === "/api/ai-visibility/scans?business=p-9") return json({ scans: [] });
      if (url.startsWith("/api/prospects")) return json({ prospects: [], total: 0, all: 0, nextCursor: null });
      if (url.startsWith("/api/reports")) return json({ reports: [], nextCursor: null });
      return undefined;
    });
    renderApp("/tools/ai-visibility?business=p-9&name=Desert%20Sun", signedIn({ admin: true }));
    expect(await screen.findByText("What do AI assistants say about you?")).toBeTruthy();
    expect(calls.some((c) => c.url === "/api/ai-visibility/scans?business=p-9")).toBe(true);
    // No saved questions: the scan asks the suggestions.
    await waitFor(() => expect(calls.find((c) => c.url.endsWith("estimate=1"))?.body).toMatchObject({ business: "p-9", questions: questionsView().suggested }));
    const mode = screen.getByText(/Google AI Mode: not available right now/).closest("li")!;
    expect(within(mode).getByRole("link", { name: "Set-up page" }).getAttribute("href")).toBe("/admin/setup");
  });
});

describe("the report's AI Visibility (issue 29)", () => {
  const shared = (over: Partial<SharedReportResponse> = {}) => sharedRoofer(AT, "Copper Roofing", "Mesa, AZ", over);

  it("says on the shared page what each assistant named, with the answers one click away; nothing when there is no scan", () => {
    const html = renderToStaticMarkup(<SharedReportView data={shared({ aiVisibility: reportAi })} />);
    const section = /<section[^>]*id="ai-visibility"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
    for (const text of [
      "What AI assistants say about roofers in Mesa",
      "Asked &#x27;best roofer in Mesa&#x27; 5 times, ChatGPT named Desert Sun Roofing 5 times and you 0 times.",
      "Asked &#x27;roof repair near me&#x27; 5 times, Perplexity named no local business (1 did not answer and is not counted).",
      'data-ai-answers="a-1,a-2"',
      "Read the 2 answers",
      "ChatGPT was asked through OpenAI&#x27;s API with web search",
    ])
      expect(section).toContain(text);
    expect(section).not.toContain("/tools/ai-visibility");
    expect(renderToStaticMarkup(<SharedReportView data={shared({ aiVisibility: null })} />)).not.toContain('id="ai-visibility"');
    expect(renderToStaticMarkup(<SharedReportView data={shared()} />)).not.toContain('id="ai-visibility"');
  });

  it("opens a figure's answers on the shared page from the report's own route: text with names marked, sources, a failed one said failed", async () => {
    const asked: string[] = [];
    stubFetch((url) => {
      asked.push(url);
      if (url === "/api/shared/reports/r-1/ai-answers/a-1") return json(answer("a-1", { text: "Desert Sun Roofing is the most recommended roofer in Mesa.", named: [{ name: "Desert Sun Roofing", self: false, local: true }], sources: [{ url: "https://www.yelp.com/search?find_desc=roofer&find_loc=Mesa", title: "Yelp: roofers in Mesa" }] }));
      if (url === "/api/shared/reports/r-1/ai-answers/a-2") return json(answer("a-2", { status: "failed", text: null, named: [], sources: [], error: "the engine could not be reached" }));
      return json({ error: { code: "not_found", message: "Answer not found" } }, 404);
    });
    document.body.innerHTML = renderToStaticMarkup(<SharedReportView data={shared({ aiVisibility: reportAi })} />);
    const cleanup = enhanceSharedReport(document, { beacons: false });
    try {
      const box = document.querySelector<HTMLDetailsElement>('details[data-ai-answers="a-1,a-2"]')!;
      expect(box.querySelector("[data-ai-answers-list]")!.children).toHaveLength(0);
      fireEvent.click(within(box).getByText("Read the 2 answers"));
      await waitFor(() => expect(box.querySelectorAll("[data-ai-answers-list] > li")).toHaveLength(2));
      expect(asked).toEqual(["/api/shared/reports/r-1/ai-answers/a-1", "/api/shared/reports/r-1/ai-answers/a-2"]);
      const [first, second] = [...box.querySelectorAll("[data-ai-answers-list] > li")];
      expect(first!.querySelector("mark")!.textContent).toBe("Desert Sun Roofing");
      expect(first!.querySelector("a")!.getAttribute("href")).toBe("https://www.yelp.com/search?find_desc=roofer&find_loc=Mesa");
      expect(second!.textContent).toContain("did not answer (the engine could not be reached)");
      expect(box.querySelector<HTMLElement>("[data-ai-answers-status]")!.hidden).toBe(true);
      // Opened once: closing and opening again asks nothing more.
      fireEvent.click(within(box).getByText("Read the 2 answers"));
      expect(asked).toHaveLength(2);
    } finally {
      cleanup();
      document.body.innerHTML = "";
    }
  });

  it("says so when a figure's answers cannot be opened, and tries again on the next opening", async () => {
    let fail = true;
    stubFetch((url) => (fail ? json({ error: { code: "not_found", message: "Answer not found" } }, 404) : json(answer(url.split("/").pop()!))));
    document.body.innerHTML = renderToStaticMarkup(<SharedReportView data={shared({ aiVisibility: reportAi })} />);
    const cleanup = enhanceSharedReport(document, { beacons: false });
    try {
      const box = document.querySelector<HTMLDetailsElement>("details[data-ai-answers]")!;
      fireEvent.click(within(box).getByText("Read the 2 answers"));
      await waitFor(() => expect(box.textContent).toContain("The answers could not be opened just now."));
      fail = false;
      fireEvent.click(within(box).getByText("Read the 2 answers"));
      await waitFor(() => expect(box.querySelectorAll("[data-ai-answers-list] > li")).toHaveLength(2));
    } finally {
      cleanup();
      document.body.innerHTML = "";
    }
  });
});
