// The guard on Google profiles (issue 41), through the real gbp-guard consumer against the fake Business Profile APIs:
// the nightly claim (each location once a night), Google's edits and outside edits found once however often a message
// is delivered, accept and reject as patches Google receives (the owner's value on reject), the risk check before a
// value is sent, the verification state, a location Google does not answer retried and then shown "could not be
// checked", and who may read and decide. The attention queue's items follow the guard's findings.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { Env, GbpGuardMessage } from "../../../worker/platform/env";
import { guardNight, sweepGuard } from "../../../worker/features/gbp-guard/check";
import { GUARD_WORDING } from "../../../worker/features/gbp-guard/rules/guard";
import { api, callWorker, signUp, signUpAdmin } from "../helpers";
import { connectedGoogleUser } from "../integrations/google-connect";
import { consumerSettings, deliver, queueEnv } from "../reports/reports-fixtures";

type GuardBody = {
  connection: string;
  locations: { locationName: string; status: string; checkText: string; verified: boolean | null; voiceAction: string | null; voiceText: string | null }[];
  open: { id: string; field: string; source: string; beforeText: string; afterText: string; status: string; rejectRisks: { code: string }[]; acceptRisks: { code: string }[] }[];
  recent: { id: string; status: string }[];
};
type Attention = { items: { id: string; kind: string; title: string; status: string; changeId: string | null; client: { userId: string } }[] };

const fake = (path: string, init?: RequestInit) => fetch(`${env.TEST_GOOGLE_BASE_URL}${path}`, init);

/** Sets the fake Google's state of one location (owner's fields, Google's, masks, verification, failures). */
async function googleSays(locationId: string, update: Record<string, unknown>) {
  const res = await fake(`/__gbp/locations/${locationId}`, { method: "POST", body: JSON.stringify(update) });
  expect(res.status).toBe(200);
}

async function patchesOf(locationId: string): Promise<{ updateMask: string[]; body: Record<string, any> }[]> {
  return ((await (await fake(`/__gbp/patches?location=locations/${locationId}`)).json()) as { patches: { updateMask: string[]; body: Record<string, any> }[] }).patches;
}

/**
 * A user connected to the fake Google, watching a location of its own: a fresh location id per test, so the fake's
 * state (shared with every other test file) is this test's alone. Its profile names the real business.
 */
async function watcher() {
  const user = await connectedGoogleUser();
  const locationId = String(9_000_000 + Math.floor(Math.random() * 999_999));
  const name = `accounts/1001/locations/${locationId}`;
  await env.DB.batch([
    env.DB.prepare("update gbp_connections set chosen_locations = ? where user_id = ?").bind(JSON.stringify([{ name, title: "Ridge Roofing — Austin", address: "Austin, TX", canOperateLocalPost: true }]), user.user.id),
    env.DB.prepare("update profiles set company_name = 'Ridge Roofing', company_location = 'Austin, TX' where id = ?").bind(user.user.id),
  ]);
  return { user, token: user.session.access_token, userId: user.user.id, locationId, name };
}

/** The guard's row id of the watcher's location after a sweep has seen it. */
async function rowId(userId: string): Promise<string> {
  const row = await env.DB.prepare("select id from gbp_guard_locations where user_id = ?").bind(userId).first<{ id: string }>();
  return row!.id;
}

/** Tonight's sweep with a recording queue; answers the messages it sent. */
async function sweep(now = new Date()) {
  const q = queueEnv<GbpGuardMessage>("GBP_GUARD");
  await sweepGuard(q.env, now);
  return q.sent;
}

/** One check of the watcher's location through the real consumer (`attempts`: which delivery). */
async function check(userId: string, attempts = 1) {
  const id = await rowId(userId);
  await env.DB.prepare("update gbp_guard_locations set status = 'queued', claimed_at = ? where id = ? and status <> 'checking'").bind(new Date().toISOString(), id).run();
  const { result, delays } = await deliver("gbp-guard", [{ body: { locationIds: [id] }, attempts }], { ...env, GBP_GUARD: queueEnv("GBP_GUARD").env.GBP_GUARD } as Env);
  return { outcome: result.explicitAcks.length ? "ack" : "retry", delays };
}

async function guard(token: string, business = "own") {
  const res = await api(`/api/gbp/guard?business=${business}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as GuardBody;
}

let admin: Awaited<ReturnType<typeof signUpAdmin>>;
beforeEach(async () => {
  admin ??= await signUpAdmin();
});

async function attention(userId: string, status = "open"): Promise<Attention["items"]> {
  const res = await api(`/api/agency/attention?status=${status}&userId=${userId}`, { token: admin.session.access_token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as Attention).items;
}

describe("the nightly guard", () => {
  it("claims each watched location once a night, and again the next night", async () => {
    const w = await watcher();
    const night = new Date();
    const first = (await sweep(night)).flatMap((m) => m.locationIds);
    const id = await rowId(w.userId);
    expect(first).toContain(id);
    expect((await sweep(night)).flatMap((m) => m.locationIds)).not.toContain(id);
    const row = await env.DB.prepare("select night, status from gbp_guard_locations where id = ?").bind(id).first<{ night: string; status: string }>();
    expect(row).toEqual({ night: guardNight(night), status: "queued" });
    const tomorrow = new Date(night.getTime() + 24 * 3600_000);
    await env.DB.prepare("update gbp_guard_locations set status = 'checked' where id = ?").bind(id).run();
    expect((await sweep(tomorrow)).flatMap((m) => m.locationIds)).toContain(id);
  });

  it("declares its queue with a dead-letter queue and few locations a message", () => {
    const settings = consumerSettings("gbp-guard", 3);
    expect(settings).toContain("max_batch_size = 2");
  });
});

describe("the owner's own edit through Porchlight", () => {
  it("is checked before it is sent: a risky name or an address change only when confirmed; the next check does not report it", async () => {
    const w = await watcher();
    await sweep();
    await check(w.userId);
    const edit = (edit: Record<string, unknown>, confirmRisks?: boolean) =>
      api("/api/gbp/guard/edit", { method: "POST", token: w.token, body: JSON.stringify({ locationName: w.name, edit, ...(confirmRisks ? { confirmRisks } : {}) }) });

    // A city and "best" in the name: refused with the reasons, nothing sent.
    const risky = await edit({ field: "title", title: "Best Ridge Roofing Austin" });
    expect(risky.status, JSON.stringify(risky.body)).toBe(409);
    expect(risky.body.error.code).toBe("edit_risky");
    expect((risky.body.error.risks as { code: string }[]).map((r) => r.code).sort()).toEqual(["name_city", "name_keywords", "name_superlative"]);
    expect(await patchesOf(w.locationId)).toEqual([]);

    // A new address: Google may ask to verify again; a PO box is not a business address.
    const moved = await edit({ field: "storefrontAddress", addressLines: ["PO Box 1234"], locality: "Austin", administrativeArea: "TX", postalCode: "78701" });
    expect(moved.status).toBe(409);
    expect((moved.body.error.risks as { code: string }[]).map((r) => r.code)).toEqual(expect.arrayContaining(["address_change", "po_box"]));

    // A safe edit goes at once; a risky one once confirmed. Google receives each with its update mask.
    const phone = await edit({ field: "phoneNumbers", primaryPhone: "(512) 555-0142" });
    expect(phone.status, JSON.stringify(phone.body)).toBe(200);
    expect(phone.body).toMatchObject({ field: "phoneNumbers", text: "(512) 555-0142" });
    const confirmed = await edit({ field: "title", title: "Best Ridge Roofing Austin" }, true);
    expect(confirmed.status).toBe(200);
    const patches = await patchesOf(w.locationId);
    expect(patches.map((p) => p.updateMask)).toEqual([["phoneNumbers"], ["title"]]);
    expect(patches[0]!.body).toEqual({ phoneNumbers: { primaryPhone: "(512) 555-0142" } });
    expect(patches[1]!.body).toEqual({ title: "Best Ridge Roofing Austin" });

    // Our own edits are in the snapshot: the next check finds nothing changed outside Porchlight.
    await check(w.userId);
    expect((await guard(w.token)).open).toEqual([]);
  });

  it("refuses bad input, a location the guard does not watch, and anyone else's location", async () => {
    const w = await watcher();
    await sweep();
    await check(w.userId);
    const post = (body: unknown, token = w.token, business = "own") => api(`/api/gbp/guard/edit?business=${business}`, { method: "POST", token, body: JSON.stringify(body) });
    const bad = await post({ locationName: w.name, edit: { field: "websiteUri", websiteUri: "not a site" } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("A web address starting with https://");
    expect((await post({ locationName: w.name, edit: { field: "categories", categories: [] } })).status).toBe(400);
    expect((await post({ locationName: "accounts/1/locations/404", edit: { field: "title", title: "Ridge Roofing" } })).status).toBe(404);
    const stranger = await signUp();
    expect((await post({ locationName: w.name, edit: { field: "title", title: "Ridge Roofing" } }, stranger.session.access_token)).status).toBe(404);
    expect((await post({ locationName: w.name, edit: { field: "title", title: "Ridge Roofing" } }, stranger.session.access_token, w.userId)).status).toBe(403);
    // The agency, acting for its client: sent as the client's.
    const acting = await post({ locationName: w.name, edit: { field: "websiteUri", websiteUri: "https://ridgeroofing.example/" } }, admin.session.access_token, w.userId);
    expect(acting.status, JSON.stringify(acting.body)).toBe(200);
    expect((await patchesOf(w.locationId)).at(-1)!.updateMask).toEqual(["websiteUri"]);
  });
});

describe("Google's edits", () => {
  it("are found once, shown side by side, and rejected with the owner's value sent to Google", async () => {
    const w = await watcher();
    await googleSays(w.locationId, { google: { phoneNumbers: { primaryPhone: "(512) 555-0177" } }, diffMask: ["phoneNumbers.primaryPhone"] });
    await sweep();
    expect((await check(w.userId)).outcome).toBe("ack");
    await check(w.userId); // delivered again: nothing found twice
    const body = await guard(w.token);
    expect(body.open).toHaveLength(1);
    const change = body.open[0]!;
    expect(change).toMatchObject({ field: "phoneNumbers", source: "google", afterText: "(512) 555-0177, (512) 555-0199", status: "open" });
    expect(change.beforeText).not.toBe(change.afterText);
    expect(body.locations[0]).toMatchObject({ status: "checked", verified: true });

    const items = await attention(w.userId);
    expect(items.map((i) => i.kind)).toEqual(["google_updated"]);
    expect(items[0]!.changeId).toBe(change.id);

    const ownerPhone = ((await (await fake(`/__gbp/locations/${w.locationId}`)).json()) as { location: { owner: { phoneNumbers: { primaryPhone: string } } } }).location.owner.phoneNumbers.primaryPhone;
    const rejected = await api(`/api/gbp/guard/${change.id}/reject`, { method: "POST", token: w.token });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body.change.status).toBe("rejected");
    const [patch] = await patchesOf(w.locationId);
    expect(patch!.updateMask).toEqual(["phoneNumbers"]);
    expect(patch!.body.phoneNumbers.primaryPhone).toBe(ownerPhone);
    expect(change.beforeText).toContain(ownerPhone);
    expect(await attention(w.userId)).toEqual([]);
    expect((await attention(w.userId, "done")).map((i) => i.status)).toEqual(["closed"]);

    // Decided once: a second click is refused, and the next check sees no change (Google shows the owner's value now).
    const again = await api(`/api/gbp/guard/${change.id}/reject`, { method: "POST", token: w.token });
    expect(again.status).toBe(409);
    await check(w.userId);
    expect((await guard(w.token)).open).toEqual([]);
  });

  it("accepting patches Google's value in; a name with a city or 'best' is sent only when confirmed", async () => {
    const w = await watcher();
    await googleSays(w.locationId, { google: { title: "Ridge Roofing Austin - Best Roofer" }, diffMask: ["title"] });
    await sweep();
    await check(w.userId);
    const change = (await guard(w.token)).open[0]!;
    expect(change.acceptRisks.map((r) => r.code)).toEqual(expect.arrayContaining(["name_city", "name_superlative"]));
    const refused = await api(`/api/gbp/guard/${change.id}/accept`, { method: "POST", token: w.token });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("edit_risky");
    expect(refused.body.error.risks.length).toBeGreaterThan(0);
    expect(await patchesOf(w.locationId)).toEqual([]);
    const accepted = await api(`/api/gbp/guard/${change.id}/accept`, { method: "POST", token: w.token, body: JSON.stringify({ confirmRisks: true }) });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((await patchesOf(w.locationId))[0]).toMatchObject({ updateMask: ["title"], body: { title: "Ridge Roofing Austin - Best Roofer" } });
  });

  it("an edit made outside Porchlight shows as a change of its own", async () => {
    const w = await watcher();
    await sweep();
    await check(w.userId); // the first check keeps the snapshot
    expect((await guard(w.token)).open).toEqual([]);
    await googleSays(w.locationId, { owner: { websiteUri: "https://ridge-roofing.example/new" } });
    await check(w.userId);
    const [change] = (await guard(w.token)).open;
    expect(change).toMatchObject({ field: "websiteUri", source: "outside", afterText: "https://ridge-roofing.example/new" });
    // Accepting an outside edit keeps it: nothing is sent to Google.
    const accepted = await api(`/api/gbp/guard/${change!.id}/accept`, { method: "POST", token: w.token });
    expect(accepted.status).toBe(200);
    expect(await patchesOf(w.locationId)).toEqual([]);
  });

  it("a change Google takes back closes itself", async () => {
    const w = await watcher();
    await googleSays(w.locationId, { google: { websiteUri: "https://elsewhere.example" }, diffMask: ["websiteUri"] });
    await sweep();
    await check(w.userId);
    const [change] = (await guard(w.token)).open;
    await googleSays(w.locationId, { google: { websiteUri: null }, diffMask: [] });
    await check(w.userId);
    const body = await guard(w.token);
    expect(body.open).toEqual([]);
    expect(body.recent.find((c) => c.id === change!.id)?.status).toBe("gone");
    expect(await attention(w.userId)).toEqual([]);
  });
});

describe("verification", () => {
  it("a suspension is the most urgent item; verified again, it closes", async () => {
    const w = await watcher();
    await googleSays(w.locationId, { voiceOfMerchant: "suspended", google: { phoneNumbers: { primaryPhone: "(512) 555-0188" } }, diffMask: ["phoneNumbers"] });
    await sweep();
    await check(w.userId);
    const [location] = (await guard(w.token)).locations;
    expect(location).toMatchObject({ verified: false, voiceAction: "comply_with_guidelines" });
    expect(location!.voiceText).toContain("suspended");
    const items = await attention(w.userId);
    expect(items.map((i) => i.kind)).toEqual(["verification_lost", "google_updated"]);
    expect(items[0]!.title).toContain("suspended");
    await googleSays(w.locationId, { voiceOfMerchant: "verified" });
    await check(w.userId);
    expect((await attention(w.userId)).map((i) => i.kind)).toEqual(["google_updated"]);
  });
});

describe("a location Google does not answer", () => {
  it("is retried, then shown as could not be checked, never as no changes", async () => {
    const w = await watcher();
    await googleSays(w.locationId, { failGoogleUpdated: 10 });
    await sweep();
    const first = await check(w.userId, 1);
    expect(first.outcome).toBe("retry");
    expect((await guard(w.token)).locations[0]!.status).toBe("queued");
    const last = await check(w.userId, 4);
    expect(last.outcome).toBe("ack");
    const [location] = (await guard(w.token)).locations;
    expect(location!.status).toBe("failed");
    expect(location!.checkText).toContain("Google did not answer");
    expect(location!.checkText).not.toBe(GUARD_WORDING.noChanges);
  });
});

describe("who may read and decide", () => {
  it("another user cannot read or decide a business's changes; an admin can", async () => {
    const w = await watcher();
    await googleSays(w.locationId, { google: { websiteUri: "https://spam.example" }, diffMask: ["websiteUri"] });
    await sweep();
    await check(w.userId);
    const change = (await guard(w.token)).open[0]!;
    const stranger = await signUp();
    const read = await api(`/api/gbp/guard?business=${w.userId}`, { token: stranger.session.access_token });
    expect(read.status).toBe(403);
    const decide = await api(`/api/gbp/guard/${change.id}/reject`, { method: "POST", token: stranger.session.access_token });
    expect(decide.status).toBe(404);
    const viewAs = await api(`/api/gbp/guard/${change.id}/reject`, { method: "POST", token: admin.session.access_token, viewAs: w.userId });
    expect(viewAs.status).toBe(403);
    const asAdmin = await guard(admin.session.access_token, w.userId);
    expect(asAdmin.open.map((c) => c.id)).toEqual([change.id]);
    const bad = await api(`/api/gbp/guard/${change.id}/reject`, { method: "POST", token: admin.session.access_token, body: "{not json" });
    expect(bad.status).toBe(400);
    const rejected = await api(`/api/gbp/guard/${change.id}/reject`, { method: "POST", token: admin.session.access_token, body: JSON.stringify({ confirmRisks: false }) });
    expect(rejected.status).toBe(200);
    const row = await env.DB.prepare("select resolved_by from gbp_guard_changes where id = ?").bind(change.id).first<{ resolved_by: string }>();
    expect(row!.resolved_by).toBe(admin.user.id);
  });

  it("check now queues the owner's locations once", async () => {
    const w = await watcher();
    await sweep();
    await env.DB.prepare("update gbp_guard_locations set status = 'checked' where user_id = ?").bind(w.userId).run();
    const q = queueEnv<GbpGuardMessage>("GBP_GUARD");
    const bindings = { GBP_GUARD: q.env.GBP_GUARD };
    const first = await callWorker("/api/gbp/guard/check?business=own", { method: "POST", token: w.token }, bindings);
    expect(first.status).toBe(202);
    const second = await callWorker("/api/gbp/guard/check?business=own", { method: "POST", token: w.token }, bindings);
    expect(second.status).toBe(202);
    expect(q.sent.flatMap((m) => m.locationIds)).toEqual([await rowId(w.userId)]);
  });
});
