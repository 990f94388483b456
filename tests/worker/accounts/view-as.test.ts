// View-as: POST /api/admin/view-as (admin, never self, audited), then X-View-As reads the viewed user's data, read-only.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api, signUp, signUpAdmin } from "../helpers";

let admin: Awaited<ReturnType<typeof signUpAdmin>>;
let token: string;
let viewed: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  admin = await signUpAdmin();
  token = admin.session.access_token;
  viewed = await signUp();
  await env.DB.prepare("update profiles set company_name = 'Viewed Roofing', company_phone = '555' where id = ?")
    .bind(viewed.user.id)
    .run();
});

const startView = (userId: string, as = token) =>
  api("/api/admin/view-as", { method: "POST", token: as, body: JSON.stringify({ userId }) });

describe("POST /api/admin/view-as", () => {
  it("returns the viewed user's profile for the local record and writes a view_as_start audit row", async () => {
    const res = await startView(viewed.user.id);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      id: viewed.user.id,
      email: viewed.email,
      is_admin: false,
      company_name: "Viewed Roofing",
      company_phone: "555",
    });
    const audit = await env.DB.prepare(
      "select actor_id, action, detail from audit_log where target_id = ? and action = 'view_as_start'",
    )
      .bind(viewed.user.id)
      .all();
    expect(audit.results).toEqual([
      { actor_id: admin.user.id, action: "view_as_start", detail: JSON.stringify({ email: viewed.email }) },
    ]);
  });

  it("refuses viewing as oneself, on the server, without an audit row", async () => {
    const res = await startView(admin.user.id);
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: "forbidden", message: "You cannot view the product as yourself.", requestId: expect.any(String) });
    const audit = await env.DB.prepare("select count(*) n from audit_log where target_id = ?").bind(admin.user.id).first();
    expect(audit).toEqual({ n: 0 });
  });

  it("answers an unknown user with 404 and a missing userId with 400", async () => {
    const missing = await startView(crypto.randomUUID());
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual({ code: "not_found", message: "User not found", requestId: expect.any(String) });
    const bad = await api("/api/admin/view-as", { method: "POST", token, body: JSON.stringify({}) });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("validation_failed");
  });

  it("is refused to a regular user", async () => {
    const regular = await signUp();
    const res = await startView(viewed.user.id, regular.session.access_token);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("admin_required");
  });
});

describe("requests carrying X-View-As", () => {
  it("read the viewed user's own profile", async () => {
    const res = await api("/api/profile", { token, viewAs: viewed.user.id });
    expect(res.status).toBe(200);
    expect(res.body.viewingAs).toBe(true);
    expect(res.body.profile).toMatchObject({ id: viewed.user.id, company_name: "Viewed Roofing" });
    const own = await api("/api/profile", { token });
    expect(own.body.profile.id).toBe(admin.user.id);
    expect(own.body.viewingAs).toBe(false);
  });

  it("refuse every write with 403 view_as_read_only and a clear message", async () => {
    const writes = [
      { method: "POST", path: "/api/prospects/import", body: { text: "Roofing\tX\tY" } },
      { method: "PATCH", path: `/api/prospects/${crypto.randomUUID()}`, body: { tag: "Roofing" } },
      { method: "DELETE", path: `/api/prospects/${crypto.randomUUID()}` },
      { method: "PATCH", path: `/api/admin/users/${viewed.user.id}`, body: { is_admin: true } },
      { method: "POST", path: "/api/admin/view-as", body: { userId: viewed.user.id } },
      { method: "PUT", path: "/api/profile", body: { company_name: "Hijacked" } },
    ];
    for (const w of writes) {
      const res = await api(w.path, {
        method: w.method,
        token,
        viewAs: viewed.user.id,
        body: w.body ? JSON.stringify(w.body) : undefined,
      });
      expect(res.status, `${w.method} ${w.path}`).toBe(403);
      expect(res.body.error).toEqual({
        code: "view_as_read_only",
        message:
          "You are viewing as another user: this view is read-only. Return to your admin account to make changes.",
        requestId: expect.any(String),
      });
    }
    const profile = await env.DB.prepare("select company_name, is_admin from profiles where id = ?").bind(viewed.user.id).first();
    expect(profile).toEqual({ company_name: "Viewed Roofing", is_admin: 0 });
  });

  it("are refused for a non-admin caller, for oneself, and for a user who does not exist", async () => {
    const regular = await signUp();
    const notAdmin = await api("/api/profile", { token: regular.session.access_token, viewAs: viewed.user.id });
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body.error.code).toBe("admin_required");
    const self = await api("/api/profile", { token, viewAs: admin.user.id });
    expect(self.status).toBe(400);
    const ghost = await api("/api/profile", { token, viewAs: crypto.randomUUID() });
    expect(ghost.status).toBe(404);
  });

  it("stop working the moment the caller loses admin", async () => {
    const demoted = await signUpAdmin();
    expect((await api("/api/profile", { token: demoted.session.access_token, viewAs: viewed.user.id })).status).toBe(200);
    await api(`/api/admin/users/${demoted.user.id}`, { method: "PATCH", token, body: JSON.stringify({ is_admin: false }) });
    const after = await api("/api/profile", { token: demoted.session.access_token, viewAs: viewed.user.id });
    expect(after.status).toBe(403);
  });
});

describe("the audit of viewing as", () => {
  it("records every request made with X-View-As, reads and refused writes alike", async () => {
    const admin = await signUpAdmin();
    const target = await signUp();
    const token = admin.session.access_token;
    await api("/api/profile", { token, viewAs: target.user.id });
    await api("/api/reports", { token, viewAs: target.user.id });
    const write = await api("/api/profile", { method: "PUT", token, viewAs: target.user.id, body: "{}" });
    expect(write.status).toBe(403);
    const { results } = await env.DB.prepare(
      "select action, target_id, detail from audit_log where actor_id = ? and action = 'view_as_request' order by created_at, rowid",
    )
      .bind(admin.user.id)
      .all<{ action: string; target_id: string; detail: string }>();
    expect(results.map((r) => [r.target_id, JSON.parse(r.detail)])).toEqual([
      [target.user.id, { method: "GET", path: "/api/profile" }],
      [target.user.id, { method: "GET", path: "/api/reports" }],
      [target.user.id, { method: "PUT", path: "/api/profile", refused: true }],
    ]);
  });
});
