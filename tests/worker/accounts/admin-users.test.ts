// /api/admin/users: the list with search and filters, admin toggles (never on oneself, audited), and who may call them.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api, callRoute, expectViewingAs, signUp, signUpAdmin, uniqueEmail } from "../helpers";

let admin: Awaited<ReturnType<typeof signUpAdmin>>;
let token: string;

beforeAll(async () => {
  admin = await signUpAdmin();
  token = admin.session.access_token;
});

const users = (query = "", as = token) => api(`/api/admin/users${query ? `?${query}` : ""}`, { token: as });
const toggle = (id: string, isAdmin: boolean, as = token, viewAs?: string) =>
  api(`/api/admin/users/${id}`, { method: "PATCH", token: as, viewAs, body: JSON.stringify({ is_admin: isAdmin }) });

describe("GET /api/admin/users", () => {
  it("lists profiles newest first with the profile fields and created_at", async () => {
    const a = await signUp();
    const b = await signUp();
    const res = await users("limit=200");
    expect(res.status).toBe(200);
    const ids = res.body.users.map((u: { id: string }) => u.id);
    expect(ids.indexOf(b.user.id)).toBeLessThan(ids.indexOf(a.user.id));
    const row = res.body.users.find((u: { id: string }) => u.id === a.user.id);
    expect(row).toMatchObject({ id: a.user.id, email: a.email, is_admin: false, company_name: null });
    expect(row.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(res.body.counts.all).toBe(res.body.counts.admins + res.body.counts.regular);
    expect(res.body.total).toBe(res.body.counts.all);
  });

  it("searches email and company name case-insensitively", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const byEmail = await signUp(uniqueEmail(`findme${tag}`));
    const byCompany = await signUp();
    await env.DB.prepare("update profiles set company_name = ? where id = ?").bind(`Roof ${tag} LLC`, byCompany.user.id).run();

    const e = await users(`q=FINDME${tag}`);
    expect(e.body.users.map((u: { id: string }) => u.id)).toEqual([byEmail.user.id]);
    expect(e.body.total).toBe(1);
    const c = await users(`q=${encodeURIComponent(`roof ${tag} llc`)}`);
    expect(c.body.users.map((u: { id: string }) => u.id)).toEqual([byCompany.user.id]);
    const none = await users(`q=${encodeURIComponent(`no-such-${tag}`)}`);
    expect(none.body).toMatchObject({ users: [], total: 0 });
    const wild = await users(`q=${encodeURIComponent("%")}`);
    expect(wild.body.total).toBe(0);
  });

  it("filters admins and regular users", async () => {
    const admins = await users("filter=admins&limit=200");
    expect(admins.body.users.length).toBeGreaterThan(0);
    expect(admins.body.users.every((u: { is_admin: boolean }) => u.is_admin)).toBe(true);
    expect(admins.body.users.map((u: { id: string }) => u.id)).toContain(admin.user.id);
    const regular = await users("filter=regular&limit=200");
    expect(regular.body.users.every((u: { is_admin: boolean }) => !u.is_admin)).toBe(true);
    expect((await users("filter=everyone")).status).toBe(400);
  });

  it("pages with a cursor", async () => {
    for (let i = 0; i < 3; i++) await signUp();
    const first = await users("limit=2");
    expect(first.body.users).toHaveLength(2);
    expect(first.body.nextCursor).toBeTruthy();
    const second = await users(`limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.users).toHaveLength(2);
    const firstIds = first.body.users.map((u: { id: string }) => u.id);
    for (const u of second.body.users) expect(firstIds).not.toContain(u.id);
    expect((await users("cursor=garbage")).status).toBe(400);
  });
});

describe("PATCH /api/admin/users/:id", () => {
  it("grants and removes admin on another user and writes an audit row each time", async () => {
    const target = await signUp();
    const granted = await toggle(target.user.id, true);
    expect(granted.status).toBe(200);
    expect(granted.body.user).toMatchObject({ id: target.user.id, is_admin: true });
    // The new admin can use admin routes at once: admin status is read from the database.
    expect((await api("/api/prospects", { token: target.session.access_token })).status).toBe(200);

    const createdAt = (await env.DB.prepare("select created_at from profiles where id = ?").bind(target.user.id).first())!
      .created_at;
    expect(granted.body.user.created_at).toBe(createdAt);
    const removed = await toggle(target.user.id, false);
    expect(removed.body.user.is_admin).toBe(false);
    expect((await api("/api/prospects", { token: target.session.access_token })).status).toBe(403);

    const audit = await env.DB.prepare(
      "select actor_id, action, target_id, detail from audit_log where target_id = ? order by created_at, rowid",
    )
      .bind(target.user.id)
      .all();
    expect(audit.results).toEqual([
      { actor_id: admin.user.id, action: "admin_grant", target_id: target.user.id, detail: '{"is_admin":true}' },
      { actor_id: admin.user.id, action: "admin_revoke", target_id: target.user.id, detail: '{"is_admin":false}' },
    ]);
  });

  it("refuses to change the caller's own flag, on the server", async () => {
    const res = await toggle(admin.user.id, false);
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: "forbidden", message: "You cannot change your own admin status.", requestId: expect.any(String) });
    const row = await env.DB.prepare("select is_admin from profiles where id = ?").bind(admin.user.id).first();
    expect(row).toEqual({ is_admin: 1 });
    const audit = await env.DB.prepare("select count(*) n from audit_log where target_id = ?").bind(admin.user.id).first();
    expect(audit).toEqual({ n: 0 });
  });

  it("answers an unknown user with 404 and a bad body with 400", async () => {
    const missing = await toggle(crypto.randomUUID(), true);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual({ code: "not_found", message: "User not found", requestId: expect.any(String) });
    const target = await signUp();
    for (const body of [{}, { is_admin: "yes" }, { is_admin: 1 }]) {
      const res = await api(`/api/admin/users/${target.user.id}`, { method: "PATCH", token, body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
    const malformed = await api(`/api/admin/users/${target.user.id}`, { method: "PATCH", token, body: "{" });
    expect(malformed.status).toBe(400);
  });
});

describe("who may call /api/admin", () => {
  let regular: Awaited<ReturnType<typeof signUp>>;
  let other: Awaited<ReturnType<typeof signUp>>;
  let otherAdmin: Awaited<ReturnType<typeof signUpAdmin>>;

  beforeAll(async () => {
    regular = await signUp();
    other = await signUp();
    otherAdmin = await signUpAdmin();
  });

  const routes = () => [
    { method: "GET", path: "/api/admin/users" },
    { method: "PATCH", path: `/api/admin/users/${other.user.id}`, body: { is_admin: true } },
    { method: "POST", path: "/api/admin/view-as", body: { userId: other.user.id } },
  ];
  const call = callRoute;

  it("anonymous: 401", async () => {
    for (const r of routes()) expect((await call(r)).status, `${r.method} ${r.path}`).toBe(401);
  });

  it("a regular user (and one acting on another user): 403 admin_required", async () => {
    for (const r of routes()) {
      const res = await call(r, { token: regular.session.access_token });
      expect(res.status, `${r.method} ${r.path}`).toBe(403);
      expect(res.body.error.code).toBe("admin_required");
    }
    expect((await env.DB.prepare("select is_admin from profiles where id = ?").bind(other.user.id).first())!.is_admin).toBe(0);
  });

  it("a regular user sending X-View-As: 403", async () => {
    for (const r of routes()) {
      const res = await call(r, { token: regular.session.access_token, viewAs: otherAdmin.user.id });
      expect(res.status, `${r.method} ${r.path}`).toBe(403);
      expect(res.body.error.code).toBe("admin_required");
    }
  });

  it("an admin viewing as a regular user: 403, as that user would get (reads) or read-only (writes)", async () => {
    await expectViewingAs(routes(), token, { id: regular.user.id, isAdmin: false });
  });

  it("an admin viewing as another admin: the list reads, writes are refused", async () => {
    await expectViewingAs(routes(), token, { id: otherAdmin.user.id, isAdmin: true });
  });

  it("an admin: 200 on each", async () => {
    for (const r of routes()) expect((await call(r, { token })).status, `${r.method} ${r.path}`).toBe(200);
  });
});
