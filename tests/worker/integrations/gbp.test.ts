// Google Business Profile: connecting through the fake Google (state, PKCE, refresh, revoke, Google's "API not enabled"),
// the scheduler's API, and publishing through the real gbp-posts consumer (once, retried on 5xx, rejected, reconnect).
import { createExecutionContext, createScheduledController, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../../worker/index";
import type { Env, GbpPostsMessage } from "../../../worker/platform/env";
import { openSecret } from "../../../worker/platform/crypto/secret-box";
import { GOOGLE_ERROR_MESSAGES } from "../../../worker/features/content/rules/gbp-schedule";
import { RECONNECT_REASON, REJECTED_AFTER_REVIEW } from "../../../worker/features/content/gbp-publish";
import { api, callWorker, signUp, signUpAdmin } from "../helpers";
import { deliver } from "../reports/reports-fixtures";

const GOOGLE = env.TEST_GOOGLE_BASE_URL;
const AUSTIN = "accounts/1001/locations/2001";

type FakePost = { name: string; summary: string; state: string; topicType: string; body: Record<string, unknown> };
type FakeRequest = { method: string; path: string; status: number; grantType?: string; code?: string };

async function fakePosts(summary: string): Promise<FakePost[]> {
  const { posts } = (await (await fetch(`${GOOGLE}/__posts`)).json()) as { posts: FakePost[] };
  return posts.filter((p) => p.summary === summary);
}

async function fakeRequests(): Promise<FakeRequest[]> {
  return ((await (await fetch(`${GOOGLE}/__requests`)).json()) as { requests: FakeRequest[] }).requests;
}

/** A gbp-posts binding that records each message and its delay. */
function gbpQueue() {
  const sent: { body: GbpPostsMessage; delaySeconds?: number }[] = [];
  const queue = {
    async send(body: GbpPostsMessage, options?: QueueSendOptions) {
      sent.push({ body, delaySeconds: options?.delaySeconds });
    },
    async sendBatch(messages: Iterable<MessageSendRequest<GbpPostsMessage>>) {
      for (const m of messages) sent.push({ body: m.body, delaySeconds: m.delaySeconds });
    },
  } as unknown as Queue<GbpPostsMessage>;
  return { sent, env: { ...env, GBP_POSTS: queue } as Env };
}

/** The browser cookie the start set (name=value), checked to be HttpOnly, SameSite=Lax and scoped to the callback. */
function startCookie(headers: Headers): string {
  const set = headers.get("Set-Cookie") ?? "";
  expect(set).toMatch(/^porchlight_google_connect=[A-Za-z0-9_-]{43};/);
  expect(set).toMatch(/;\s*HttpOnly/i);
  expect(set).toMatch(/;\s*SameSite=Lax/i);
  expect(set).toMatch(/;\s*Path=\/api\/integrations\/google\/callback/i);
  return set.split(";")[0]!;
}

/**
 * Goes through Google's consent page as `user` and back to the callback; returns where the app sent the browser. The
 * callback carries the cookie the start set (the same browser), unless `browser` says another one comes back.
 */
async function connectAs(
  token: string,
  user: "owner" | "api-disabled" | "not-approved" | "deny",
  tamper?: (state: string) => Promise<void>,
  browser: (cookie: string) => string | null = (cookie) => cookie,
) {
  const start = await api("/api/integrations/google/start", { token });
  expect(start.status).toBe(200);
  const cookie = browser(startCookie(start.headers));
  const authorize = new URL(start.body.authorizeUrl as string);
  expect(authorize.origin).toBe(GOOGLE);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("scope")).toBe("https://www.googleapis.com/auth/business.manage");
  const state = authorize.searchParams.get("state")!;
  expect(state.length).toBeGreaterThanOrEqual(32);
  const page = await (await fetch(authorize)).text();
  const href = new RegExp(`data-user="${user}" href="([^"]+)"`).exec(page)![1]!.replace(/&amp;/g, "&");
  const back = new URL(href);
  expect(back.pathname).toBe("/api/integrations/google/callback");
  await tamper?.(state);
  const res = await callWorker(back.pathname + back.search, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });
  expect(res.status).toBe(302);
  // Where the callback sent the browser, and the code Google handed back (none when the user cancelled).
  return Object.assign(new URL(res.headers.get("Location")!, "http://localhost"), { code: back.searchParams.get("code") ?? "" });
}

/**
 * How many times the worker presented one of `codes` to Google's token endpoint. Counted by code, not in total: other
 * files beside this one exchange and refresh tokens with the same fake.
 */
async function exchanges(...codes: string[]): Promise<number> {
  return (await fakeRequests()).filter((r) => r.path === "/token" && codes.includes(r.code ?? "")).length;
}

/** A signed-up user connected to the fake Google with the Austin location chosen. */
async function connectedUser() {
  const user = await signUp();
  const landed = await connectAs(user.session.access_token, "owner");
  expect(landed.searchParams.get("step")).toBe("locations");
  const chosen = await api("/api/integrations/google/locations", { method: "PUT", token: user.session.access_token, body: JSON.stringify({ locations: [AUSTIN] }) });
  expect(chosen.status).toBe(200);
  return user;
}

const unique = () => crypto.randomUUID().slice(0, 8);

async function schedule(token: string, summary: string, extra: Record<string, unknown> = {}) {
  const res = await api("/api/schedule", {
    method: "POST",
    token,
    body: JSON.stringify({ post: { type: "STANDARD", summary, callToAction: { actionType: "CALL" } }, scheduledAt: new Date().toISOString(), timezone: "America/Chicago", locationName: AUSTIN, ...extra }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.post as { id: string; state: string };
}

async function postRow(id: string) {
  return env.DB.prepare("select state, reason, attempts, google_post_name, next_attempt_at from scheduled_posts where id = ?")
    .bind(id)
    .first<{ state: string; reason: string | null; attempts: number; google_post_name: string | null; next_attempt_at: string | null }>();
}

async function connectionRow(userId: string) {
  return env.DB.prepare("select * from gbp_connections where user_id = ?").bind(userId).first<Record<string, string | null>>();
}

describe("connecting Google Business Profile", () => {
  it("state + PKCE at the fake Google, then the locations Google allows posting to, tokens sealed at rest", async () => {
    const user = await signUp();
    const token = user.session.access_token;
    expect((await api("/api/integrations", { token })).body.google).toMatchObject({ status: "not_connected", canConnect: true, locations: [] });

    const landed = await connectAs(token, "owner");
    expect(landed.pathname).toBe("/integrations");
    expect(landed.searchParams.get("step")).toBe("locations");
    const status = (await api("/api/integrations", { token })).body.google;
    expect(status.status).toBe("choosing");
    expect(status.available.map((l: { name: string; canOperateLocalPost: boolean }) => [l.name, l.canOperateLocalPost])).toEqual([
      [AUSTIN, true],
      ["accounts/1001/locations/2002", true],
      ["accounts/1001/locations/2003", false],
    ]);

    // A location Google does not allow posting to cannot be chosen.
    const refused = await api("/api/integrations/google/locations", { method: "PUT", token, body: JSON.stringify({ locations: ["accounts/1001/locations/2003"] }) });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("validation_failed");
    const chosen = await api("/api/integrations/google/locations", { method: "PUT", token, body: JSON.stringify({ locations: [AUSTIN] }) });
    expect(chosen.body.google).toMatchObject({ status: "connected", locations: [{ name: AUSTIN, title: "Ridge Roofing — Austin" }] });
    expect(chosen.body.google.lastSyncAt).toBeTruthy();

    const row = (await connectionRow(user.user.id))!;
    expect(row.refresh_token_ciphertext).toMatch(/^v1\./);
    expect(row.refresh_token_ciphertext).not.toContain("1//fake");
    expect(await openSecret(env as Env, "google-token", `${row.id}:refresh`, row.refresh_token_ciphertext!)).toMatch(/^1\/\/fake-/);
    // The state was used once: nothing left to replay.
    expect((await env.DB.prepare("select count(*) as n from oauth_states where user_id = ?").bind(user.user.id).first<{ n: number }>())!.n).toBe(0);
  });

  it("a state that is unknown, replayed or expired is refused before any code is exchanged", async () => {
    const user = await signUp();
    const token = user.session.access_token;
    const forged = await callWorker("/api/integrations/google/callback?code=4/whatever&state=not-ours", { redirect: "manual" });
    expect(forged.status).toBe(302);
    expect(forged.headers.get("Location")).toBe("/integrations?error=state_mismatch");

    const expired = await connectAs(token, "owner", async () => {
      await env.DB.prepare("update oauth_states set expires_at = '2000-01-01T00:00:00.000Z' where user_id = ?").bind(user.user.id).run();
    });
    expect(expired.searchParams.get("error")).toBe("state_mismatch");
    expect(expired.code).not.toBe("");
    expect(await exchanges("4/whatever", expired.code)).toBe(0);

    const cancelled = await connectAs(token, "deny");
    expect(cancelled.searchParams.get("error")).toBe("access_denied");
  });

  it("a consent link opened in another browser connects nobody: no cookie or another browser's cookie is refused, no code exchanged", async () => {
    // The attacker starts a connection on their own account and sends the consent link to a business owner.
    const attacker = await signUp();
    const noCookie = await connectAs(attacker.session.access_token, "owner", undefined, () => null);
    expect(noCookie.searchParams.get("error")).toBe("other_browser");
    // The owner's browser has a cookie of its own (from an earlier start of theirs): still not the starting browser.
    const otherBrowser = await connectAs(attacker.session.access_token, "owner", undefined, () => "porchlight_google_connect=QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVowMTIzNDU2Nzg");
    expect(otherBrowser.searchParams.get("error")).toBe("other_browser");
    expect(GOOGLE_ERROR_MESSAGES.other_browser).toContain("another browser");
    // Nothing reached Google's token endpoint and nothing was stored on the attacker's account; the states are spent.
    expect(await exchanges(noCookie.code, otherBrowser.code)).toBe(0);
    expect(await connectionRow(attacker.user.id)).toBeNull();
    expect((await env.DB.prepare("select count(*) as n from oauth_states where user_id = ?").bind(attacker.user.id).first<{ n: number }>())!.n).toBe(0);
    // The starting browser still connects.
    expect((await connectAs(attacker.session.access_token, "owner")).searchParams.get("step")).toBe("locations");
  });

  it("the fake Google checks the PKCE verifier: a different verifier gets invalid_grant and nothing is stored", async () => {
    const user = await signUp();
    const landed = await connectAs(user.session.access_token, "owner", async () => {
      await env.DB.prepare("update oauth_states set code_verifier = 'a-verifier-that-does-not-match-the-challenge-0123456789' where user_id = ?").bind(user.user.id).run();
    });
    expect(landed.searchParams.get("error")).toBe("refused");
    const tokenCalls = (await fakeRequests()).filter((r) => r.path === "/token" && r.code === landed.code);
    expect(tokenCalls.map((r) => [r.grantType, r.status])).toEqual([["authorization_code", 400]]);
    expect(await connectionRow(user.user.id)).toBeNull();
  });

  it("Google's 'API not enabled' and 'not approved' answers are kept and said in plain words", async () => {
    const user = await signUp();
    const token = user.session.access_token;
    const disabled = await connectAs(token, "api-disabled");
    expect(disabled.searchParams.get("error")).toBe("api_not_enabled");
    let status = (await api("/api/integrations", { token })).body.google;
    expect(status).toMatchObject({ status: "not_connected", error: { code: "api_not_enabled", message: GOOGLE_ERROR_MESSAGES.api_not_enabled } });
    // Customers' words (issue 26): what happened and whom to ask; the set-up steps are on the admin Set-up page.
    expect(status.error.message).toContain("Ask your agency");
    expect(status.error.message).not.toMatch(/Cloud Console|GOOGLE_OAUTH/);

    const notApproved = await connectAs(token, "not-approved");
    expect(notApproved.searchParams.get("error")).toBe("not_approved");
    status = (await api("/api/integrations", { token })).body.google;
    expect(status.error.code).toBe("not_approved");

    // Connecting properly clears the error.
    await connectAs(token, "owner");
    expect((await api("/api/integrations", { token })).body.google).toMatchObject({ status: "choosing", error: null });
  });

  it("deleting the account revokes the grant at Google too (issue 26); refresh with the old token fails", async () => {
    const user = await connectedUser();
    const row = (await connectionRow(user.user.id))!;
    const refreshToken = await openSecret(env as Env, "google-token", `${row.id}:refresh`, row.refresh_token_ciphertext!);
    const gone = await api("/api/account", { method: "DELETE", token: user.session.access_token, body: JSON.stringify({ password: user.password }) });
    expect(gone.status).toBe(204);
    expect(await connectionRow(user.user.id)).toBeNull();
    const refresh = await fetch(`${GOOGLE}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: env.GOOGLE_OAUTH_CLIENT_ID!, client_secret: env.GOOGLE_OAUTH_CLIENT_SECRET! }),
    });
    expect(refresh.status).toBe(400);
  });

  it("disconnect revokes the grant at Google, then forgets it; refresh with the old token fails", async () => {
    const user = await connectedUser();
    const token = user.session.access_token;
    const row = (await connectionRow(user.user.id))!;
    const refreshToken = await openSecret(env as Env, "google-token", `${row.id}:refresh`, row.refresh_token_ciphertext!);
    const gone = await api("/api/integrations/google", { method: "DELETE", token });
    expect(gone.status).toBe(200);
    expect(gone.body.google.status).toBe("not_connected");
    expect(await connectionRow(user.user.id)).toBeNull();
    expect((await fakeRequests()).filter((r) => r.path === "/revoke").at(-1)!.status).toBe(200);
    const refresh = await fetch(`${GOOGLE}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: env.GOOGLE_OAUTH_CLIENT_ID!, client_secret: env.GOOGLE_OAUTH_CLIENT_SECRET! }),
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toEqual({ error: "invalid_grant", error_description: "Token has been expired or revoked." });
    expect((await api("/api/integrations/google", { method: "DELETE", token })).status).toBe(404);
  });

  it("without GOOGLE_OAUTH_CLIENT_ID the page learns it is not set up and connecting answers 501", async () => {
    const user = await signUp();
    const off = { GOOGLE_OAUTH_CLIENT_ID: "" };
    const status = await callWorker("/api/integrations", { token: user.session.access_token }, off);
    expect(status.body.google).toMatchObject({ status: "not_configured", canConnect: false });
    const start = await callWorker("/api/integrations/google/start", { token: user.session.access_token }, off);
    expect(start.status).toBe(501);
    expect(start.body.error.code).toBe("not_configured");
    const list = await callWorker("/api/schedule", { token: user.session.access_token }, off);
    expect(list.body.publishing).toBe(false);
  });

  it("in production without ENCRYPTION_KEY connecting is refused in the customer's terms (set-up wording stays on admin screens)", async () => {
    const user = await signUp();
    const res = await callWorker("/api/integrations/google/start", { token: user.session.access_token }, { ENCRYPTION_KEY: "", ENVIRONMENT: "production" });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("server_misconfigured");
    expect(res.body.error.message).toBe("Connecting Google isn't available yet; your agency has been told.");
    expect(res.body.error.message).not.toMatch(/ENCRYPTION_KEY|wrangler|\.dev\.vars/);
  });

  it("needs a signed-in user; the callback is the only public route", async () => {
    expect((await api("/api/integrations")).status).toBe(401);
    expect((await api("/api/integrations/google/start")).status).toBe(401);
    expect((await api("/api/integrations/google", { method: "DELETE" })).status).toBe(401);
    expect((await api("/api/schedule")).status).toBe(401);
  });
});

describe("the scheduler's API", () => {
  it("validates the post, the time and the location, with the fields named", async () => {
    const user = await connectedUser();
    const token = user.session.access_token;
    const send = (body: unknown) => api("/api/schedule", { method: "POST", token, body: JSON.stringify(body) });
    const good = { post: { type: "STANDARD", summary: "Spring roof checks" }, scheduledAt: new Date(Date.now() + 86_400_000).toISOString(), timezone: "America/Chicago", locationName: AUSTIN };

    const tooLong = await send({ ...good, post: { type: "STANDARD", summary: "x".repeat(1501) } });
    expect(tooLong.status).toBe(400);
    expect(Object.keys(tooLong.body.error.fields)).toContain("post.summary");
    const offer = await send({ ...good, post: { type: "OFFER", summary: "10% off" } });
    expect(offer.body.error.fields["post.offer"]).toBeTruthy();
    const past = await send({ ...good, scheduledAt: "2020-01-01T10:00:00Z" });
    expect(past.status).toBe(400);
    expect(past.body.error.fields.scheduledAt[0]).toContain("passed");
    const zone = await send({ ...good, timezone: "Mars/Olympus" });
    expect(zone.body.error.fields.timezone).toBeTruthy();
    const notChosen = await send({ ...good, locationName: "accounts/1001/locations/2002" });
    expect(notChosen.status).toBe(400);
    expect(notChosen.body.error.fields.locationName).toBeTruthy();
    const notJson = await api("/api/schedule", { method: "POST", token, body: "x", headers: { "Content-Type": "text/plain" } });
    expect(notJson.status).toBe(415);

    const created = await send(good);
    expect(created.status).toBe(201);
    expect(created.body.post).toMatchObject({ state: "scheduled", locationTitle: "Ridge Roofing — Austin", timezone: "America/Chicago" });
  });

  it("each user sees and changes only their own posts; a post that left cannot be changed", async () => {
    const owner = await connectedUser();
    const other = await signUp();
    const post = await schedule(owner.session.access_token, `Gutter season ${unique()}`, { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });

    expect((await api("/api/schedule", { token: other.session.access_token })).body.posts).toEqual([]);
    expect((await api(`/api/schedule/${post.id}`, { method: "PATCH", token: other.session.access_token, body: JSON.stringify({ timezone: "UTC" }) })).status).toBe(404);
    expect((await api(`/api/schedule/${post.id}`, { method: "DELETE", token: other.session.access_token })).status).toBe(404);

    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const moved = await api(`/api/schedule/${post.id}`, { method: "PATCH", token: owner.session.access_token, body: JSON.stringify({ scheduledAt: later }) });
    expect(moved.status).toBe(200);
    expect(moved.body.post.scheduledAt).toBe(later);
    expect((await api(`/api/schedule/${post.id}`, { method: "PATCH", token: owner.session.access_token, body: JSON.stringify({}) })).status).toBe(400);

    await env.DB.prepare("update scheduled_posts set state = 'live' where id = ?").bind(post.id).run();
    const locked = await api(`/api/schedule/${post.id}`, { method: "PATCH", token: owner.session.access_token, body: JSON.stringify({ timezone: "UTC" }) });
    expect(locked.status).toBe(409);

    // An admin viewing as the owner reads, never writes.
    const admin = await signUpAdmin();
    const viewed = await api("/api/schedule", { token: admin.session.access_token, viewAs: owner.user.id });
    expect(viewed.body.posts.map((p: { id: string }) => p.id)).toEqual([post.id]);
    expect((await api(`/api/schedule/${post.id}`, { method: "DELETE", token: admin.session.access_token, viewAs: owner.user.id })).status).toBe(403);

    expect((await api(`/api/schedule/${post.id}`, { method: "DELETE", token: owner.session.access_token })).status).toBe(204);
    expect((await api(`/api/schedule/${post.id}`, { method: "DELETE", token: owner.session.access_token })).status).toBe(404);
  });
});

describe("publishing through gbp-posts", () => {
  it("the cron enqueues a due post; the consumer publishes it once, then follows Google's review to LIVE", async () => {
    const user = await connectedUser();
    const summary = `Free roof inspections this week ${unique()}`;
    const post = await schedule(user.session.access_token, summary);
    const q = gbpQueue();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), q.env, createExecutionContext());
    const message = q.sent.find((m) => m.body.postIds.includes(post.id));
    expect(message).toBeTruthy();

    // The same message delivered twice, and a second copy at once: Google gets one post.
    const [first, second] = await Promise.all([deliver("gbp-posts", [{ body: message!.body }], q.env), deliver("gbp-posts", [{ body: message!.body }], q.env)]);
    expect(first.result.explicitAcks).toEqual(first.ids);
    expect(second.result.explicitAcks).toEqual(second.ids);
    const published = await fakePosts(summary);
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ topicType: "STANDARD", state: "PROCESSING" });
    expect(published[0]!.body.callToAction).toEqual({ actionType: "CALL" });
    expect(published[0]!.name.startsWith(`${AUSTIN}/localPosts/`)).toBe(true);
    expect(await postRow(post.id)).toMatchObject({ state: "processing", attempts: 1, google_post_name: published[0]!.name });

    // A look at the review state a second later (GBP_RECONCILE_SECONDS) settles it.
    const look = q.sent.filter((m) => m.body.postIds.includes(post.id) && m.delaySeconds === 1);
    expect(look).toHaveLength(1);
    await deliver("gbp-posts", [{ body: look[0]!.body }], q.env);
    expect(await postRow(post.id)).toMatchObject({ state: "live", reason: null, attempts: 1 });
    // A late redelivery of the first message finds it published: nothing more reaches Google.
    const late = await deliver("gbp-posts", [{ body: message!.body, attempts: 2 }], q.env);
    expect(late.result.explicitAcks).toEqual(late.ids);
    const listed = await api("/api/schedule", { token: user.session.access_token });
    expect(listed.body.posts.find((p: { id: string }) => p.id === post.id)).toMatchObject({ state: "live", googlePostName: published[0]!.name });
    expect(listed.body.publishing).toBe(true);
    expect(await fakePosts(summary)).toHaveLength(1);
  });

  it("an offer goes out in Google's shape (title and dates in event, coupon and terms in offer)", async () => {
    const user = await connectedUser();
    const summary = `Spring gutter offer ${unique()}`;
    const post = await schedule(user.session.access_token, summary, {
      post: { type: "OFFER", summary, offer: { title: "20% off gutter cleaning", couponCode: "SPRING20", terms: "Austin only", startDate: "2026-12-01", endDate: "2026-12-31" }, callToAction: { actionType: "BOOK", url: "https://ridge.example/book" } },
    });
    const q = gbpQueue();
    await deliver("gbp-posts", [{ body: { postIds: [post.id] } }], q.env);
    const [sent] = await fakePosts(summary);
    expect(sent!.body).toMatchObject({
      topicType: "OFFER",
      event: { title: "20% off gutter cleaning", schedule: { startDate: { year: 2026, month: 12, day: 1 }, endDate: { year: 2026, month: 12, day: 31 } } },
      offer: { couponCode: "SPRING20", termsConditions: "Austin only" },
      callToAction: { actionType: "BOOK", url: "https://ridge.example/book" },
    });
  });

  it("a 5xx is retried with a delay, then published once", async () => {
    const user = await connectedUser();
    const summary = `Storm damage help [gbp:flaky] ${unique()}`;
    const post = await schedule(user.session.access_token, summary);
    const q = gbpQueue();
    const first = await deliver("gbp-posts", [{ body: { postIds: [post.id] } }], q.env);
    expect(first.result.explicitAcks).toEqual(first.ids);
    const waiting = (await postRow(post.id))!;
    expect(waiting).toMatchObject({ state: "scheduled", attempts: 1 });
    expect(waiting.reason).toContain("Google did not answer");
    expect(q.sent).toEqual([{ body: { postIds: [post.id] }, delaySeconds: 30 }]);
    expect(await fakePosts(summary)).toHaveLength(0);

    await deliver("gbp-posts", [{ body: q.sent[0]!.body }], q.env);
    expect(await postRow(post.id)).toMatchObject({ state: "processing", attempts: 2 });
    expect(await fakePosts(summary)).toHaveLength(1);
  });

  it("a post Google refuses is rejected with Google's reason; one rejected on review says so", async () => {
    const user = await connectedUser();
    const q = gbpQueue();
    const invalid = await schedule(user.session.access_token, `Call us today [gbp:invalid] ${unique()}`);
    await deliver("gbp-posts", [{ body: { postIds: [invalid.id] } }], q.env);
    expect(await postRow(invalid.id)).toMatchObject({ state: "rejected", reason: "Google refused the post: summary: Posts may not contain phone numbers in the text." });

    const reviewed = await schedule(user.session.access_token, `Best roofer in town [gbp:reject] ${unique()}`);
    await deliver("gbp-posts", [{ body: { postIds: [reviewed.id] } }], q.env);
    expect((await postRow(reviewed.id))!.state).toBe("processing");
    await deliver("gbp-posts", [{ body: { postIds: [reviewed.id] } }], q.env);
    expect(await postRow(reviewed.id)).toMatchObject({ state: "rejected", reason: REJECTED_AFTER_REVIEW });
    const listed = await api("/api/schedule", { token: user.session.access_token });
    expect(listed.body.posts.find((p: { id: string }) => p.id === reviewed.id).reason).toBe(REJECTED_AFTER_REVIEW);
  });

  it("an expired access token is refreshed before the call", async () => {
    const user = await connectedUser();
    await env.DB.prepare("update gbp_connections set access_expires_at = '2000-01-01T00:00:00.000Z' where user_id = ?").bind(user.user.id).run();
    const refreshesBefore = (await fakeRequests()).filter((r) => r.grantType === "refresh_token").length;
    const summary = `Fresh token post ${unique()}`;
    const post = await schedule(user.session.access_token, summary);
    await deliver("gbp-posts", [{ body: { postIds: [post.id] } }], gbpQueue().env);
    expect((await postRow(post.id))!.state).toBe("processing");
    const refreshes = (await fakeRequests()).filter((r) => r.grantType === "refresh_token");
    expect(refreshes.length).toBe(refreshesBefore + 1);
    expect(refreshes.at(-1)!.status).toBe(200);
    expect(Date.parse((await connectionRow(user.user.id))!.access_expires_at!)).toBeGreaterThan(Date.now());
  });

  it("a refused token marks the connection for reconnecting; the post waits, then becomes a reminder", async () => {
    const user = await connectedUser();
    const row = (await connectionRow(user.user.id))!;
    // The person removes the app's access in their Google account.
    const refreshToken = await openSecret(env as Env, "google-token", `${row.id}:refresh`, row.refresh_token_ciphertext!);
    expect((await fetch(`${GOOGLE}/revoke?token=${encodeURIComponent(refreshToken)}`, { method: "POST" })).status).toBe(200);

    const summary = `After revocation ${unique()}`;
    const post = await schedule(user.session.access_token, summary);
    const q = gbpQueue();
    await deliver("gbp-posts", [{ body: { postIds: [post.id] } }], q.env);
    expect(await postRow(post.id)).toMatchObject({ state: "scheduled", reason: RECONNECT_REASON });
    expect(await fakePosts(summary)).toHaveLength(0);
    const status = (await api("/api/integrations", { token: user.session.access_token })).body.google;
    expect(status).toMatchObject({ status: "needs_reconnect", error: { code: "token_refused" } });

    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), q.env, createExecutionContext());
    expect((await postRow(post.id))!.state).toBe("reminded");
    expect(q.sent.some((m) => m.body.postIds.includes(post.id))).toBe(false);
  });

  it("without a connection a due post becomes a reminder, mailed once", async () => {
    const user = await signUp();
    const summary = `Reminder only ${unique()}`;
    const post = await schedule(user.session.access_token, summary, { locationName: null });
    const q = gbpQueue();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), q.env, createExecutionContext());
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), q.env, createExecutionContext());
    expect((await postRow(post.id))!.state).toBe("reminded");
    const mail = await env.DB.prepare("select subject, body from outbox where to_email = ? and kind = 'gbp_post_due'").bind(user.email.toLowerCase()).all<{ subject: string; body: string }>();
    expect(mail.results).toHaveLength(1);
    expect(mail.results[0]!.subject).toBe("Your Google Business Profile post is due");
    expect(mail.results[0]!.body).toContain("/tools/gmb-post-scheduler");
    expect(q.sent.some((m) => m.body.postIds.includes(post.id))).toBe(false);
  });
});
