// Reports use the audit (issue 18), through the real queue consumers: generation waits for the fast steps, the prompt
// carries the findings, the admin and shared report carry the latest audit (public view on the shared one), and page
// speed landing later changes the report's version and its shared cache key.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ReportJobMessage, UsageEventMessage } from "../../../worker/platform/env";
import { FAKE_SITE_BUSINESS, FAKE_SITE_TITLE } from "../../fakes/audit-data";
import { auditAdmin, auditEnv, bindings, drain } from "./audit-fixtures";
import { callWorker } from "../helpers";
import { deliver, recorder } from "../reports/reports-fixtures";

async function aiPrompts(mark: string): Promise<string[]> {
  const res = await fetch(`${env.AI_BASE_URL!.replace(/\/v1$/, "")}/__requests`);
  const { requests } = (await res.json()) as { requests: { body: { messages?: { content: string }[] } }[] };
  return requests.map((r) => r.body?.messages?.[0]?.content ?? "").filter((b) => b.includes(mark));
}

describe("a report with a website", () => {
  it("waits for the audit's fast steps, writes with the findings, and changes version when page speed lands", async () => {
    const jobs = recorder<ReportJobMessage>();
    const t = auditEnv({ AI_API_KEY: "test", REPORT_JOBS: jobs.queue, USAGE_EVENTS: recorder<UsageEventMessage>().queue });
    const admin = await auditAdmin();
    const mark = `mk${crypto.randomUUID().slice(0, 8)}`;
    const created = await callWorker(
      "/api/reports",
      {
        method: "POST",
        token: admin.session.access_token,
        json: { name: "Joe's Plumbing", area: "Austin, TX", keyword: FAKE_SITE_BUSINESS.keyword, phone: FAKE_SITE_BUSINESS.phone, description: `Plumbing [fake:ok] ${mark}`, website: `${env.TEST_WEBSITE_URL}/site/` },
      },
      bindings(t),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const reportId = created.body.report.id as string;
    expect(created.body.prospect.website).toBe(`${env.TEST_WEBSITE_URL}/site/`);
    expect(created.body.audit).toMatchObject({ status: "queued", subject: { kind: "prospect", website: `${env.TEST_WEBSITE_URL}/site/` } });
    expect(jobs.sent).toEqual([{ reportId }]);

    // The job arrives before the audit ran: it is sent again with a delay (no try used), the report stays queued.
    jobs.sent.length = 0;
    const early = await deliver("report-jobs", [{ body: { reportId } }], t.env);
    expect(early.result.explicitAcks).toHaveLength(1);
    expect(jobs.sent).toEqual([{ reportId }]);
    expect((await callWorker(`/api/reports/${reportId}`, { token: admin.session.access_token }, bindings(t))).body.report.status).toBe("queued");

    // The fast steps land; page speed is held back.
    const { held } = await drain(t, { hold: (m) => m.step === "speed" });
    expect(held.map((m) => m.step)).toEqual(["speed"]);
    jobs.sent.length = 0;
    const job = await deliver("report-jobs", [{ body: { reportId } }], t.env);
    expect(job.result.explicitAcks).toHaveLength(1);
    expect(jobs.sent).toEqual([]);

    const prompts = await aiPrompts(mark);
    expect(prompts).toHaveLength(1);
    const prompt = prompts[0]!;
    expect(prompt).toContain(`The site's current page title: "${FAKE_SITE_TITLE}"`);
    expect(prompt).toContain("The perfectAd must answer them");
    expect(prompt).toContain("Austin Pro Plumbing");
    expect(prompt).toContain("never invent others");

    const read = await callWorker(`/api/reports/${reportId}`, { token: admin.session.access_token }, bindings(t));
    expect(read.body.report.status).toBe("ready");
    const version = read.body.report.version as number;
    expect(read.body.audit.site.title).toBe(FAKE_SITE_TITLE);
    expect(read.body.audit.steps.speed.status).toBe("pending");
    // The SEO potential is the audit's overall score.
    expect(read.body.report.content.seoPotential.score).toBe(Math.max(1, read.body.audit.score.overall));

    const shared = await callWorker(`/api/shared/reports/${reportId}`, {}, bindings(t));
    expect(shared.status).toBe(200);
    const etag = shared.headers.get("ETag");
    expect(shared.body.audit).toMatchObject({ candidates: [], subject: { prospectId: null } });
    expect(JSON.stringify(shared.body.audit)).not.toContain(created.body.prospect.id);

    // Page speed lands: the report's version moves on, the shared page's ETag with it, and it shows the figures.
    t.sent.push(...held);
    await drain(t);
    const after = await callWorker(`/api/reports/${reportId}`, { token: admin.session.access_token }, bindings(t));
    expect(after.body.report.version).toBe(version + 1);
    expect(after.body.audit.status).toBe("done");
    const sharedAfter = await callWorker(`/api/shared/reports/${reportId}`, { headers: { "If-None-Match": etag! } }, bindings(t));
    expect(sharedAfter.status).toBe(200);
    expect(sharedAfter.headers.get("ETag")).not.toBe(etag);
    expect(sharedAfter.body.audit.pageSpeed).toMatchObject({ status: "ok", source: "field" });

    // The chats are grounded in the same findings: the system prompt carries the score and the top findings.
    const question = `Why don't I show up on Google? ${mark}-chat`;
    for (const path of [`/api/chat/${reportId}/messages`, `/api/shared/chat/${reportId}/messages`]) {
      const token = path.startsWith("/api/chat") ? admin.session.access_token : undefined;
      const reply = await callWorker(path, { method: "POST", token, stream: true, json: { messages: [{ role: "user", content: question }] } }, bindings(t));
      expect(reply.status, path).toBe(200);
    }
    const res = await fetch(`${env.AI_BASE_URL!.replace(/\/v1$/, "")}/__requests`);
    const { requests } = (await res.json()) as { requests: { body: { messages?: { role: string; content: string }[] } }[] };
    const systems = requests
      .filter((r) => r.body?.messages?.some((m) => m.content.includes(`${mark}-chat`)))
      .map((r) => r.body.messages!.find((m) => m.role === "system")!.content);
    expect(systems).toHaveLength(2);
    for (const system of systems) {
      expect(system).toContain(`SEO potential score: ${after.body.audit.score.overall} out of 100`);
      expect(system).toContain("never invent a finding the audit does not have");
      expect(system).toContain("Austin Pro Plumbing");
    }
  });

  it("an audit without data gives the report no SEO potential figure, on the admin and shared report alike (issue 39)", async () => {
    const jobs = recorder<ReportJobMessage>();
    // No search, no page speed, a website that does not exist: the audit finishes with no score.
    const t = auditEnv({ SERPAPI_KEY: "", PAGESPEED_BASE_URL: "", PAGESPEED_API_KEY: "", REPORT_JOBS: jobs.queue, USAGE_EVENTS: recorder<UsageEventMessage>().queue });
    const admin = await auditAdmin();
    const created = await callWorker(
      "/api/reports",
      { method: "POST", token: admin.session.access_token, json: { name: "Nodata Plumbing", area: "Austin, TX", keyword: "plumber austin", description: "Plumbing", website: "https://no-such-site.example" } },
      bindings(t),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const reportId = created.body.report.id as string;
    await drain(t);
    await deliver("report-jobs", [{ body: { reportId } }], t.env);
    const read = await callWorker(`/api/reports/${reportId}`, { token: admin.session.access_token }, bindings(t));
    expect(read.body.report.status).toBe("ready");
    expect(read.body.audit).toMatchObject({ status: "done", score: { overall: null } });
    // The template's 85 (or a model's guess) is not shown beside the audit's "No data".
    expect(read.body.report.content.seoPotential).toBeNull();
    const shared = await callWorker(`/api/shared/reports/${reportId}`, {}, bindings(t));
    expect(shared.body.report.content.seoPotential).toBeNull();
    const page = await callWorker(`/shared/reports/${reportId}`, {}, bindings(t));
    expect(page.status).toBe(200);
    const html = page.text;
    expect(html).toContain("What we found");
    expect(html).not.toMatch(/SEO Potential Analysis|\d+% \((HIGH|MEDIUM|LOW)\)/);
  });

  it("a bad website on create-report is a field error, never a 500", async () => {
    const admin = await auditAdmin();
    const res = await callWorker("/api/reports", { method: "POST", token: admin.session.access_token, json: { name: "X", area: "Austin, TX", keyword: "plumber", website: "not a site" } });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.website).toEqual(["Enter a valid website address, like example.com"]);
  });
});
