// The admin Jobs panel API: what is listed, and regeneration of one or all reports (idempotent, admin only, never while viewing as).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../../worker/app";
import { AI_OFF_MESSAGE, ALREADY_AI_MESSAGE } from "../../../worker/features/reports/rules/jobs";
import type { Env, ReportJobMessage, UsageEventMessage } from "../../../worker/platform/env";
import { BASE, signUp, signUpAdmin } from "../helpers";
import { deliver, readReport, recorder, seedReport } from "./reports-fixtures";

/** Calls the app with AI configured and a recording report-jobs queue. */
function withQueue(overrides: Partial<Env> = {}) {
  const jobs = recorder<ReportJobMessage>();
  const e: Env = { ...env, AI_API_KEY: "test", REPORT_JOBS: jobs.queue, USAGE_EVENTS: recorder<UsageEventMessage>().queue, ...overrides };
  async function call(path: string, init: { method?: string; token?: string; viewAs?: string } = {}) {
    const headers = new Headers();
    if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
    if (init.viewAs) headers.set("X-View-As", init.viewAs);
    const res = await app.request(`${BASE}${path}`, { method: init.method ?? "GET", headers }, e);
    return { status: res.status, body: (await res.json()) as any };
  }
  return { env: e, sent: jobs.sent, call };
}

async function setState(id: string, status: string, source: string | null, attempts: number, lastError: string | null) {
  await env.DB.prepare("update seo_reports set status = ?, source = ?, attempts = ?, last_error = ?, content_generated = ? where id = ?")
    .bind(status, source, attempts, lastError, status === "ready" ? 1 : 0, id)
    .run();
}

describe("access", () => {
  it.each([
    ["GET", "/api/reports/jobs"],
    ["POST", "/api/reports/regenerate-template"],
    ["POST", `/api/reports/${crypto.randomUUID()}/regenerate`],
  ])("%s %s: 401 anonymous, 403 for a regular user", async (method, path) => {
    const t = withQueue();
    expect((await t.call(path, { method })).body.error.code).toBe("unauthorized");
    const { session } = await signUp();
    const regular = await t.call(path, { method, token: session.access_token });
    expect(regular.status).toBe(403);
    expect(regular.body.error.code).toBe("admin_required");
  });

  it("refuses regeneration while viewing as someone else, and sends nothing", async () => {
    const admin = await signUpAdmin();
    const other = await signUp();
    const seeded = await seedReport();
    await setState(seeded.id, "ready", "template", 5, "AI generation failed 5 times");
    const t = withQueue();
    for (const path of [`/api/reports/${seeded.id}/regenerate`, "/api/reports/regenerate-template"]) {
      const res = await t.call(path, { method: "POST", token: admin.session.access_token, viewAs: other.user.id });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("view_as_read_only");
    }
    expect(t.sent).toEqual([]);
    expect((await readReport(seeded.id)).status).toBe("ready");
  });
});

describe("GET /api/reports/jobs", () => {
  it("lists queued, generating, failed and template reports with attempts and the last error, and not the others", async () => {
    const { session } = await signUpAdmin();
    const [queued, generating, failed, template, ai, draft] = await Promise.all([
      seedReport(),
      seedReport(),
      seedReport(),
      seedReport(),
      seedReport(),
      seedReport("", { queued: false }),
    ]);
    await setState(queued.id, "queued", null, 2, "API request failed: 500");
    await setState(generating.id, "generating", null, 3, null);
    await setState(failed.id, "failed", null, 1, "Internal error");
    await setState(template.id, "ready", "template", 5, "AI generation failed 5 times; last error: timed out");
    await setState(ai.id, "ready", "ai", 1, null);

    const res = await withQueue().call("/api/reports/jobs", { token: session.access_token });
    expect(res.status).toBe(200);
    const byId = new Map(res.body.jobs.map((j: any) => [j.id, j]));
    expect(byId.get(queued.id)).toMatchObject({ kind: "queued", attempts: 2, max_attempts: 5, last_error: "API request failed: 500" });
    expect(byId.get(generating.id)).toMatchObject({ kind: "generating", attempts: 3 });
    expect(byId.get(failed.id)).toMatchObject({ kind: "failed", last_error: "Internal error" });
    expect(byId.get(template.id)).toMatchObject({
      kind: "template",
      source: "template",
      last_error: expect.stringContaining("timed out"),
      prospect: { id: template.prospect.id, name: template.prospect.name },
    });
    expect(byId.has(ai.id)).toBe(false);
    expect(byId.has(draft.id)).toBe(false);
    // In progress first, template content last.
    const kinds = res.body.jobs.map((j: any) => j.kind);
    expect(kinds.indexOf("generating")).toBeLessThan(kinds.indexOf("queued"));
    expect(kinds.lastIndexOf("failed")).toBeLessThan(kinds.indexOf("template"));
    for (const kind of ["queued", "generating", "failed", "template"]) {
      expect(res.body.counts[kind]).toBe(kinds.filter((k: string) => k === kind).length);
    }
    expect(res.body).toMatchObject({ truncated: false, ai_configured: true });
  });
});

describe("POST /api/reports/:id/regenerate", () => {
  it("puts a template report back on the queue once, and the consumer then saves AI content", async () => {
    const { session } = await signUpAdmin();
    const seeded = await seedReport("[fake:ok]");
    await setState(seeded.id, "ready", "template", 5, "AI generation failed 5 times");
    const t = withQueue();

    const first = await t.call(`/api/reports/${seeded.id}/regenerate`, { method: "POST", token: session.access_token });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ enqueued: true, job: { id: seeded.id, kind: "queued", attempts: 0, last_error: null } });
    expect(t.sent).toEqual([{ reportId: seeded.id }]);

    // A second click while it is queued sends nothing more.
    const second = await t.call(`/api/reports/${seeded.id}/regenerate`, { method: "POST", token: session.access_token });
    expect(second.status).toBe(202);
    expect(second.body).toMatchObject({ enqueued: false, job: { kind: "queued" } });
    expect(t.sent).toHaveLength(1);

    const { result } = await deliver("report-jobs", [{ body: t.sent[0] }], t.env);
    expect(result.retryMessages).toEqual([]);
    expect(await readReport(seeded.id)).toMatchObject({ status: "ready", source: "ai", last_error: null, attempts: 1 });

    const done = await t.call(`/api/reports/${seeded.id}/regenerate`, { method: "POST", token: session.access_token });
    expect(done.status).toBe(409);
    expect(done.body.error).toEqual({ code: "conflict", message: ALREADY_AI_MESSAGE, requestId: expect.any(String) });
  });

  it("restarts a failed report", async () => {
    const { session } = await signUpAdmin();
    const seeded = await seedReport();
    await setState(seeded.id, "failed", null, 2, "Internal error");
    const t = withQueue();
    const res = await t.call(`/api/reports/${seeded.id}/regenerate`, { method: "POST", token: session.access_token });
    expect(res.body).toMatchObject({ enqueued: true, job: { kind: "queued" } });
    expect(t.sent).toEqual([{ reportId: seeded.id }]);
  });

  it("answers 404 for an unknown or absurd id, and 409 when AI is not configured", async () => {
    const { session } = await signUpAdmin();
    const t = withQueue();
    for (const id of [crypto.randomUUID(), "x".repeat(500)]) {
      const res = await t.call(`/api/reports/${id}/regenerate`, { method: "POST", token: session.access_token });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    const seeded = await seedReport();
    await setState(seeded.id, "ready", "template", 1, "AI is off");
    const off = withQueue({ AI_API_KEY: "" });
    const res = await off.call(`/api/reports/${seeded.id}/regenerate`, { method: "POST", token: session.access_token });
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({ code: "not_configured", message: AI_OFF_MESSAGE, requestId: expect.any(String) });
    expect(off.sent).toEqual([]);
    expect((await readReport(seeded.id)).status).toBe("ready");
  });

  it("keeps the report queued, for the sweep, and warns when the queue refuses the message", async () => {
    const { session } = await signUpAdmin();
    const seeded = await seedReport();
    await setState(seeded.id, "ready", "template", 5, "AI generation failed 5 times");
    const broken = {
      send: async () => {
        throw new Error("queue unavailable");
      },
      sendBatch: async () => {
        throw new Error("queue unavailable");
      },
    } as unknown as Queue<ReportJobMessage>;
    const t = withQueue({ REPORT_JOBS: broken });
    const res = await t.call(`/api/reports/${seeded.id}/regenerate`, { method: "POST", token: session.access_token });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ enqueued: true, warning: expect.stringContaining("background") });
    expect((await readReport(seeded.id)).status).toBe("queued");
  });
});

describe("POST /api/reports/regenerate-template", () => {
  it("queues every template and failed report once; a second call finds none", async () => {
    const { session } = await signUpAdmin();
    const [a, b, c, ai] = await Promise.all([seedReport(), seedReport(), seedReport(), seedReport()]);
    await setState(a.id, "ready", "template", 5, "failed");
    await setState(b.id, "ready", "template", 1, "off");
    await setState(c.id, "failed", null, 2, "Internal error");
    await setState(ai.id, "ready", "ai", 1, null);
    const t = withQueue();

    const first = await t.call("/api/reports/regenerate-template", { method: "POST", token: session.access_token });
    expect(first.status).toBe(202);
    const sentIds = t.sent.map((m) => m.reportId);
    expect(first.body.queued).toBe(sentIds.length);
    expect(sentIds).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    expect(sentIds).not.toContain(ai.id);
    for (const r of [a, b, c]) expect(await readReport(r.id)).toMatchObject({ status: "queued", attempts: 0, last_error: null });
    expect((await readReport(ai.id)).status).toBe("ready");

    const second = await t.call("/api/reports/regenerate-template", { method: "POST", token: session.access_token });
    expect(second.body).toEqual({ queued: 0 });
    expect(t.sent).toHaveLength(sentIds.length);
  });
});
