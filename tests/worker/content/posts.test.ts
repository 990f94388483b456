// The Facebook Post Generator on the server: the real openai SDK against the fake (ok, missing fields, 500, slow,
// malformed), template mode without a key, its two requirements, the kept posts, usage events and the budget.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../../worker/app";
import { buildPostPrompt, PostRequest, PROFILE_REQUIRED_MESSAGE, LOGIN_REQUIRED_MESSAGE } from "../../../worker/features/content/rules/facebook-post";
import { costFor, estimateTokens } from "../../../worker/domain/usage-cost";
import type { Env, UsageEventMessage } from "../../../worker/platform/env";
import { TEMPLATE_NOTICE } from "../../../worker/features/content/posts-generate";
import { userCapKey } from "../../../worker/domain/metering";
import { api, signUp, signUpAdmin } from "../helpers";
import { recorder } from "../reports/reports-fixtures";

const PROFILE = {
  company_name: "Ridge Roofing",
  company_location: "Austin, TX",
  company_category: "Roofing",
  company_description: "Family-owned roofers since 1998.",
};

async function userWithProfile() {
  const made = await signUp();
  await api("/api/profile", { method: "PUT", token: made.session.access_token, body: JSON.stringify(PROFILE) });
  return made;
}

/** What the AI fake has received so far (it records every request; GET /__requests lists them). */
async function fakeRequests(): Promise<{ body: unknown }[]> {
  const res = await fetch(`${env.AI_BASE_URL!.replace(/\/v1$/, "")}/__requests`);
  return ((await res.json()) as { requests: { body: unknown }[] }).requests;
}

/** Calls the app with AI configured against the fake, recording usage events. */
async function generate(token: string, body: object, overrides: Partial<Env> = {}) {
  const usage = recorder<UsageEventMessage>();
  const e: Env = { ...env, AI_API_KEY: "test", USAGE_EVENTS: usage.queue, ...overrides };
  const res = await app.request(
    "/api/posts/facebook",
    { method: "POST", body: JSON.stringify(body), headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" } },
    e,
  );
  return { status: res.status, body: (await res.json()) as any, usage: usage.sent };
}

describe("POST /api/posts/facebook with AI", () => {
  it("sends the spec's prompt and settings, keeps the post and logs the provider's tokens", async () => {
    const { session, user } = await userWithProfile();
    const res = await generate(session.access_token, { description: "Spring roof check-up offer", tone: "casual", length: "short" });
    expect(res.status).toBe(201);
    expect(res.body.notice).toBeNull();
    expect(res.body.post).toMatchObject({
      source: "ai",
      title: "Ridge Roofing: local services done right",
      postType: "promotional",
      tone: "casual",
      length: "short",
      tags: ["#RidgeRoofing", "#localservices", "#AustinTX"],
    });
    expect(res.body.post.content).toContain("Ridge Roofing");
    expect(res.body.post.imagePrompt).toBe("local services, local services Austin, TX, local services near me");
    expect(res.body.post.image).toBe(`https://placehold.co/600x400?text=${encodeURIComponent(res.body.post.imagePrompt)}`);

    const list = await api("/api/posts", { token: session.access_token });
    expect(list.body.posts.map((p: { id: string }) => p.id)).toEqual([res.body.post.id]);

    expect(res.usage).toHaveLength(1);
    const event = res.usage[0]!;
    const prompt = buildPostPrompt(
      { ...PROFILE, company_logo_url: null },
      PostRequest.parse({ description: "Spring roof check-up offer", tone: "casual", length: "short" }),
    );
    expect(event).toMatchObject({ user_id: user.id, tool_name: "Facebook Post Generator", model: env.AI_MODEL_POST, tokens_estimated: false });
    // The fake's provider counts: the prompt estimate plus 4 per message and 3 of framing.
    expect(event.input_tokens).toBe(estimateTokens(prompt) + 4 + 3);
    expect(event.estimated_cost).toBe(costFor(event.model, event.input_tokens, event.output_tokens));
    expect(JSON.parse(event.request_data!).settings).toMatchObject({ tone: "casual", length: "short", includeHashtags: true });
    expect(JSON.parse(event.response_data!).result).toEqual({
      title: res.body.post.title,
      contentLength: res.body.post.content.length,
      tagsCount: 3,
    });
  });

  it("asks the model for a JSON object with max_tokens 800 and temperature 0.7, carrying every option", async () => {
    const { session } = await userWithProfile();
    // The fake AI serves every file running at once: this test's request is the one carrying its own mark.
    const mark = `storm damage ${crypto.randomUUID().slice(0, 8)}`;
    await generate(session.access_token, { description: `[fake:ok] ${mark}`, postType: "event", includeEmoji: false, specialInstructions: "Mention free inspections" });
    const request = (await fakeRequests()).find((r) => JSON.stringify(r.body).includes(mark))!.body as any;
    expect(request).toMatchObject({ max_tokens: 800, temperature: 0.7, response_format: { type: "json_object" }, model: env.AI_MODEL_POST });
    const prompt: string = request.messages[0].content;
    for (const part of ["Business category: Roofing", "Business name: Ridge Roofing", "Location: Austin, TX", "Post type: Event", "Emoji: no emoji", "Mention free inspections", "title, content, tags and keywords"]) {
      expect(prompt).toContain(part);
    }
  });

  it("fills fields the model left out with the spec's defaults", async () => {
    const { session } = await userWithProfile();
    const res = await generate(session.access_token, { description: "[fake:missing-fields]" });
    expect(res.status).toBe(201);
    expect(res.body.post).toMatchObject({ title: "New Post", tags: [], imagePrompt: "business, local, Roofing" });
    expect(res.body.post.content).toContain("Ridge Roofing");
  });

  it("answers a 500 from the AI with 502 'API Error: …', keeps nothing and logs a failed use", async () => {
    const { session } = await userWithProfile();
    const res = await generate(session.access_token, { description: "[fake:500]" });
    expect(res.status).toBe(502);
    expect(res.body.error).toEqual({ code: "ai_error", message: "API Error: The AI service answered with an error (500)", requestId: expect.any(String) });
    expect(res.usage.map((u) => u.tool_name)).toEqual(["Facebook Post Generator (Failed)"]);
    expect((await api("/api/posts", { token: session.access_token })).body.posts).toEqual([]);
  });

  it("answers malformed JSON with 'Invalid response format from API'", async () => {
    const { session } = await userWithProfile();
    const res = await generate(session.access_token, { description: "[fake:malformed]" });
    expect(res.status).toBe(502);
    expect(res.body.error.message).toBe("Invalid response format from API");
    expect(res.usage[0]!.tool_name).toBe("Facebook Post Generator (Failed)");
  });

  it("answers a slow AI with 504 'Request timed out' so the client can retry", async () => {
    const { session } = await userWithProfile();
    const res = await generate(session.access_token, { description: "[fake:slow]" });
    expect(res.status).toBe(504);
    expect(res.body.error).toEqual({ code: "ai_timeout", message: "Request timed out", requestId: expect.any(String) });
  });

  it("records estimated tokens, and says so, when the provider sends no usage", async () => {
    const { session } = await userWithProfile();
    const res = await generate(session.access_token, { description: "[fake:no-usage]" });
    expect(res.status).toBe(201);
    expect(res.usage[0]).toMatchObject({ tokens_estimated: true, output_tokens: expect.any(Number) });
  });
});

describe("POST /api/posts/facebook requirements and template mode", () => {
  it("without AI_API_KEY writes the post from a template and says so", async () => {
    const { session } = await userWithProfile();
    const res = await api("/api/posts/facebook", {
      method: "POST",
      token: session.access_token,
      body: JSON.stringify({ postType: "educational", length: "long", tone: "informative" }),
    });
    expect(res.status).toBe(201);
    expect(res.body.notice).toBe(TEMPLATE_NOTICE);
    expect(res.body.post).toMatchObject({ source: "template", postType: "educational", title: "A quick roofing tip from Ridge Roofing" });
    const words = res.body.post.content.split(/\s+/).filter(Boolean).length;
    expect(words).toBeGreaterThanOrEqual(150);
    expect(words).toBeLessThanOrEqual(250);
    expect(res.body.post.content).toContain("Austin");
  });

  it("needs a business profile first (400 with the spec's message)", async () => {
    const { session } = await signUp();
    const res = await api("/api/posts/facebook", { method: "POST", token: session.access_token, body: "{}" });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: "profile_required", message: PROFILE_REQUIRED_MESSAGE, requestId: expect.any(String) });
  });

  it("needs a signed-in user (401 with the spec's message)", async () => {
    const res = await api("/api/posts/facebook", { method: "POST", body: "{}" });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe(LOGIN_REQUIRED_MESSAGE);
  });

  it("refuses unknown options with 400", async () => {
    const { session } = await userWithProfile();
    const res = await api("/api/posts/facebook", { method: "POST", token: session.access_token, body: JSON.stringify({ tone: "angry" }) });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.tone).toBeTruthy();
  });
});

describe("kept posts", () => {
  it("saves an edit, deletes a post, and never touches another user's", async () => {
    const owner = await userWithProfile();
    const other = await userWithProfile();
    const made = await api("/api/posts/facebook", { method: "POST", token: owner.session.access_token, body: "{}" });
    const id = made.body.post.id;

    const foreign = await api(`/api/posts/${id}`, { method: "PATCH", token: other.session.access_token, body: JSON.stringify({ content: "mine now" }) });
    expect(foreign.status).toBe(404);
    expect((await api(`/api/posts/${id}`, { method: "DELETE", token: other.session.access_token })).status).toBe(404);

    const edited = await api(`/api/posts/${id}`, { method: "PATCH", token: owner.session.access_token, body: JSON.stringify({ content: "Edited text" }) });
    expect(edited.body.post.content).toBe("Edited text");
    expect((await api(`/api/posts/${id}`, { method: "PATCH", token: owner.session.access_token, body: JSON.stringify({ content: " " }) })).status).toBe(400);

    expect((await api(`/api/posts/${id}`, { method: "DELETE", token: owner.session.access_token })).status).toBe(204);
    expect((await api("/api/posts", { token: owner.session.access_token })).body.posts).toEqual([]);
  });

  it("lets an admin viewing as a user read their posts but not generate or delete", async () => {
    const user = await userWithProfile();
    const admin = await signUpAdmin();
    const made = await api("/api/posts/facebook", { method: "POST", token: user.session.access_token, body: "{}" });
    const list = await api("/api/posts", { token: admin.session.access_token, viewAs: user.user.id });
    expect(list.body.posts.map((p: { id: string }) => p.id)).toEqual([made.body.post.id]);
    const generateAs = await api("/api/posts/facebook", { method: "POST", token: admin.session.access_token, viewAs: user.user.id, body: "{}" });
    expect(generateAs.status).toBe(403);
    const deleteAs = await api(`/api/posts/${made.body.post.id}`, { method: "DELETE", token: admin.session.access_token, viewAs: user.user.id });
    expect(deleteAs.status).toBe(403);
  });
});

describe("the monthly AI budget", () => {
  it("past the budget answers with template content and the budget message, without calling the AI", async () => {
    const { session, user } = await userWithProfile();
    const admin = await signUpAdmin();
    const set = await api(`/api/admin/users/${user.id}/budget`, { method: "PUT", token: admin.session.access_token, body: JSON.stringify({ monthly_usd: 0.01 }) });
    expect(set.status).toBe(200);
    // This month's meter already holds $0.01 of settled spend.
    await env.DB.prepare("insert into meter_counters (key, settled_micro, expires_at) values (?, 10000, '2999-01-01')")
      .bind(userCapKey(user.id, new Date()))
      .run();

    const res = await generate(session.access_token, { description: "[fake:500] would fail if called" });
    expect(res.status).toBe(201);
    expect(res.body.post.source).toBe("template");
    expect(res.body.notice).toMatch(/^You have used your monthly AI budget of \$0\.01\. AI features are paused until .+ This post was written from a template\.$/);
    expect(res.usage).toEqual([]);

    // A raised budget lets the AI answer again.
    await api(`/api/admin/users/${user.id}/budget`, { method: "PUT", token: admin.session.access_token, body: JSON.stringify({ monthly_usd: 5 }) });
    const after = await generate(session.access_token, { description: "roof" });
    expect(after.body.post.source).toBe("ai");
  });
});
