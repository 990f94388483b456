// The clients view (issue 41): a client's row is written when its capability announces that a group of figures
// changed (the group read from that capability, the health mark worked out again), filled by the cron for clients no
// event touched, and read as one list: sorted by health with the reasons in words, filtered, searched, "my clients",
// as CSV; the account manager must be an admin; each admin's hidden columns and saved views are kept; admins only.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { announce } from "../../../worker/platform/events";
import { getDb } from "../../../worker/platform/db/client";
import { fillClientRows, refreshGroup } from "../../../worker/features/command-center/clients";
import { CLIENT_FIGURE_GROUPS } from "../../../worker/platform/events";
import type { Env } from "../../../worker/platform/env";
import { traceD1 } from "../d1-trace";
import { sweepAttention } from "../../../worker/features/command-center/attention";
import { api, callWorker, signUp, signUpAdmin } from "../helpers";

type Row = { userId: string; name: string; health: { level: string; text: string; reasons: string[] }; reviews: Record<string, number | null> | null; manager: { id: string } | null; updatedAt: string | null };
type Page = { clients: Row[]; total: number; page: number; admins: { id: string }[]; settings: { hiddenColumns: string[]; views: unknown[] } };

let admin: Awaited<ReturnType<typeof signUpAdmin>>;
beforeAll(async () => {
  admin = await signUpAdmin();
});

async function clients(query = ""): Promise<Page> {
  const res = await api(`/api/agency/clients${query}`, { token: admin.session.access_token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Page;
}

async function business(name: string) {
  const user = await signUp();
  await env.DB.prepare("update profiles set company_name = ? where id = ?").bind(name, user.user.id).run();
  return user.user.id;
}

async function review(userId: string, stars: number, hoursAgo: number, reply: string | null = null) {
  const id = crypto.randomUUID();
  const at = new Date(Date.now() - hoursAgo * 3600_000).toISOString();
  await env.DB.prepare(
    "insert into reviews (id, user_id, location_name, google_review_id, google_name, reviewer_name, stars, comment, create_time, update_time, reply_comment) values (?, ?, 'accounts/1/locations/2', ?, ?, 'Dana', ?, 'Late again.', ?, ?, ?)",
  )
    .bind(id, userId, `g-${id}`, `accounts/1/locations/2/reviews/g-${id}`, stars, at, at, reply)
    .run();
}

describe("a client's row", () => {
  it("is updated after an event in two D1 round trips whatever the group: one batch read, one write", async () => {
    const userId = await business(`Round Trip Roofing ${crypto.randomUUID().slice(0, 6)}`);
    await review(userId, 2, 30);
    for (const group of CLIENT_FIGURE_GROUPS) {
      const trace = traceD1();
      await refreshGroup({ ...env, DB: trace.db } as Env, getDb({ ...env, DB: trace.db } as Env), userId, group);
      expect(trace.calls(), `${group}:\n${trace.describe()}`).toBe(2);
    }
    const row = await env.DB.prepare("select reviews, usage from client_summaries where user_id = ?").bind(userId).first<{ reviews: string; usage: string }>();
    expect(JSON.parse(row!.reviews)).toMatchObject({ total: 1, lowUnanswered: 1 });
    expect(JSON.parse(row!.usage)).toMatchObject({ spentCents: 0 });
  });

  it("is written when its reviews change, with the health mark and its reasons, and read in one list", async () => {
    const tag = crypto.randomUUID().slice(0, 6);
    const fine = await business(`Fine Plumbing ${tag}`);
    const bad = await business(`Leaky Roofing ${tag}`);
    await review(bad, 1, 40);
    await review(bad, 2, 30);
    await review(bad, 5, 20, "Thanks!");
    await review(fine, 5, 10, "Thank you!");
    const db = getDb(env);
    await announce("client.figures-changed", { env, db, userId: bad, group: "reviews" });
    await announce("client.figures-changed", { env, db, userId: fine, group: "reviews" });

    const page = await clients(`?q=${tag}`);
    expect(page.clients.map((c) => c.name)).toEqual([`Leaky Roofing ${tag}`, `Fine Plumbing ${tag}`]);
    const [leaky, plumbing] = page.clients;
    expect(leaky!.reviews).toMatchObject({ total: 3, unanswered: 2, lowUnanswered: 2 });
    // Unanswered low reviews are watched at once, and acted on once they are the attention queue's items (a day on).
    expect(leaky!.health.level).toBe("watch");
    expect(leaky!.health.reasons).toContain("2 new low reviews to answer");
    expect(plumbing!.health.level).not.toBe("act");
    await sweepAttention(env);
    const acting = (await clients(`?q=${tag}`)).clients.find((c) => c.userId === bad)!;
    expect(acting.health.level).toBe("act");
    expect(acting.health.text).toContain("2 low reviews unanswered");
    // Answered, the mark clears.
    await env.DB.prepare("update reviews set reply_comment = 'Sorry', reply_state = 'published' where user_id = ?").bind(bad).run();
    await announce("client.figures-changed", { env, db, userId: bad, group: "reviews" });
    await sweepAttention(env);
    const after = (await clients(`?q=${tag}`)).clients.find((c) => c.userId === bad)!;
    expect(after.health.reasons.join(" ")).not.toContain("low review");
  });

  it("is filled by the cron for a client no event has touched", async () => {
    const tag = crypto.randomUUID().slice(0, 6);
    const quiet = await business(`Quiet HVAC ${tag}`);
    expect((await clients(`?q=${tag}`)).clients[0]!.updatedAt).toBeNull();
    for (let i = 0; i < 10 && (await clients(`?q=${tag}`)).clients[0]!.updatedAt === null; i++) await fillClientRows(env);
    const row = (await clients(`?q=${tag}`)).clients[0]!;
    expect(row.userId).toBe(quiet);
    expect(row.updatedAt).not.toBeNull();
    expect(row.reviews).toMatchObject({ total: 0 });
  });
});

describe("the list", () => {
  it("filters, searches, pages, keeps my clients, and exports what the filters keep as CSV", async () => {
    const tag = crypto.randomUUID().slice(0, 6);
    const a = await business(`Alpha Pest ${tag}`);
    await business(`Beta Pest ${tag}`);
    const second = await signUpAdmin();
    const set = await api(`/api/agency/clients/${a}`, { method: "PUT", token: admin.session.access_token, body: JSON.stringify({ managerId: admin.user.id }) });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await clients(`?q=${tag}&manager=me`)).clients.map((c) => c.userId)).toEqual([a]);
    expect((await clients(`?q=${tag}&manager=${second.user.id}`)).clients).toEqual([]);
    expect((await clients(`?q=${tag}&filter=no_manager`)).clients.map((c) => c.name)).toEqual([`Beta Pest ${tag}`]);
    expect((await clients(`?q=${tag}&sort=name`)).clients.map((c) => c.name)).toEqual([`Alpha Pest ${tag}`, `Beta Pest ${tag}`]);
    const all = await clients();
    expect(all.clients.some((c) => c.userId === admin.user.id)).toBe(false); // admins are not clients
    expect(all.admins.map((x) => x.id)).toEqual(expect.arrayContaining([admin.user.id, second.user.id]));

    const csv = await callWorker(`/api/agency/clients/export.csv?q=${tag}&sort=name`, { token: admin.session.access_token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    const lines = csv.text.trim().split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`"Alpha Pest ${tag}"`);
    expect(lines[1]).toContain(admin.user.email!);
  });

  it("refuses a manager who is not an admin, an unknown client, bad input, and anyone but an admin", async () => {
    const client = await business("Gamma Roofing");
    const user = await signUp();
    const notAdmin = await api(`/api/agency/clients/${client}`, { method: "PUT", token: admin.session.access_token, body: JSON.stringify({ managerId: user.user.id }) });
    expect(notAdmin.status).toBe(400);
    const unknown = await api(`/api/agency/clients/${crypto.randomUUID()}`, { method: "PUT", token: admin.session.access_token, body: JSON.stringify({ managerId: null }) });
    expect(unknown.status).toBe(404);
    const badSort = await api("/api/agency/clients?sort=shoe-size", { token: admin.session.access_token });
    expect(badSort.status).toBe(400);
    for (const path of ["/api/agency/clients", "/api/agency/clients/export.csv", "/api/agency/views"]) {
      expect((await api(path, { token: user.session.access_token })).status, path).toBe(403);
    }
  });

  it("keeps each admin's hidden columns and saved views", async () => {
    const body = { hiddenColumns: ["plan", "usage"], views: [{ name: "Needs action", sort: "health", filter: "act", q: "", manager: "me" }] };
    const saved = await api("/api/agency/views", { method: "PUT", token: admin.session.access_token, body: JSON.stringify(body) });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await clients()).settings).toEqual(body);
    const other = await signUpAdmin();
    expect((await api("/api/agency/views", { token: other.session.access_token })).body).toEqual({ hiddenColumns: [], views: [] });
    const bad = await api("/api/agency/views", { method: "PUT", token: admin.session.access_token, body: JSON.stringify({ hiddenColumns: ["shoe"], views: [] }) });
    expect(bad.status).toBe(400);
  });
});
