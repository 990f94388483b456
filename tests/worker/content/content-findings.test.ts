// The content suite's prompts carry the audit's findings (issues 18 and 20): after a user's own business is audited
// (through the real audits consumer against the fake site and search), a generator's prompt names the gaps found and
// the keyword the business ranks poorly for; before any audit it has neither.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { FAKE_SITE_BUSINESS } from "../../fakes/audit-data";
import { auditEnv, bindings, drain } from "../audits/audit-fixtures";
import { callWorker, signUp } from "../helpers";

/** The prompt the fake AI received for the request carrying this marker. */
async function promptWith(marker: string): Promise<string> {
  const res = await fetch(`${env.AI_BASE_URL!.replace(/\/v1$/, "")}/__requests`);
  const { requests } = (await res.json()) as { requests: { body: { messages?: { content: string }[] } }[] };
  const hit = requests.filter((r) => JSON.stringify(r.body).includes(marker));
  expect(hit, `one AI request carries ${marker}`).toHaveLength(1);
  return hit[0]!.body.messages!.map((m) => m.content).join("\n");
}

describe("content prompts and the business's audit", () => {
  it("leave findings out before an audit, then carry its gaps and weak keyword", async () => {
    const t = auditEnv();
    const withAi = { ...bindings(t), AI_API_KEY: "test" };
    const user = await signUp();
    const token = user.session.access_token;
    const site = `${env.TEST_WEBSITE_URL}/site/`;
    const profile = { company_name: FAKE_SITE_BUSINESS.name, company_location: "1200 Main St, Suite 300, Austin, TX 78701", company_phone: "(512) 555-0142", company_website: site, company_category: "Plumbing" };
    expect((await callWorker("/api/profile", { method: "PUT", token, json: profile }, withAi)).status).toBe(200);

    const before = `before-${crypto.randomUUID().slice(0, 8)}`;
    const first = await callWorker("/api/content/gmb-post", { method: "POST", token, json: { postType: "STANDARD", topic: `${before} drain cleaning` } }, withAi);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(await promptWith(before)).not.toContain("Gaps found by the business's audit");

    const started = await callWorker("/api/audits", { method: "POST", token, json: { own: true } }, withAi);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    await drain(t);
    const audit = await callWorker(`/api/audits/${started.body.id}`, { token }, withAi);
    expect(audit.body.status).toBe("done");
    const fixes: { check: { evidence: string } }[] = audit.body.fixFirst;
    expect(fixes.length).toBeGreaterThan(0);

    const after = `after-${crypto.randomUUID().slice(0, 8)}`;
    const second = await callWorker("/api/content/gmb-post", { method: "POST", token, json: { postType: "STANDARD", topic: `${after} drain cleaning` } }, withAi);
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const prompt = await promptWith(after);
    expect(prompt).toContain("Gaps found by the business's audit");
    expect(prompt).toContain(fixes[0]!.check.evidence);
    // The fake map pack has the business fourth for its trade: outside the pack, so the keyword is one to work in.
    expect(audit.body.rank).toMatchObject({ status: "ok", keyword: "plumbing", mapPosition: 4 });
    expect(prompt).toContain("ranks poorly for them): plumbing");
  });
});
