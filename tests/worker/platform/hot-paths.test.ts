// The hot paths before their AI call (issue 26): how many sequential D1 round trips a chat message and a report job
// make before the provider is asked, the chats' audit block written once per finished audit and read from the
// store after that, and a streamed reply that finishes (meter settled, transcript kept) when its reader goes away.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../../worker/index";
import { getDb } from "../../../worker/platform/db/client";
import { createAudit, reopenSteps, updateAuditSummary } from "../../../worker/features/audits/queries";
import { latestProspectAuditView } from "../../../worker/features/audits/read";
import { findingsChatBlock } from "../../../worker/features/reports/rules/findings";
import { globalCapKey, reportCapKey } from "../../../worker/domain/metering";
import type { UsageEventMessage } from "../../../worker/platform/env";
import { FAKE_SITE_BUSINESS } from "../../fakes/audit-data";
import { auditEnv, bindings, drain, makeProspect } from "../audits/audit-fixtures";
import { BASE, callWorker, signUpAdmin, testIp } from "../helpers";
import { traceD1 } from "../d1-trace";
import { aiEnv, deliver, readReport, recorder, seedReport } from "../reports/reports-fixtures";

const ask = (content: string) => ({ messages: [{ role: "user", content }] });

/** A finished audit of the prospect (every step skipped: no search key, no website), as the audits consumer leaves one. */
async function finishedAudit(prospectId: string, userId: string) {
  const db = getDb(env);
  const audit = await createAudit(db, {
    kind: "prospect",
    prospectId,
    userId,
    subject: { name: "Ridge Roofing", website: null, keyword: "roofer in austin", area: "Austin, TX", phone: null, address: null },
    skipped: { find: "no search key", fetch: "no website", speed: "no website", rank: "no search key" },
  });
  await updateAuditSummary(db, audit.id, true, null);
  return audit.id;
}

function aiBindings(db: D1Database) {
  return { DB: db, AI_API_KEY: "test-key", USAGE_EVENTS: recorder<UsageEventMessage>().queue };
}

describe("sequential D1 round trips before the AI call", () => {
  it("public chat: 1 (the turn's reads, counts and the reservation in one batch), stored block or not", async () => {
    const admin = await signUpAdmin();
    const seeded = await seedReport("", { queued: false });
    await finishedAudit(seeded.prospect.id, admin.user.id);
    // The first message writes the audit's block from its steps (read in the same batch); the second reads it stored.
    for (const message of ["first", "second"]) {
      const trace = traceD1();
      const res = await trace.watchAi(() =>
        callWorker(`/api/shared/chat/${seeded.id}/messages`, { method: "POST", stream: true, json: ask(`Do you fix leaks? ${message}`) }, aiBindings(trace.db)),
      );
      expect(res.status).toBe(200);
      expect(res.text).toContain("event: delta");
      expect(trace.calledAi()).toBe(true);
      expect(trace.depthBeforeAi(), trace.describe()).toBe(1);
    }
  });

  it("admin chat: at most 3 (the session, the subject and audit beside the allowance, then the reservation)", async () => {
    const admin = await signUpAdmin();
    const seeded = await seedReport("", { queued: false });
    await finishedAudit(seeded.prospect.id, admin.user.id);
    const trace = traceD1();
    const res = await trace.watchAi(() =>
      callWorker(`/api/chat/${seeded.id}/messages`, { method: "POST", token: admin.session.access_token, json: ask("What should I fix first?") }, aiBindings(trace.db)),
    );
    expect(res.status).toBe(200);
    expect(trace.calledAi()).toBe(true);
    expect(trace.depthBeforeAi(), trace.describe()).toBeLessThanOrEqual(3);
  });

  it("report job: at most 3 (report, prospect and audit in one batch; the allowance; the claim with the reservation)", async () => {
    const admin = await signUpAdmin();
    const seeded = await seedReport("[fake:ok]");
    await finishedAudit(seeded.prospect.id, admin.user.id);
    const trace = traceD1();
    const global = () => env.DB.prepare("select reserved_micro, settled_micro from meter_counters where key = ?").bind(globalCapKey(new Date())).first<{ reserved_micro: number; settled_micro: number }>();
    const settledBefore = (await global())?.settled_micro ?? 0;
    const { result } = await trace.watchAi(() => deliver("report-jobs", [{ body: { reportId: seeded.id } }], { ...aiEnv(), DB: trace.db }));
    expect(result.explicitAcks).toHaveLength(1);
    expect(await readReport(seeded.id)).toMatchObject({ status: "ready", source: "ai" });
    // The settle ran inside the save's batch: nothing stays reserved, and the call is counted.
    const after = await global();
    expect(after!.reserved_micro).toBe(0);
    expect(after!.settled_micro).toBeGreaterThan(settledBefore);
    expect(trace.calledAi()).toBe(true);
    expect(trace.depthBeforeAi(), trace.describe()).toBeLessThanOrEqual(3);
    // The last round trip before the AI is the claim with the call's reservation (1 + 4 statements), not a write of its own.
    expect(trace.describe().split("\n").at(-1), trace.describe()).toBe("3: batch of 5");
  });
});

/** The system prompts the fake AI received for messages carrying `mark`, in order. */
async function systemPrompts(mark: string): Promise<string[]> {
  const res = await fetch(`${env.AI_BASE_URL!.replace(/\/v1$/, "")}/__requests`);
  const { requests } = (await res.json()) as { requests: { body: { messages?: { role: string; content: string }[] } }[] };
  return requests
    .filter((r) => r.body?.messages?.some((m) => m.role === "user" && m.content.includes(mark)))
    .map((r) => r.body.messages!.find((m) => m.role === "system")!.content);
}

describe("the chats' audit block", () => {
  it("is written once per finished audit, read from the store after that, and never outlives a re-run of the audit", async () => {
    const t = auditEnv({ AI_API_KEY: "test", USAGE_EVENTS: recorder<UsageEventMessage>().queue });
    const mark = `blk${crypto.randomUUID().slice(0, 8)}`;
    const prospectId = await makeProspect(t, { name: "Joe's Plumbing", keyword: FAKE_SITE_BUSINESS.keyword, phone: FAKE_SITE_BUSINESS.phone, website: `${env.TEST_WEBSITE_URL}/site/` });
    await drain(t);
    const db = getDb(env);
    const reportId = (await env.DB.prepare("select id from seo_reports where prospect_id = ?").bind(prospectId).first<{ id: string }>())!.id;
    const audit = (await env.DB.prepare("select id, finished_at from audits where prospect_id = ? and status = 'done'").bind(prospectId).first<{ id: string; finished_at: string }>())!;
    const send = async (n: number) => {
      const res = await callWorker(`/api/shared/chat/${reportId}/messages`, { method: "POST", stream: true, json: ask(`Why am I not found? ${mark}-${n}`) }, bindings(t));
      expect(res.status).toBe(200);
      return (await systemPrompts(`${mark}-${n}`))[0]!;
    };
    const stored = () => env.DB.prepare("select audit_finished_at, block from audit_chat_blocks where audit_id = ?").bind(audit.id).first<{ audit_finished_at: string; block: string }>();

    // First message: the block from the audit's view, as the chat always wrote it, and stored for this finish.
    const expected = findingsChatBlock(await latestProspectAuditView(db, prospectId, { publicView: true }));
    expect(expected).toContain("SEO potential score:");
    expect(await send(1)).toContain(expected);
    expect(await stored()).toEqual({ audit_finished_at: audit.finished_at, block: expected });

    // Later messages read the stored block, not the steps.
    await env.DB.prepare("update audit_chat_blocks set block = ? where audit_id = ?").bind(`STORED BLOCK ${mark}`, audit.id).run();
    expect(await send(2)).toContain(`STORED BLOCK ${mark}`);

    // Steps run again (a listing picked by hand, as POST /api/audits/:id/listing does it): the stored block no longer
    // holds; the chat writes from the steps.
    await reopenSteps(db, audit.id, ["find", "rank"], null);
    t.sent.push({ auditId: audit.id, step: "find" });
    const running = findingsChatBlock(await latestProspectAuditView(db, prospectId, { publicView: true }));
    expect(running).not.toBe(expected);
    const third = await send(3);
    expect(third).toContain(running);
    expect(third).not.toContain(`STORED BLOCK ${mark}`);
    expect((await stored())!.block).toBe(`STORED BLOCK ${mark}`);

    // Done again: a new finish, a new block stored for it.
    await drain(t);
    const finished = (await env.DB.prepare("select finished_at from audits where id = ?").bind(audit.id).first<{ finished_at: string }>())!.finished_at;
    expect(finished).not.toBe(audit.finished_at);
    const again = findingsChatBlock(await latestProspectAuditView(db, prospectId, { publicView: true }));
    expect(await send(4)).toContain(again);
    expect(await stored()).toEqual({ audit_finished_at: finished, block: again });
  });

  it("is the same for the admin's chat and the public one", async () => {
    const t = auditEnv({ AI_API_KEY: "test", USAGE_EVENTS: recorder<UsageEventMessage>().queue });
    const prospectId = await makeProspect(t, { name: "Joe's Plumbing", keyword: FAKE_SITE_BUSINESS.keyword, phone: FAKE_SITE_BUSINESS.phone, website: `${env.TEST_WEBSITE_URL}/site/` });
    await drain(t);
    const db = getDb(env);
    const admin = findingsChatBlock(await latestProspectAuditView(db, prospectId));
    const shared = findingsChatBlock(await latestProspectAuditView(db, prospectId, { publicView: true }));
    expect(admin).toContain("SEO potential score:");
    expect(shared).toBe(admin);
  });
});

describe("a streamed reply whose reader goes away", () => {
  it("still settles the meter and keeps the transcript (the reply runs in waitUntil)", async () => {
    const seeded = await seedReport("", { queued: false });
    const sessionId = crypto.randomUUID();
    // The fake holds its answer past the AI time-out: the reply is still running when the reader leaves.
    const req = new Request(`${BASE}/api/shared/chat/${seeded.id}/messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream", "CF-Connecting-IP": testIp() },
      body: JSON.stringify({ messages: [{ role: "user", content: "Are you open on Sunday? [fake:slow]" }], session_id: sessionId }),
    });
    const ctx = createExecutionContext();
    const res = await worker.fetch(req, { ...env, ...aiBindings(env.DB) } as never, ctx);
    expect(res.status).toBe(200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const first = await reader.read();
    expect(first.value).toContain("event: start");
    await reader.cancel();
    await waitOnExecutionContext(ctx);

    const key = reportCapKey(seeded.id, new Date());
    const open = await env.DB.prepare("select count(*) as n from meter_reservations r where exists (select 1 from json_each(r.keys) where value = ?)")
      .bind(key)
      .first<{ n: number }>();
    expect(open!.n).toBe(0);
    const counter = await env.DB.prepare("select reserved_micro, settled_micro from meter_counters where key = ?").bind(key).first<{ reserved_micro: number; settled_micro: number }>();
    // A time-out may have been billed: the prompt is settled, nothing stays reserved.
    expect(counter).toMatchObject({ reserved_micro: 0 });
    expect(counter!.settled_micro).toBeGreaterThan(0);
    const turns = await env.DB.prepare("select m.role from chat_messages m join chat_sessions s on s.id = m.session_id where s.report_id = ? and s.visitor_id = ?")
      .bind(seeded.id, sessionId)
      .all<{ role: string }>();
    expect(turns.results.map((r) => r.role).sort()).toEqual(["assistant", "user"]);
  });
});
