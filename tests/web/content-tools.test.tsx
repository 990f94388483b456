// The content suite's screens with stubbed API answers: the GMB generator's template notice, length note, edit and
// Schedule link; the social post generator's per-network previews and copy feedback; the video script's estimate
// and teleprompter; the plan's calendar, a move saved by its button, and a CSV import with per-row errors.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { ContentItem } from "../../worker/features/content/rules/content";
import type { GmbPost } from "../../worker/platform/providers/rules/gmb-post";
import { SocialPlanRequest, templatePlan, type SocialPlan } from "../../worker/features/content/rules/social-plan";
import type { SocialPostsResult } from "../../worker/features/content/rules/social-posts";
import { templateVideoScript, VideoScriptRequest, type VideoScript } from "../../worker/features/content/rules/video-script";
import { fakeProfile, fakeUser, json, renderApp, signedIn, stubFetch } from "./helpers";

const profile = { ...fakeProfile(fakeUser(), false), company_name: "Lakeside Plumbing", company_category: "Plumbing", company_location: "Madison, WI" };
const BUSINESS = { company_name: "Lakeside Plumbing", company_category: "Plumbing", company_location: "Madison, WI", company_description: null };

function item<R>(tool: ContentItem["tool"], result: R, over: Partial<ContentItem<R>> = {}): ContentItem<R> {
  return { id: "c1", tool, title: "A title", input: {}, result, source: "ai", notice: null, notes: [], created_at: "2026-11-23T09:00:00.000Z", updated_at: "2026-11-23T09:00:00.000Z", ...over };
}

/** Answers the profile, the tool's history, and whatever `route` handles. */
function stub(route: (url: string, init: RequestInit) => Response | undefined) {
  return stubFetch((url, init) => {
    const answered = route(url, init);
    if (answered) return answered;
    if (url.includes("/api/profile")) return json({ profile, viewingAs: false });
    if (url.includes("/api/usage")) return json({ stats: { totalUsage: 0 }, all: null });
    if (url.includes("/api/content?")) return json({ items: [] });
    return json({});
  });
}

describe("GMB Post Generator", () => {
  const post: GmbPost = {
    type: "OFFER",
    summary: "Book a drain check this month and save.",
    callToAction: { actionType: "BOOK", url: "https://lakeside.example/book" },
    offer: { title: "Drain check special", couponCode: "DRAIN10", terms: "New customers only.", startDate: "2026-12-01", endDate: "2026-12-15" },
    event: null,
    imageIdea: "A clean drain",
  };

  it("sends the form, says when a template wrote the post and what was shortened, and links to the scheduler", async () => {
    const sent: unknown[] = [];
    stub((url, init) => {
      if (url.endsWith("/api/content/gmb-post") && init.method === "POST") {
        sent.push(JSON.parse(String(init.body)));
        return json({ item: item("gmb-post", post, { id: "gmb-1", source: "template", notice: "Written from a template because AI writing is unavailable right now.", notes: ["Shortened on a sentence boundary to fit Google's 1,500-character limit."] }) }, 201);
      }
      return undefined;
    });
    renderApp("/tools/gmb-post-generator", signedIn());
    await screen.findByText("No Post Generated Yet");
    await screen.findAllByText("Lakeside Plumbing");
    fireEvent.click(screen.getByRole("button", { name: "Offer" }));
    fireEvent.change(screen.getByLabelText("Coupon code"), { target: { value: "DRAIN10" } });
    fireEvent.change(screen.getByLabelText("Button"), { target: { value: "BOOK" } });
    fireEvent.click(screen.getByRole("button", { name: "Generate GMB Post" }));
    // A button without its link is caught by the shared schema before anything is sent.
    expect(await screen.findByText("This button needs a link")).toBeTruthy();
    expect(sent).toEqual([]);
    fireEvent.change(screen.getByLabelText("Button link"), { target: { value: "https://lakeside.example/book" } });
    fireEvent.click(screen.getByRole("button", { name: "Generate GMB Post" }));

    const preview = await screen.findByRole("article", { name: "Google listing preview" });
    expect(sent).toEqual([expect.objectContaining({ postType: "OFFER", couponCode: "DRAIN10", ctaType: "BOOK", ctaUrl: "https://lakeside.example/book" })]);
    expect(screen.getByText("Written from a template")).toBeTruthy();
    expect(screen.getByText("Shortened on a sentence boundary to fit Google's 1,500-character limit.")).toBeTruthy();
    expect(within(preview).getByText("DRAIN10")).toBeTruthy();
    expect(within(preview).getByText(/Dec 1, 2026 – Dec 15, 2026/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Schedule" }).getAttribute("href")).toBe("/tools/gmb-post-scheduler?content=gmb-1");
  });

  it("saves an edit of the text with PATCH, counting characters against 1,500", async () => {
    const patches: unknown[] = [];
    stub((url, init) => {
      if (url.endsWith("/api/content/gmb-post") && init.method === "POST") return json({ item: item("gmb-post", post) }, 201);
      if (url.endsWith("/api/content/c1") && init.method === "PATCH") {
        patches.push(JSON.parse(String(init.body)));
        return json({ item: item("gmb-post", { ...post, summary: "Edited text." }) });
      }
      return undefined;
    });
    renderApp("/tools/gmb-post-generator", signedIn());
    await screen.findAllByText("Lakeside Plumbing");
    fireEvent.click(screen.getByRole("button", { name: "Generate GMB Post" }));
    await screen.findByRole("article", { name: "Google listing preview" });
    expect(screen.getByText("39 / 1,500")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Edit" }));
    fireEvent.change(screen.getByLabelText("Post text"), { target: { value: "Edited text." } });
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText("Edited text.")).toBeTruthy();
    expect(patches).toEqual([{ result: { ...post, summary: "Edited text." } }]);
  });
});

describe("Social Post Generator", () => {
  it("shows a preview per network with its limit, and each copy button confirms for 2 seconds", async () => {
    const result: SocialPostsResult = {
      posts: [
        { network: "instagram", content: "Fresh pipes for winter.", hashtags: ["#plumbing", "#madison"] },
        { network: "x", content: "Winter pipe check, booking now.", hashtags: ["#plumbing"] },
      ],
    };
    stub((url, init) => (url.endsWith("/api/content/social-posts") && init.method === "POST" ? json({ item: item("social-posts", result) }, 201) : undefined));
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    renderApp("/tools/social-post-generator?idea=Winter%20pipes&network=x", signedIn());
    await screen.findAllByText("Lakeside Plumbing");
    expect((screen.getByLabelText("Your idea") as HTMLTextAreaElement).value).toBe("Winter pipes");
    expect((screen.getByLabelText("X") as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText("Facebook") as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Generate Posts" }));
    const x = await screen.findByRole("article", { name: "X post" });
    expect(within(x).getByText(/up to 280 characters and 3 hashtags/)).toBeTruthy();
    expect(within(x).getByText("42 / 280")).toBeTruthy();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fireEvent.click(within(x).getByRole("button", { name: "Copy X" }));
      await waitFor(() => expect(within(x).getByRole("button", { name: "Copied" })).toBeTruthy());
      expect(writeText).toHaveBeenCalledWith("Winter pipe check, booking now.\n\n#plumbing");
      await act(async () => {
        vi.advanceTimersByTime(2100);
      });
      expect(within(x).getByRole("button", { name: "Copy X" })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("Video Script Generator", () => {
  it("estimates the spoken length and opens the teleprompter with an adjustable speed", async () => {
    const script: VideoScript = templateVideoScript(BUSINESS, VideoScriptRequest.parse({ seconds: 30, topic: "Frozen pipes" }));
    stub((url, init) => (url.endsWith("/api/content/video-script") && init.method === "POST" ? json({ item: item("video-script", script) }, 201) : undefined));
    renderApp("/tools/video-script-generator", signedIn());
    await screen.findAllByText("Lakeside Plumbing");
    fireEvent.click(screen.getByRole("button", { name: "Generate Script" }));
    expect(await screen.findByText(/About \d+ s spoken · 30 s video/)).toBeTruthy();
    expect(screen.getByText("Hook · first 3 s")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Teleprompter" }));
    const dialog = screen.getByRole("dialog");
    expect(within(dialog).getByText(script.hook.said)).toBeTruthy();
    const speed = within(dialog).getByLabelText("Speed") as HTMLInputElement;
    fireEvent.change(speed, { target: { value: "90" } });
    expect(speed.value).toBe("90");
    fireEvent.click(within(dialog).getByRole("button", { name: "Play" }));
    expect(within(dialog).getByRole("button", { name: "Pause" })).toBeTruthy();
    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});

describe("Social Plan", () => {
  const plan: SocialPlan = templatePlan(BUSINESS, SocialPlanRequest.parse({ month: "2026-12", networks: ["facebook", "google-business"], postsPerWeek: 2 }), new Date("2026-11-23T00:00:00Z"));

  it("shows the month, saves a move made with the keyboard's button, and imports CSV keeping valid rows", async () => {
    const patches: SocialPlan[] = [];
    stub((url, init) => {
      if (url.endsWith("/api/content/social-plan") && init.method === "POST") return json({ item: item("social-plan", plan) }, 201);
      if (url.endsWith("/api/content/c1") && init.method === "PATCH") {
        const next = (JSON.parse(String(init.body)) as { result: SocialPlan }).result;
        patches.push(next);
        return json({ item: item("social-plan", next) });
      }
      return undefined;
    });
    const { container } = renderApp("/tools/social-plan", signedIn());
    await screen.findAllByText("Lakeside Plumbing");
    fireEvent.click(screen.getByRole("button", { name: "Generate Plan" }));
    await screen.findByRole("table");
    const first = plan.days[0]!;
    expect(first.date).toBe("2026-12-01");
    expect(container.querySelectorAll(".plan-post")).toHaveLength(plan.days.length);
    // The first post opens in the generator for its network.
    expect(screen.getAllByRole("link", { name: /post in the generator/ })[0]!.getAttribute("href")).toMatch(/^\/tools\/social-post-generator\?idea=/);

    fireEvent.click(screen.getByRole("button", { name: "Move Dec 1, 2026 post a day later" }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]!.days.find((d) => d.id === first.id)!.date).toBe("2026-12-02");
    await waitFor(() => expect(container.querySelector('td[data-date="2026-12-02"] .plan-post')).toBeTruthy());

    const csv = "date,network,idea\n2026-12-20,Google Business,Holiday hours\n2026-12-40,Facebook,Bad date\n";
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File([csv], "plan.csv", { type: "text/csv" })] } });
    expect(await screen.findByText("1 post imported")).toBeTruthy();
    expect(screen.getByText('Row 3: "2026-12-40" is not a date like 2026-12-01')).toBeTruthy();
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(patches[1]!.days.filter((d) => d.date === "2026-12-20").map((d) => d.idea)).toEqual(["Holiday hours"]);

    fireEvent.click(screen.getByRole("tab", { name: "List" }));
    expect(container.querySelector(".plan-list")).toBeTruthy();
  });
});
