// The pipeline (issue 42): every prospect on a stage (new until something happens), moved forward on its own by what it
// does (a report opened, a chat, a lead), never backward and never out of won or lost by an event, each move once
// however often its event is delivered; an admin moves it anywhere (PATCH /api/prospects/:id {stage}); the timeline
// keeps each thing it did and each move with its cause; the agency's webhooks hear `prospect.stage_changed`. Won →
// client: the invitation mailed, and the account set up from the prospect when the address is confirmed. Admins only.
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { Env, WebhooksOutMessage } from "../../../worker/platform/env";
import { emitProspectEvent } from "../../../worker/platform/notifications/emit";
import { api, callWorker, mailedLink, signUp, signUpAdmin, signUpUnconfirmed, uniqueEmail } from "../helpers";
import { recorder, seedReport } from "../reports/reports-fixtures";

type Board = { stages: { stage: string; count: number }[]; cards: { prospectId: string; name: string; stage: string; last: { text: string } | null; clientId: string | null; invitedAt: string | null }[] };
type Timeline = { stage: string; entries: { kind: string; text: string; by: string | null }[] };

let admin: Awaited<ReturnType<typeof signUpAdmin>>;
beforeAll(async () => {
  admin = await signUpAdmin();
});

const board = async (query = "") => {
  const res = await api(`/api/pipeline${query}`, { token: admin.session.access_token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Board;
};
const timeline = async (prospectId: string) => (await api(`/api/pipeline/${prospectId}`, { token: admin.session.access_token })).body as Timeline;
const cardOf = async (prospectId: string, query = "") => (await board(query)).cards.find((c) => c.prospectId === prospectId);

const happened = (prospectId: string, alert: "report_opened" | "chat_started" | "chat_lead", key = alert) =>
  emitProspectEvent(env as Env, { prospectId, reportId: null, alert, webhook: null, at: new Date().toISOString(), dedupeKey: `${prospectId}:${key}`, data: {} });

describe("the board", () => {
  it("puts a new prospect on New, and moves it forward on its own, once, never backward", async () => {
    const { prospect } = await seedReport("pipeline");
    expect((await cardOf(prospect.id))!.stage).toBe("new");

    await happened(prospect.id, "report_opened");
    await happened(prospect.id, "report_opened"); // the same open delivered twice
    const card = (await cardOf(prospect.id))!;
    expect(card.stage).toBe("engaged");
    const t = await timeline(prospect.id);
    expect(t.entries.filter((e) => e.kind === "moved").map((e) => e.text)).toEqual(["Moved to Engaged (opened the report)"]);
    expect(t.entries.some((e) => e.text === "Opened the report")).toBe(true);

    // An admin moves it on; a later chat does not move it back.
    const moved = await api(`/api/prospects/${prospect.id}`, { method: "PATCH", token: admin.session.access_token, body: JSON.stringify({ stage: "meeting" }) });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.stage).toBe("meeting");
    await happened(prospect.id, "chat_started");
    expect((await cardOf(prospect.id))!.stage).toBe("meeting");
    const after = await timeline(prospect.id);
    expect(after.entries[0]).toMatchObject({ kind: "chat_started", text: "Started a chat" });
    expect(after.entries.find((e) => e.kind === "moved")!.text).toBe(`Moved to Meeting (by ${admin.email.toLowerCase()})`);

    // Lost by hand: no event takes it out.
    await api(`/api/prospects/${prospect.id}`, { method: "PATCH", token: admin.session.access_token, body: JSON.stringify({ stage: "lost" }) });
    await happened(prospect.id, "chat_lead");
    expect((await cardOf(prospect.id))!.stage).toBe("lost");
  });

  it("counts every stage, filters by stage and search, and tells the webhooks of each move", async () => {
    const a = await seedReport("pipeline-filter", { name: `Filter Roofing ${crypto.randomUUID().slice(0, 6)}` });
    const before = (await board()).stages.find((s) => s.stage === "engaged")!.count;
    // The agency's endpoint for stage moves (deliveries recorded, not sent).
    const out = recorder<WebhooksOutMessage>();
    const hooked = { ...env, WEBHOOKS_OUT: out.queue } as Env;
    const added = await callWorker("/api/webhooks", { method: "POST", token: admin.session.access_token, json: { url: `${env.TEST_WEBHOOKS_URL}/hooks/pipeline-${crypto.randomUUID().slice(0, 6)}`, events: ["prospect.stage_changed"] } }, { WEBHOOKS_OUT: out.queue });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    await emitProspectEvent(hooked, { prospectId: a.prospect.id, reportId: null, alert: "chat_lead", webhook: null, at: new Date().toISOString(), dedupeKey: `${a.prospect.id}:lead`, data: {} });
    const all = await board();
    expect(all.stages.map((s) => s.stage)).toEqual(["new", "contacted", "engaged", "replied", "meeting", "won", "lost"]);
    expect(all.stages.find((s) => s.stage === "engaged")!.count).toBe(before + 1);
    const engaged = await board(`?stage=engaged&q=${encodeURIComponent(a.prospect.name.toLowerCase())}`);
    expect(engaged.cards.map((c) => c.prospectId)).toEqual([a.prospect.id]);
    expect(engaged.cards[0]!.last?.text).toMatch(/Moved to Engaged|Left contact details in the chat/);
    const t = await timeline(a.prospect.id);
    expect(t.entries.find((e) => e.kind === "moved")!.text).toBe("Moved to Engaged (left contact details in the chat)");
    // The endpoint's delivery: prospect.stage_changed with from, to and the cause.
    const delivery = await env.DB.prepare("select body from webhook_deliveries where endpoint_id = ? and event_type = 'prospect.stage_changed'").bind(added.body.endpoint.id).first<{ body: string }>();
    expect(JSON.parse(delivery!.body).data).toMatchObject({ prospect_id: a.prospect.id, from: "new", to: "engaged", cause: "chat_lead" });
    expect(out.sent.length).toBeGreaterThan(0);
  });

  it("refuses a stage that is not one, and is for admins only", async () => {
    const { prospect } = await seedReport("pipeline-refuse");
    const bad = await api(`/api/prospects/${prospect.id}`, { method: "PATCH", token: admin.session.access_token, body: JSON.stringify({ stage: "maybe" }) });
    expect(bad.status).toBe(400);
    const empty = await api(`/api/prospects/${prospect.id}`, { method: "PATCH", token: admin.session.access_token, body: JSON.stringify({}) });
    expect(empty.status).toBe(400);
    const user = await signUp();
    expect((await api("/api/pipeline", { token: user.session.access_token })).status).toBe(403);
    expect((await api(`/api/prospects/${prospect.id}/convert`, { method: "POST", token: user.session.access_token })).status).toBe(403);
    expect((await api(`/api/pipeline/${crypto.randomUUID()}`, { token: admin.session.access_token })).status).toBe(404);
  });
});

describe("won → client", () => {
  it("invites the prospect's address, and sets the account up from the prospect once the address is confirmed", async () => {
    const { prospect } = await seedReport("pipeline-convert", { companyName: "Peak Plumbing LLC" });
    const convert = () => api(`/api/prospects/${prospect.id}/convert`, { method: "POST", token: admin.session.access_token });
    const noEmail = await convert();
    expect(noEmail.status).toBe(422);
    expect(noEmail.body.error.code).toBe("prospect_email_required");

    const email = uniqueEmail("client");
    await env.DB.prepare("update prospects set email = ?, website = 'https://peakplumbing.example/' where id = ?").bind(email, prospect.id).run();
    const sent = await convert();
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.email).toBe(email.toLowerCase());
    const card = (await cardOf(prospect.id))!;
    expect(card).toMatchObject({ stage: "won", clientId: null });
    expect(card.invitedAt).not.toBeNull();
    const invite = await env.DB.prepare("select subject, body from outbox where to_email = ? and kind = 'client_invite'").bind(email.toLowerCase()).first<{ subject: string; body: string }>();
    expect(invite!.subject).toContain("Peak Plumbing LLC");
    expect(invite!.body).toContain(`/signup?email=${encodeURIComponent(email.toLowerCase())}`);

    // The client signs up with that address and confirms it: the profile is filled from the prospect, the report on.
    const made = await signUpUnconfirmed(email);
    await SELF.fetch(await mailedLink(email, "Confirm your Porchlight email address"), { redirect: "manual" });
    const profile = await env.DB.prepare("select company_name, company_website, company_location from profiles where id = ?").bind(made.user.id).first();
    expect(profile).toEqual({ company_name: "Peak Plumbing LLC", company_website: "https://peakplumbing.example/", company_location: "Austin, TX" });
    const settings = await env.DB.prepare("select enabled from client_report_settings where user_id = ?").bind(made.user.id).first<{ enabled: number }>();
    expect(settings!.enabled).toBe(1);
    expect((await cardOf(prospect.id))!.clientId).toBe(made.user.id);
    expect((await timeline(prospect.id)).entries.map((e) => e.kind)).toEqual(expect.arrayContaining(["invited", "client_joined"]));
    // Once a client, not invited again.
    expect((await convert()).status).toBe(409);
  });
});
