// Business Settings, the post generator and the usage panel with stubbed API answers: states, the shared form
// schema, the logo size check, the spec's retries and the preview's edit flow; the AI Usage page and the use still
// being counted after a generation.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { GeneratedPost } from "../../worker/features/content/rules/facebook-post";
import type { ProfileDto } from "../../worker/features/profile/rules/profile";
import type { UsageResponse } from "../../worker/features/usage/rules/usage-stats";
import { ApiError } from "../../web/lib/api";
import { generateWithRetries } from "../../web/features/content/posts-queries";
import { USAGE_COUNTING_NOTE } from "../../web/features/usage/queries";
import { budgetFixture, fakeProfile, fakeUser, json, renderApp, signedIn, stubFetch } from "./helpers";

const profile = { ...fakeProfile(fakeUser(), false), company_name: "Lakeside Plumbing", company_category: "Plumbing", company_location: "Madison, WI" };

function usage(overrides: Partial<UsageResponse["stats"]> = {}): UsageResponse {
  return {
    stats: {
      totalUsage: 0,
      totalTokens: 0,
      totalCost: 0,
      usageByTool: [],
      recentLogs: [],
      daily: [],
      budget: budgetFixture(),
      ...overrides,
    },
    all: null,
  };
}

const post: GeneratedPost = {
  id: "p1",
  title: "Winter pipe tips",
  content: "Keep a faucet dripping on cold nights.",
  tags: ["#Plumbing", "#Madison"],
  imagePrompt: "plumbing, Madison",
  image: "https://placehold.co/600x400?text=plumbing%2C%20Madison",
  source: "template",
  postType: "educational",
  tone: "professional",
  length: "short",
  request: "",
  created_at: "2026-11-23T09:00:00.000Z",
  updated_at: "2026-11-23T09:00:00.000Z",
};

describe("Business Settings", () => {
  it("shows the profile and the empty usage panel, checks the form with the shared schema, then saves", async () => {
    const calls: { method: string; body: unknown }[] = [];
    stubFetch((url, init) => {
      if (url.includes("/api/usage")) return json(usage());
      if (url.includes("/api/profile")) {
        calls.push({ method: init.method ?? "GET", body: init.body ? JSON.parse(String(init.body)) : null });
        if (init.method === "PUT") return json({ profile: { ...profile, company_email: "hi@lakeside.com", updated_at: "2026-11-23T10:00:00Z" }, viewingAs: false });
        return json({ profile, viewingAs: false });
      }
      return json({ posts: [] });
    });
    renderApp("/settings/personal", signedIn());
    await screen.findByText("No AI usage yet");
    expect(await screen.findByDisplayValue("Lakeside Plumbing")).toBeTruthy();
    expect(screen.getByText("Token usage and costs are estimates and may vary based on the actual API usage.")).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "not-an-email" } });
    fireEvent.click(screen.getByRole("button", { name: "Save Company Profile" }));
    expect(await screen.findByText("Enter a valid email address")).toBeTruthy();
    expect(calls.filter((c) => c.method === "PUT")).toHaveLength(0);

    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "hi@lakeside.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Save Company Profile" }));
    expect(await screen.findByText("Business profile updated successfully")).toBeTruthy();
    expect(calls.find((c) => c.method === "PUT")?.body).toMatchObject({ company_name: "Lakeside Plumbing", company_email: "hi@lakeside.com" });
  });

  it("opens on the form, before the usage cards (they pushed it below the fold on a phone)", async () => {
    stubFetch((url) => (url.includes("/api/usage") ? json(usage()) : json({ profile, viewingAs: false })));
    renderApp("/settings/personal", signedIn());
    const form = await screen.findByRole("form", { name: "Company Profile" });
    await screen.findByText("No AI usage yet");
    const usagePanel = document.querySelector(".usage-panel")!;
    expect(form.compareDocumentPosition(usagePanel) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("never says 'updated successfully' for an empty or unchanged form, and sends nothing", async () => {
    const empty: ProfileDto = { ...fakeProfile(fakeUser(), false), time_zone: null };
    let current = empty;
    const puts: unknown[] = [];
    stubFetch((url, init) => {
      if (url.includes("/api/usage")) return json(usage());
      if (url.includes("/api/profile") && init.method === "PUT") {
        puts.push(JSON.parse(String(init.body)));
        current = { ...current, company_name: "Lakeside Plumbing", time_zone: "America/Denver" };
        return json({ profile: current, viewingAs: false });
      }
      return json({ profile: current, viewingAs: false });
    });
    renderApp("/settings/personal", signedIn());
    const save = await screen.findByRole("button", { name: "Save Company Profile" });
    fireEvent.click(save);
    expect(await screen.findByText("Nothing to save yet: fill in your business details first.")).toBeTruthy();
    expect(screen.queryByText("Business profile updated successfully")).toBeNull();
    expect(puts).toEqual([]);

    fireEvent.change(screen.getByLabelText("Company Name"), { target: { value: "Lakeside Plumbing" } });
    fireEvent.click(save);
    expect(await screen.findByText("Business profile updated successfully")).toBeTruthy();
    expect(puts).toHaveLength(1);
    // Saved: the same form again changes nothing.
    fireEvent.click(save);
    expect(await screen.findByText("No changes to save.")).toBeTruthy();
    expect(screen.queryByText("Business profile updated successfully")).toBeNull();
    expect(puts).toHaveLength(1);
  });

  it("defaults the time zone to the browser's when none is saved, and saves it with the form", async () => {
    const real = Intl.DateTimeFormat.prototype.resolvedOptions;
    const spy = vi.spyOn(Intl.DateTimeFormat.prototype, "resolvedOptions").mockImplementation(function (this: Intl.DateTimeFormat) {
      return { ...real.call(this), timeZone: "America/Denver" };
    });
    try {
      const puts: { time_zone?: string }[] = [];
      stubFetch((url, init) => {
        if (url.includes("/api/usage")) return json(usage());
        if (init.method === "PUT") {
          puts.push(JSON.parse(String(init.body)));
          return json({ profile: { ...profile, time_zone: "America/Denver" }, viewingAs: false });
        }
        return json({ profile: { ...profile, time_zone: null }, viewingAs: false });
      });
      renderApp("/settings/personal", signedIn());
      const zone = (await screen.findByLabelText("Time zone")) as HTMLSelectElement;
      expect(zone.value).toBe("America/Denver");
      fireEvent.click(screen.getByRole("button", { name: "Save Company Profile" }));
      expect(await screen.findByText("Business profile updated successfully")).toBeTruthy();
      expect(puts[0]?.time_zone).toBe("America/Denver");
    } finally {
      spy.mockRestore();
    }
  });

  it("refuses a logo over 2 MB before uploading it", async () => {
    const fetch = stubFetch((url) => (url.includes("/api/usage") ? json(usage()) : json({ profile, viewingAs: false })));
    const { container } = renderApp("/settings/personal", signedIn());
    await screen.findByDisplayValue("Lakeside Plumbing");
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], "logo.png", { type: "image/png" });
    fireEvent.change(input, { target: { files: [big] } });
    expect(await screen.findByText("Avatar image must be smaller than 2MB")).toBeTruthy();
    expect(fetch.mock.calls.some(([u]) => String(u).includes("/api/profile/logo"))).toBe(false);
  });

  it("shows the usage figures, and the spec's message when they fail to load", async () => {
    stubFetch((url) =>
      url.includes("/api/usage")
        ? json(usage({
            totalUsage: 3,
            totalTokens: 1234,
            totalCost: 0.000123,
            usageByTool: [{ tool_name: "Facebook Post Generator", count: 3, tokens: 1234, cost: 0.000123 }],
            recentLogs: [{ id: "l1", created_at: "2026-11-23T09:00:00Z", tool_name: "Facebook Post Generator", model: "m", total_tokens: 411, estimated_cost: 0.000041, tokens_estimated: true }],
          }))
        : json({ profile, viewingAs: false }),
    );
    const first = renderApp("/settings/personal", signedIn());
    expect((await screen.findAllByText("1,234")).length).toBe(2); // Total Tokens and the tool row
    // Money in cents (issue 26): a cost below a cent is "< $0.01", never "$0.000123".
    expect(screen.getAllByText("< $0.01").length).toBeGreaterThan(0);
    expect(screen.queryByText("$0.000123")).toBeNull();
    expect(screen.getByText("411 (est.)")).toBeTruthy();
    first.unmount();

    stubFetch((url) => (url.includes("/api/usage") ? json({ error: { code: "internal_error", message: "boom" } }, 500) : json({ profile, viewingAs: false })));
    renderApp("/settings/personal", signedIn());
    expect(await screen.findByText("Failed to load your AI usage statistics", {}, { timeout: 4000 })).toBeTruthy();
  });
});

describe("generateWithRetries", () => {
  it("gives each attempt 15 s + 5 s per index, retries time-outs 3 times 2 s apart, then gives up in the spec's words", async () => {
    vi.useFakeTimers();
    try {
      const timeouts: number[] = [];
      const notices: number[] = [];
      const send = vi.fn(async (_body: unknown, timeoutMs: number) => {
        timeouts.push(timeoutMs);
        throw new ApiError(0, "timeout", "Request timed out. Please check your connection and try again.");
      });
      const result = generateWithRetries({}, (n) => notices.push(n), send).catch((e: unknown) => e);
      await vi.runAllTimersAsync();
      const error = await result;
      expect(timeouts).toEqual([15_000, 20_000, 25_000, 30_000]);
      expect(notices).toEqual([1, 2, 3]);
      expect((error as Error).message).toBe("All attempts timed out. Please try again or check your connection.");
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not retry other failures", async () => {
    const send = vi.fn(async () => {
      throw new ApiError(502, "ai_error", "API Error: boom");
    });
    await expect(generateWithRetries({}, () => undefined, send)).rejects.toThrow("API Error: boom");
    expect(send).toHaveBeenCalledTimes(1);
  });
});

describe("Facebook Post Generator", () => {
  it("goes from the empty state to the preview, says it is a template, and saves an edit", async () => {
    let patched: unknown = null;
    stubFetch((url, init) => {
      if (url.includes("/api/profile")) return json({ profile, viewingAs: false });
      if (url.includes("/api/posts/facebook")) return json({ post, notice: "This post was written from a template because AI writing is unavailable right now." }, 201);
      if (url.includes("/api/posts/p1") && init.method === "PATCH") {
        patched = JSON.parse(String(init.body));
        return json({ post: { ...post, content: "Edited!", updated_at: "2026-11-23T09:05:00.000Z" } });
      }
      return json({ posts: [] });
    });
    renderApp("/tools/facebook-post-generator", signedIn());
    expect(await screen.findByRole("heading", { name: "No Post Generated Yet" })).toBeTruthy();
    await screen.findByText("Plumbing · Madison, WI");
    fireEvent.click(screen.getByRole("button", { name: "Generate Sample Post" }));

    const preview = await screen.findByRole("article", { name: "Facebook post preview" });
    expect(within(preview).getByText("24 likes")).toBeTruthy();
    expect(within(preview).getByText("5 comments")).toBeTruthy();
    expect(within(preview).getByText("2 shares")).toBeTruthy();
    expect(screen.getByText("Written from a template")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Edit Post" }));
    fireEvent.change(screen.getByLabelText("Post content"), { target: { value: "Edited!" } });
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(within(screen.getByRole("article", { name: "Facebook post preview" })).getByText("Edited!")).toBeTruthy());
    expect(patched).toEqual({ content: "Edited!" });
  });

  it("asks for the business profile first when it has no company name", async () => {
    stubFetch((url) => (url.includes("/api/profile") ? json({ profile: fakeProfile(fakeUser(), false), viewingAs: false }) : json({ posts: [] })));
    renderApp("/tools/facebook-post-generator", signedIn());
    await screen.findByRole("heading", { name: "No Post Generated Yet" });
    const generate = screen.getByRole("button", { name: "Generate Facebook Post" }) as HTMLButtonElement;
    await waitFor(() => expect(generate.disabled).toBe(false));
    fireEvent.click(generate);
    expect((await screen.findAllByText("Please update your business profile first to generate more relevant content.")).length).toBeGreaterThan(0);
  });

  it("waits for the profile before Generate can be pressed, so nobody with a profile is asked for one (issue 26)", async () => {
    stubFetch((url) => (url.includes("/api/profile") ? new Promise<Response>(() => {}) : json({ posts: [] })));
    renderApp("/tools/facebook-post-generator", signedIn());
    await screen.findByRole("heading", { name: "No Post Generated Yet" });
    const generate = screen.getByRole("button", { name: "Generate Facebook Post" }) as HTMLButtonElement;
    expect(generate.disabled).toBe(true);
    fireEvent.click(generate);
    expect(screen.queryByText("Please update your business profile first to generate more relevant content.")).toBeNull();
  });
});

describe("AI Usage page", () => {
  const usageOf = (totalUsage: number) =>
    usage({
      totalUsage,
      totalTokens: totalUsage * 400,
      totalCost: totalUsage * 0.0001,
      usageByTool: totalUsage ? [{ tool_name: "Facebook Post Generator", count: totalUsage, tokens: totalUsage * 400, cost: totalUsage * 0.0001 }] : [],
      recentLogs: totalUsage
        ? [{ id: "l1", created_at: "2026-11-23T09:00:00Z", tool_name: "Facebook Post Generator", model: "m", total_tokens: 400, estimated_cost: 0.0001, tokens_estimated: false }]
        : [],
      daily: [
        { day: "2026-11-22", count: 0, tokens: 0, cost: 0 },
        { day: "2026-11-23", count: totalUsage, tokens: totalUsage * 400, cost: totalUsage * 0.0001 },
      ],
    });

  /** Generates a post written by `source`, then opens /usage; `total` is what the usage API answers at each call. */
  async function generateThenOpenUsage(source: GeneratedPost["source"], total: () => number) {
    stubFetch((url) => {
      if (url.includes("/api/usage")) return json(usageOf(total()));
      if (url.includes("/api/profile")) return json({ profile, viewingAs: false });
      if (url.includes("/api/posts/facebook")) return json({ post: { ...post, source }, notice: null }, 201);
      return json({ posts: [] });
    });
    const { navigate } = renderApp("/tools/facebook-post-generator", signedIn());
    await screen.findByText("Plumbing · Madison, WI");
    fireEvent.click(screen.getByRole("button", { name: "Generate Sample Post" }));
    await screen.findByRole("article", { name: "Facebook post preview" });
    await navigate("/usage");
    await screen.findByRole("heading", { level: 2, name: "Your usage" });
  }

  it("has one 'AI Usage' heading, the Tool column aligned alike in both tables, and axis labels as text", async () => {
    stubFetch((url) => (url.includes("/api/usage") ? json(usageOf(2)) : json({ posts: [] })));
    renderApp("/usage", signedIn());
    expect(await screen.findByRole("heading", { level: 1, name: "AI Usage" })).toBeTruthy();
    expect(await screen.findByRole("heading", { level: 2, name: "Your usage" })).toBeTruthy();
    expect(screen.getAllByRole("heading", { name: "AI Usage" })).toHaveLength(1);
    // The tables render once the usage has loaded, which may come after the headings (failed once in CI).
    await waitFor(() => expect(screen.getAllByRole("columnheader", { name: "Tool" })).toHaveLength(2));
    const toolHeads = screen.getAllByRole("columnheader", { name: "Tool" }) as HTMLTableCellElement[];
    // First column of Usage by Tool (left by position); second of Recent Activity (left as a text column).
    expect(toolHeads[0]!.cellIndex).toBe(0);
    expect(toolHeads[1]!.cellIndex).toBe(1);
    expect(toolHeads[1]!.classList.contains("is-text")).toBe(true);
    for (const n of ["Uses", "Tokens", "Cost"]) for (const th of screen.getAllByRole("columnheader", { name: n })) expect(th.classList.contains("is-text")).toBe(false);
    expect(screen.getByText("Nov 22").closest("svg")).toBeNull();
  });

  it("says the latest use is still being counted after a generation, and refreshes once the queue has counted it", async () => {
    let total = 1;
    await generateThenOpenUsage("ai", () => total);
    expect(await screen.findByText(USAGE_COUNTING_NOTE)).toBeTruthy();
    total = 2; // the usage-events consumer has stored the row
    await waitFor(() => expect(screen.queryByText(USAGE_COUNTING_NOTE)).toBeNull(), { timeout: 5000 });
    expect(screen.getAllByText("800").length).toBeGreaterThan(0);
  });

  it("waits for nothing after a template post: it logs no use", async () => {
    await generateThenOpenUsage("template", () => 1);
    await screen.findAllByText("400");
    expect(screen.queryByText(USAGE_COUNTING_NOTE)).toBeNull();
  });
});

describe("Facebook Post Generator: topic and Advanced Options", () => {
  it("says an empty topic gives a general post, and puts Special Instructions below the description", async () => {
    stubFetch((url) => (url.includes("/api/profile") ? json({ profile, viewingAs: false }) : json({ posts: [] })));
    renderApp("/tools/facebook-post-generator", signedIn());
    await screen.findByText("Plumbing · Madison, WI");
    const topic = screen.getByLabelText("What should the post be about?");
    expect(screen.getByText(/No topic yet: you will get a general post about your business/)).toBeTruthy();
    fireEvent.change(topic, { target: { value: "Our spring drain-cleaning special" } });
    expect(screen.queryByText(/No topic yet/)).toBeNull();

    expect(screen.queryByRole("textbox", { name: "Special Instructions" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Advanced Options" }));
    const instructions = screen.getByRole("textbox", { name: "Special Instructions" });
    expect(topic.compareDocumentPosition(instructions) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const toggle = screen.getByRole("button", { name: "Advanced Options" });
    expect(toggle.compareDocumentPosition(topic) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
