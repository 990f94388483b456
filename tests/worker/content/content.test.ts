// The content suite on the server (issue 20): each generator through the shared engine with the real openai SDK
// against the fake (ok, invalid JSON, too long, time-out, no key, allowance spent), the one history, one item, edits,
// deletes, the profile requirement, and the social plan's calendar subscription.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../../worker/app";
import { TEMPLATE_NOTICE, TIMEOUT_NOTICE, UNUSABLE_NOTICE, type ContentTool } from "../../../worker/features/content/rules/content";
import { NETWORK_CHAR_LIMITS, postText } from "../../../worker/features/content/rules/length";
import { scriptSeconds } from "../../../worker/features/content/rules/video-script";
import type { Env, UsageEventMessage } from "../../../worker/platform/env";
import { api, signUp, signUpAdmin } from "../helpers";
import { recorder } from "../reports/reports-fixtures";

const PROFILE = { company_name: "Ridge Roofing", company_location: "Austin, TX", company_category: "Roofing", company_description: "Family-owned roofers." };

async function userWithProfile() {
  const made = await signUp();
  await api("/api/profile", { method: "PUT", token: made.session.access_token, body: JSON.stringify(PROFILE) });
  return made;
}

async function aiCalls(marker: string): Promise<number> {
  const res = await fetch(`${env.AI_BASE_URL!.replace(/\/v1$/, "")}/__requests`);
  const { requests } = (await res.json()) as { requests: { body: unknown }[] };
  return requests.filter((r) => JSON.stringify(r.body).includes(marker)).length;
}

async function generate(token: string, tool: string, body: object, overrides: Partial<Env> = {}) {
  const usage = recorder<UsageEventMessage>();
  const e: Env = { ...env, AI_API_KEY: "test", USAGE_EVENTS: usage.queue, ...overrides };
  const res = await app.request(
    `/api/content/${tool}`,
    { method: "POST", body: JSON.stringify(body), headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" } },
    e,
  );
  return { status: res.status, body: (await res.json()) as any, usage: usage.sent };
}

/** Each tool, with the body field that carries the fake's scenario marker. */
const TOOLS: { tool: ContentTool; name: string; body: (marker: string) => object; check: (result: any) => void }[] = [
  {
    tool: "gmb-post",
    name: "GMB Post Generator",
    body: (m) => ({ postType: "OFFER", topic: `${m} winter gutter deal`, couponCode: "SNOW10", startDate: "2026-12-01", ctaType: "BOOK", ctaUrl: "https://ridge.example/book" }),
    check: (post) => {
      expect(post.type).toBe("OFFER");
      expect(post.summary.length).toBeLessThanOrEqual(1500);
      expect(post.offer).toMatchObject({ couponCode: "SNOW10", startDate: "2026-12-01", endDate: "2026-12-15" });
      expect(post.callToAction).toEqual({ actionType: "BOOK", url: "https://ridge.example/book" });
    },
  },
  {
    tool: "social-posts",
    name: "Social Post Generator",
    body: (m) => ({ idea: `${m} storm season checklist`, networks: ["x", "instagram", "linkedin", "google-business"] }),
    check: (result) => {
      expect(result.posts.map((p: any) => p.network)).toEqual(["instagram", "linkedin", "x", "google-business"]);
      for (const p of result.posts) expect([...postText(p.content, p.hashtags)].length).toBeLessThanOrEqual(NETWORK_CHAR_LIMITS[p.network as keyof typeof NETWORK_CHAR_LIMITS]);
      expect(result.posts.find((p: any) => p.network === "instagram").hashtags.length).toBeLessThanOrEqual(30);
    },
  },
  {
    tool: "video-script",
    name: "Video Script Generator",
    body: (m) => ({ topic: `${m} spotting hail damage`, seconds: 30 }),
    check: (script) => {
      expect(script.seconds).toBe(30);
      expect(script.hook.said).toBeTruthy();
      expect(script.scenes.length).toBeGreaterThan(0);
      expect(scriptSeconds(script)).toBeLessThanOrEqual(33);
      expect(script.caption.length).toBeLessThanOrEqual(2200);
    },
  },
  {
    tool: "social-plan",
    name: "Social Plan",
    body: (m) => ({ month: "2026-12", networks: ["facebook", "google-business"], postsPerWeek: 3, focus: `${m} winter prep` }),
    check: (plan) => {
      expect(plan.month).toBe("2026-12");
      expect(plan.days).toHaveLength(13);
      expect(plan.days.every((d: any) => d.date.startsWith("2026-12-") && d.idea.length <= 280)).toBe(true);
      expect(plan.themes.length).toBeGreaterThanOrEqual(4);
    },
  },
];

describe.each(TOOLS)("POST /api/content/$tool", ({ tool, name, body, check }) => {
  /** A new profiled user generates with the fake AI told `fake` (malformed, slow …): a 201 whose result has the tool's shape, and how often the AI was asked. */
  async function generateWhen(fake: string, overrides: Partial<Env> = {}) {
    const { session } = await userWithProfile();
    const id = crypto.randomUUID().slice(0, 8);
    const res = await generate(session.access_token, tool, body(`[fake:${fake}] ${id}`), overrides);
    expect(res.status).toBe(201);
    check(res.body.item.result);
    return { res, calls: await aiCalls(id) };
  }

  it("ok: the model's answer, kept in the history, logged under the tool's name", async () => {
    const { session, user } = await userWithProfile();
    const marker = `[fake:ok] ${crypto.randomUUID().slice(0, 8)}`;
    const res = await generate(session.access_token, tool, body(marker));
    expect(res.status).toBe(201);
    expect(res.body.item).toMatchObject({ tool, source: "ai", notice: null, notes: [] });
    check(res.body.item.result);
    expect(res.usage.map((u) => u.tool_name)).toEqual([name]);
    expect(res.usage[0]).toMatchObject({ user_id: user.id, model: env.AI_MODEL_POST });
    expect(await aiCalls(marker.slice(10))).toBe(1);

    const list = await api(`/api/content?tool=${tool}`, { token: session.access_token });
    expect(list.body.items.map((i: any) => i.id)).toEqual([res.body.item.id]);
    const one = await api(`/api/content/${res.body.item.id}`, { token: session.access_token });
    expect(one.body.item).toEqual(res.body.item);
  });

  it("invalid JSON twice: asked once more, then a template that says so", async () => {
    const { res, calls } = await generateWhen("malformed");
    expect(res.body.item).toMatchObject({ source: "template", notice: UNUSABLE_NOTICE });
    expect(calls).toBe(2);
    expect(res.usage.map((u) => u.tool_name)).toEqual([`${name} (Failed)`, `${name} (Failed)`]);
  });

  it("too long: held to the limits after generation, and says what was shortened", async () => {
    const { session } = await userWithProfile();
    const res = await generate(session.access_token, tool, body(`[fake:too-long] ${crypto.randomUUID().slice(0, 8)}`));
    expect(res.status).toBe(201);
    expect(res.body.item.source).toBe("ai");
    check(res.body.item.result);
    expect(res.body.item.notes.join(" ")).toMatch(/[Ss]hortened/);
  });

  it("time-out: a template at once (no second wait), the failure logged", async () => {
    const { res, calls } = await generateWhen("slow", { AI_TIMEOUT_MS: "300" });
    expect(res.body.item).toMatchObject({ source: "template", notice: TIMEOUT_NOTICE });
    expect(calls).toBe(1);
    expect(res.usage.map((u) => u.tool_name)).toEqual([`${name} (Failed)`]);
  });

  it("no key: a template by trade, and the notice", async () => {
    const { res, calls } = await generateWhen("ok", { AI_API_KEY: "" });
    expect(res.body.item).toMatchObject({ source: "template", notice: TEMPLATE_NOTICE });
    expect(JSON.stringify(res.body.item.result)).toMatch(/Ridge Roofing|roof|Roofing|Austin/);
    expect(calls).toBe(0);
    expect(res.usage).toEqual([]);
  });

  it("allowance spent: a template with the allowance message, and no AI call", async () => {
    const { session, user } = await userWithProfile();
    const admin = await signUpAdmin();
    await api(`/api/admin/users/${user.id}/budget`, { method: "PUT", token: admin.session.access_token, body: JSON.stringify({ monthly_usd: 0 }) });
    const id = crypto.randomUUID().slice(0, 8);
    const res = await generate(session.access_token, tool, body(`[fake:ok] ${id}`));
    expect(res.status).toBe(201);
    expect(res.body.item.source).toBe("template");
    expect(res.body.item.notice).toMatch(/monthly AI budget .* This was written from a template\.$/);
    expect(await aiCalls(id)).toBe(0);
  });
});

describe("the content history", () => {
  it("needs a business profile and a valid request", async () => {
    const { session } = await signUp();
    const none = await generate(session.access_token, "gmb-post", {});
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe("profile_required");
    const { session: s2 } = await userWithProfile();
    const bad = await generate(s2.access_token, "social-posts", { networks: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.networks).toEqual(["Pick at least one network"]);
    const unknown = await generate(s2.access_token, "blog-post", {});
    expect(unknown.status).toBe(400);
  });

  it("keeps items to their owner: another user gets 404, an admin viewing as may read but not edit", async () => {
    const { session, user } = await userWithProfile();
    const other = await userWithProfile();
    const admin = await signUpAdmin();
    const made = await generate(session.access_token, "gmb-post", {}, { AI_API_KEY: "" });
    const id = made.body.item.id;
    expect((await api(`/api/content/${id}`, { token: other.session.access_token })).status).toBe(404);
    expect((await api(`/api/content?tool=gmb-post`, { token: other.session.access_token })).body.items).toEqual([]);
    expect((await api(`/api/content/${id}`, { token: admin.session.access_token, viewAs: user.id })).status).toBe(200);
    const edit = { result: { ...made.body.item.result, summary: "Edited by the admin" } };
    expect((await api(`/api/content/${id}`, { method: "PATCH", token: admin.session.access_token, viewAs: user.id, body: JSON.stringify(edit) })).status).toBe(403);
    expect((await api(`/api/content/${id}`, { method: "PATCH", token: other.session.access_token, body: JSON.stringify(edit) })).status).toBe(404);
  });

  it("saves an edit checked against the tool's shape, and deletes", async () => {
    const { session } = await userWithProfile();
    const made = await generate(session.access_token, "gmb-post", { postType: "EVENT", title: "Open house" }, { AI_API_KEY: "" });
    const id = made.body.item.id;
    const ok = await api(`/api/content/${id}`, { method: "PATCH", token: session.access_token, body: JSON.stringify({ result: { ...made.body.item.result, summary: "Come see us Saturday." } }) });
    expect(ok.status).toBe(200);
    expect(ok.body.item.result.summary).toBe("Come see us Saturday.");
    const tooLong = await api(`/api/content/${id}`, { method: "PATCH", token: session.access_token, body: JSON.stringify({ result: { ...made.body.item.result, summary: "x".repeat(1501) } }) });
    expect(tooLong.status).toBe(400);
    expect((await api(`/api/content/${id}`, { method: "DELETE", token: session.access_token })).status).toBe(204);
    expect((await api(`/api/content/${id}`, { token: session.access_token })).status).toBe(404);
  });
});

describe("the social plan's calendar subscription", () => {
  it("serves the plan as text/calendar at an unguessable URL; a new URL retires the old one", async () => {
    const { session } = await userWithProfile();
    const plan = await generate(session.access_token, "social-plan", { month: "2026-12", postsPerWeek: 2 }, { AI_API_KEY: "" });
    const id = plan.body.item.id;
    const link = await api(`/api/content/${id}/calendar`, { method: "POST", token: session.access_token });
    expect(link.status).toBe(200);
    const url = new URL(link.body.url);
    expect(url.pathname).toMatch(/^\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);

    const feed = await api(url.pathname);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(String(feed.body).match(/BEGIN:VEVENT/g)).toHaveLength(plan.body.item.result.days.length);

    // A moved day shows in the feed.
    const days = plan.body.item.result.days.map((d: any, i: number) => (i === 0 ? { ...d, date: "2026-12-31" } : d));
    await api(`/api/content/${id}`, { method: "PATCH", token: session.access_token, body: JSON.stringify({ result: { ...plan.body.item.result, days } }) });
    expect(String((await api(url.pathname)).body)).toContain("DTSTART;VALUE=DATE:20261231");

    const again = await api(`/api/content/${id}/calendar`, { method: "POST", token: session.access_token });
    expect((await api(url.pathname)).status).toBe(404);
    expect((await api(new URL(again.body.url).pathname)).status).toBe(200);
    expect((await api("/api/calendar/not-a-token.ics")).status).toBe(404);
  });

  it("gives a calendar only for a social plan", async () => {
    const { session } = await userWithProfile();
    const post = await generate(session.access_token, "gmb-post", {}, { AI_API_KEY: "" });
    expect((await api(`/api/content/${post.body.item.id}/calendar`, { method: "POST", token: session.access_token })).status).toBe(404);
  });
});
