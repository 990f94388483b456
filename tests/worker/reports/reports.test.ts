// /api/reports: admin-only create, list, status, read, generate and generate-all, with the spec's messages.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { REQUIRED_FIELDS_MESSAGE } from "../../../worker/features/reports/rules/new-report";
import { api, signUp, signUpAdmin } from "../helpers";
import { readReport, seedReport } from "./reports-fixtures";

const form = (overrides: Record<string, unknown> = {}) => ({
  name: `Blue Pipe Plumbing ${crypto.randomUUID().slice(0, 6)}`,
  company_name: "Blue Pipe LLC",
  phone: "(512) 555-0199",
  description: "Emergency plumbing and drain cleaning",
  area: "Austin, TX",
  keyword: "plumber austin",
  category: "Plumbing",
  generate: false,
  ...overrides,
});

describe("access", () => {
  it.each([
    ["GET", "/api/reports"],
    ["POST", "/api/reports"],
    ["GET", "/api/reports/status?ids=x"],
    ["POST", "/api/reports/generate-all"],
    ["GET", `/api/reports/${crypto.randomUUID()}`],
    ["POST", `/api/reports/${crypto.randomUUID()}/generate`],
  ])("%s %s needs a signed-in admin (401 anonymous, 403 regular user)", async (method, path) => {
    const anonymous = await api(path, { method, body: method === "POST" ? "{}" : undefined });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe("unauthorized");
    const { session } = await signUp();
    const regular = await api(path, { method, token: session.access_token, body: method === "POST" ? "{}" : undefined });
    expect(regular.status).toBe(403);
    expect(regular.body.error.code).toBe("admin_required");
  });

  it("refuses writes while an admin views the product as someone else", async () => {
    const admin = await signUpAdmin();
    const other = await signUpAdmin();
    const res = await api("/api/reports", {
      method: "POST",
      token: admin.session.access_token,
      viewAs: other.user.id,
      body: JSON.stringify(form()),
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("view_as_read_only");
  });
});

describe("POST /api/reports", () => {
  it("creates the prospect and report by the import's rules; Save Only leaves it a draft", async () => {
    const { session, user } = await signUpAdmin();
    const input = form();
    const res = await api("/api/reports", { method: "POST", token: session.access_token, body: JSON.stringify(input) });
    expect(res.status).toBe(201);
    expect(res.body.report).toMatchObject({ status: "draft", content_generated: false, content: null, attempts: 0 });
    expect(res.body.report.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Phone normalised, the typed keyword kept (issue 39: no longer derived from description + area), tag from the category.
    expect(res.body.prospect).toMatchObject({
      name: input.name,
      company_name: "Blue Pipe LLC",
      phone: "15125550199",
      keyword: "plumber austin",
      tag: "Plumbing",
    });
    expect(res.body.report.questions).toEqual([
      "Is your project located in or near Austin, TX?",
      "What type of plumbing issue are you dealing with?",
      "How urgent is the problem: is it an emergency or can it wait a few days?",
    ]);
    const prospect = await env.DB.prepare("select user_id, search_text from prospects where id = ?")
      .bind(res.body.prospect.id)
      .first<{ user_id: string; search_text: string }>();
    expect(prospect!.user_id).toBe(user.id);
    expect(prospect!.search_text).toContain(input.name.toLowerCase());
    expect(prospect!.search_text).toContain("15125550199");
  });

  it("keeps the typed keyword without a description and derives the tag when no category is chosen", async () => {
    const { session } = await signUpAdmin();
    const res = await api("/api/reports", {
      method: "POST",
      token: session.access_token,
      body: JSON.stringify(form({ description: "", category: "", keyword: "  roof repair austin " })),
    });
    expect(res.status).toBe(201);
    expect(res.body.prospect).toMatchObject({ keyword: "roof repair austin", tag: "Other" });
  });

  it("Create & Generate keeps the typed keyword, as Save Only does, though a description and area are given (issue 39)", async () => {
    const { session } = await signUpAdmin();
    for (const generate of [true, false]) {
      const res = await api("/api/reports", {
        method: "POST",
        token: session.access_token,
        body: JSON.stringify(form({ generate, description: "Emergency plumbing and drain cleaning", area: "Austin, TX", keyword: "emergency plumber austin" })),
      });
      expect(res.status).toBe(201);
      expect(res.body.prospect.keyword).toBe("emergency plumber austin");
      const read = await api(`/api/reports/${res.body.report.id}`, { token: session.access_token });
      expect(read.body.prospect.keyword).toBe("emergency plumber austin");
    }
  });

  it("Create & Generate queues the report and returns at once", async () => {
    const { session } = await signUpAdmin();
    const res = await api("/api/reports", {
      method: "POST",
      token: session.access_token,
      body: JSON.stringify(form({ generate: true })),
    });
    expect(res.status).toBe(201);
    expect(res.body.report.status).toBe("queued");
    expect(res.body.warning).toBeUndefined();
    expect(res.body.ai_configured).toBe(false);
  });

  it.each([
    [{ name: "" }],
    [{ area: "   " }],
    [{ keyword: undefined }],
    [{ name: undefined, area: undefined, keyword: undefined }],
  ])("answers 400 'Please fill in all required fields' for %j", async (overrides) => {
    const { session } = await signUpAdmin();
    const res = await api("/api/reports", { method: "POST", token: session.access_token, body: JSON.stringify(form(overrides)) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "validation_failed", message: REQUIRED_FIELDS_MESSAGE });
  });

  it.each([
    ["malformed JSON", "{nope"],
    ["a JSON array", "[]"],
    ["an unknown category", JSON.stringify(form({ category: "Rocket Science" }))],
    ["a too-long name", JSON.stringify(form({ name: "x".repeat(201) }))],
    ["a non-boolean generate", JSON.stringify(form({ generate: "yes" }))],
  ])("answers 400 for %s, never 500", async (_label, body) => {
    const { session } = await signUpAdmin();
    const res = await api("/api/reports", { method: "POST", token: session.access_token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
  });
});

describe("GET /api/reports/:id and POST /api/reports/:id/generate", () => {
  it("404s with the spec's message for an unknown or absurd id", async () => {
    const { session } = await signUpAdmin();
    for (const id of [crypto.randomUUID(), "not-a-uuid", "x".repeat(300)]) {
      const res = await api(`/api/reports/${id}`, { token: session.access_token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: "not_found", message: "Report not found", requestId: expect.any(String) } });
      const gen = await api(`/api/reports/${id}/generate`, { method: "POST", token: session.access_token });
      expect(gen.status).toBe(404);
    }
  });

  it("opening a draft enqueues it; opening it again does not re-enqueue", async () => {
    const { session } = await signUpAdmin();
    const seeded = await seedReport("", { queued: false });
    const first = await api(`/api/reports/${seeded.id}`, { token: session.access_token });
    expect(first.status).toBe(200);
    expect(first.body.report.status).toBe("queued");
    expect(first.body.prospect.phone).toBe("15125550142");
    const claimedAt = (await readReport(seeded.id)).claimed_at;
    const second = await api(`/api/reports/${seeded.id}`, { token: session.access_token });
    expect(["queued", "generating", "ready"]).toContain(second.body.report.status);
    const row = await readReport(seeded.id);
    if (row.status === "queued") expect(row.claimed_at).toBe(claimedAt);
  });

  it("does not enqueue while viewing as another admin (read-only)", async () => {
    const admin = await signUpAdmin();
    const other = await signUpAdmin();
    const seeded = await seedReport("", { queued: false });
    const res = await api(`/api/reports/${seeded.id}`, { token: admin.session.access_token, viewAs: other.user.id });
    expect(res.status).toBe(200);
    expect(res.body.report.status).toBe("draft");
  });

  it("generate enqueues a draft once (compare-and-set) and reports whether it did", async () => {
    const { session } = await signUpAdmin();
    const seeded = await seedReport("", { queued: false });
    const first = await api(`/api/reports/${seeded.id}/generate`, { method: "POST", token: session.access_token });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ enqueued: true, report: { status: "queued", attempts: 0 } });
    const second = await api(`/api/reports/${seeded.id}/generate`, { method: "POST", token: session.access_token });
    expect(second.status).toBe(202);
    expect(second.body.enqueued).toBe(false);
  });

  it("returns the content of a ready report with the §4 potential", async () => {
    const { session } = await signUpAdmin();
    const seeded = await seedReport("");
    await env.DB.prepare(
      `update seo_reports set status = 'ready', source = 'ai', content_generated = 1, seo_potential = 72,
         gmb_articles = '[]', blog_structures = '[]', facebook_posts = '[{"title":"T","content":"C"}]' where id = ?`,
    )
      .bind(seeded.id)
      .run();
    const res = await api(`/api/reports/${seeded.id}`, { token: session.access_token });
    expect(res.status).toBe(200);
    const content = res.body.report.content;
    expect(content.seoPotential).toEqual({ score: 72, keyword_potential: 7.2, business_relevance: 6.84, competition: "Medium" });
    expect(content.gmbArticles).toEqual([]);
    expect(content.facebookPosts[0]).toMatchObject({ title: "T", author: seeded.prospect.companyName, likes: expect.any(Number) });
    // Rows without a stored ad / meta tags get the locally built ones.
    expect(content.perfectAd.title).toBeTruthy();
    expect(content.metaSEO.title).toBeTruthy();
  });
});

describe("GET /api/reports, /status and POST /generate-all", () => {
  it("lists newest first with the prospect's name, area, keyword and status, paginated by cursor", async () => {
    const { session } = await signUpAdmin();
    const a = await api("/api/reports", { method: "POST", token: session.access_token, body: JSON.stringify(form()) });
    const b = await api("/api/reports", { method: "POST", token: session.access_token, body: JSON.stringify(form()) });
    const page1 = await api("/api/reports?limit=1", { token: session.access_token });
    expect(page1.status).toBe(200);
    expect(page1.body.reports).toHaveLength(1);
    expect(page1.body.reports[0]).toMatchObject({
      id: b.body.report.id,
      status: "draft",
      prospect: { name: b.body.prospect.name, area: "Austin, TX", keyword: "plumber austin" },
    });
    const page2 = await api(`/api/reports?limit=1&cursor=${page1.body.nextCursor}`, { token: session.access_token });
    expect(page2.body.reports[0].id).toBe(a.body.report.id);
  });

  it("rejects a bad limit or cursor with 400", async () => {
    const { session } = await signUpAdmin();
    for (const q of ["limit=0", "limit=101", "limit=abc", "cursor=%%%"]) {
      const res = await api(`/api/reports?${q}`, { token: session.access_token });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
  });

  it("gives the status of the requested reports", async () => {
    const { session } = await signUpAdmin();
    const one = await seedReport("", { queued: false });
    const two = await seedReport("");
    const res = await api(`/api/reports/status?ids=${one.id},${two.id},${crypto.randomUUID()}`, { token: session.access_token });
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.statuses.map((s: { id: string; status: string }) => [s.id, s.status]));
    expect(byId).toEqual({ [one.id]: "draft", [two.id]: "queued" });
    const none = await api("/api/reports/status?ids=", { token: session.access_token });
    expect(none.status).toBe(400);
    const tooMany = Array.from({ length: 101 }, () => crypto.randomUUID()).join(",");
    expect((await api(`/api/reports/status?ids=${tooMany}`, { token: session.access_token })).status).toBe(400);
  });

  it("generate-all queues every draft and failed report, and nothing else", async () => {
    const { session } = await signUpAdmin();
    const draft = await seedReport("", { queued: false });
    const failed = await seedReport("", { queued: false });
    await env.DB.prepare("update seo_reports set status = 'failed' where id = ?").bind(failed.id).run();
    const res = await api("/api/reports/generate-all", { method: "POST", token: session.access_token });
    expect(res.status).toBe(202);
    expect(res.body.queued).toBeGreaterThanOrEqual(2);
    for (const id of [draft.id, failed.id]) expect(["queued", "generating", "ready"]).toContain((await readReport(id)).status);
    const again = await api("/api/reports/generate-all", { method: "POST", token: session.access_token });
    expect(again.status).toBe(202);
  });
});
