// The report's "Listings" (issue 27), through the real consumers: a prospect's finished citation scan reaches the report's
// prompt, the admin and shared report (JSON and HTML, without any listing's phone number) and both chats' system prompts.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { CitationScanView } from "../../../worker/features/citations/rules/citations";
import type { ReportListings } from "../../../worker/features/citations/rules/summary";
import type { CitationsMessage, Env, ReportJobMessage, UsageEventMessage } from "../../../worker/platform/env";
import { CITATION_BUSINESS } from "../../fakes/citation-web";
import { callWorker, signUpAdmin } from "../helpers";
import { deliver, recorder, seedReport } from "../reports/reports-fixtures";

type Requests = { requests: { body: { messages?: { role: string; content: string }[] } }[] };
async function aiRequests(mark: string) {
  const res = await fetch(`${env.AI_BASE_URL!.replace(/\/v1$/, "")}/__requests`);
  return ((await res.json()) as Requests).requests.filter((r) => r.body?.messages?.some((m) => m.content.includes(mark)));
}

/** Every phone number written the ways the scan and the fakes write them. */
const PHONE = /\(?\b\d{3}\)?[ .-]?\d{3}-\d{4}\b|\b\d{10}\b/;

describe("a prospect's citation scan in its report", () => {
  it("is the report's Listings: in the prompt, the admin and shared report (no phone number) and both chats", async () => {
    const cit = recorder<CitationsMessage>();
    const t = { ...env, AI_API_KEY: "test", CITATIONS: cit.queue, REPORT_JOBS: recorder<ReportJobMessage>().queue, USAGE_EVENTS: recorder<UsageEventMessage>().queue } as Env;
    const bindings = t as unknown as Record<string, unknown>;
    const admin = await signUpAdmin();
    const token = admin.session.access_token;
    const mark = `lst${crypto.randomUUID().slice(0, 8)}`;
    const seeded = await seedReport(`[fake:ok] ${mark}`, { name: CITATION_BUSINESS.name, companyName: CITATION_BUSINESS.name, phone: CITATION_BUSINESS.phone });
    await env.DB.prepare("update prospects set website = ? where id = ?").bind(CITATION_BUSINESS.website, seeded.prospect.id).run();

    // Before any scan: no Listings anywhere, and the prompt says nothing of listings.
    const before = await callWorker(`/api/shared/reports/${seeded.id}`, {}, bindings);
    expect(before.body.listings).toBeNull();

    const started = await callWorker("/api/citations/scans", { method: "POST", token, json: { business: seeded.prospect.id } }, bindings);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    for (let round = 0; cit.sent.length > 0 && round < 10; round++) await deliver("citations", cit.sent.splice(0).map((body) => ({ body })), t);
    const scan = (await callWorker(`/api/citations/scans/${(started.body as CitationScanView).id}`, { token }, bindings)).body as CitationScanView;
    expect(scan.status).toBe("done");
    const oldPhones = scan.sources.filter((s) => s.fields?.phone.match === "differs" || s.listings.some((l) => l.fields.phone.match === "differs")).length;
    expect(oldPhones).toBeGreaterThan(0);

    // The report is written after the scan: its prompt carries the scan's sentence.
    const { result } = await deliver("report-jobs", [{ body: { reportId: seeded.id } }], t);
    expect(result.explicitAcks).toHaveLength(1);
    const admins = await callWorker(`/api/reports/${seeded.id}`, { token }, bindings);
    expect(admins.status).toBe(200);
    const listings = admins.body.listings as ReportListings;
    expect(listings.sentence).toBe(`Found on ${scan.summary.listed} of ${scan.summary.checked} sources; ${oldPhones} show${oldPhones === 1 ? "s" : ""} an old phone number${listings.sentence.slice(listings.sentence.indexOf("number") + 6)}`);
    expect(listings.summary).toEqual(scan.summary);
    expect(listings.sources.some((s) => s.verdict === "inconsistent" && s.fields.includes("Phone"))).toBe(true);
    const prompt = (await aiRequests(mark)).map((r) => r.body.messages![0]!.content).find((c) => c.includes("Create SEO report content"));
    expect(prompt).toContain(`A citation scan on ${scan.createdAt.slice(0, 10)} checked the business's listings`);
    expect(prompt).toContain(listings.sentence);

    // The shared JSON: the same section, and not one phone number in it.
    const shared = await callWorker(`/api/shared/reports/${seeded.id}`, {}, bindings);
    expect(shared.body.listings).toEqual(listings);
    expect(JSON.stringify(shared.body.listings)).not.toMatch(PHONE);
    expect(shared.body.report.version).toBeGreaterThan(1);

    // The shared page's HTML: the section is rendered on the server, without a phone number.
    const html = (await callWorker(`/shared/reports/${seeded.id}`, {}, bindings)).text;
    const section = /<section[^>]*id="listings"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
    expect(section).toContain("Listings");
    expect(section).toContain(`Found on ${scan.summary.listed} of ${scan.summary.checked} sources`);
    expect(section).not.toMatch(PHONE);

    // Both chats are grounded in it: the system prompt carries the sentence.
    for (const path of [`/api/chat/${seeded.id}/messages`, `/api/shared/chat/${seeded.id}/messages`]) {
      const reply = await callWorker(path, { method: "POST", token: path.startsWith("/api/chat") ? token : undefined, stream: true, json: { messages: [{ role: "user", content: `Am I listed? ${mark}-chat` }] } }, bindings);
      expect(reply.status, path).toBe(200);
    }
    const systems = (await aiRequests(`${mark}-chat`)).map((r) => r.body.messages!.find((m) => m.role === "system")!.content);
    expect(systems).toHaveLength(2);
    for (const system of systems) expect(system).toContain(listings.sentence);
  });
});
