// REQUIRE_ADMIN_MFA on the admin routes, and deleting an account: the password, the user's rows and R2 objects, the sessions.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../../worker/app";
import { adminMfaRequired } from "../../../worker/platform/auth/middleware";
import type { Env } from "../../../worker/platform/env";
import { api, GOOD_PASSWORD, signUp, signUpAdmin, signUpWithFactor, testIp, totpCode, uniqueEmail } from "../helpers";

const strict: Env = { ...env, REQUIRE_ADMIN_MFA: "true" };

async function call(path: string, token: string, init: RequestInit = {}, e: Env = strict) {
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${token}`);
  headers.set("CF-Connecting-IP", testIp());
  if (init.body) headers.set("Content-Type", "application/json");
  const res = await app.request(path, { ...init, headers }, e);
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as any) : null };
}

describe("REQUIRE_ADMIN_MFA", () => {
  it("is on in production and off in development unless set", () => {
    expect(adminMfaRequired({ ...env, ENVIRONMENT: "production", REQUIRE_ADMIN_MFA: "" })).toBe(true);
    expect(adminMfaRequired({ ...env, ENVIRONMENT: "development", REQUIRE_ADMIN_MFA: "" })).toBe(false);
    expect(adminMfaRequired({ ...env, ENVIRONMENT: "development", REQUIRE_ADMIN_MFA: "true" })).toBe(true);
    expect(adminMfaRequired({ ...env, ENVIRONMENT: "production", REQUIRE_ADMIN_MFA: "false" })).toBe(false);
  });

  it("answers admin routes 403 mfa_required until the admin's session is aal2; regular routes still work", async () => {
    const admin = await signUpAdmin();
    const user = await signUp();
    const token = admin.session.access_token;
    for (const path of ["/api/admin/users", "/api/prospects", "/api/reports/jobs"]) {
      const res = await call(path, token);
      expect(res.status, path).toBe(403);
      expect(res.body.error.code, path).toBe("mfa_required");
      expect(res.body.error.message).toMatch(/two-factor/);
    }
    const viewAs = await call("/api/profile", token, { headers: { "X-View-As": user.user.id } });
    expect(viewAs.body.error.code).toBe("mfa_required");
    // Every user's usage is admin data too: only the admin's own figures.
    expect((await call("/api/usage?scope=all", token)).body.all).toBeNull();
    expect((await call("/api/profile", token)).status).toBe(200);
    // Without the setting (development) the same session is admin as before.
    expect((await call("/api/admin/users", token, {}, env)).status).toBe(200);

    // The admin enrols a factor (as the admin pages walk them through) and is aal2 from then on.
    const { data: factor } = await admin.client.mfa.enroll({ factorType: "totp" });
    if (!factor || factor.type !== "totp") throw new Error("no factor");
    const { data: verified } = await admin.client.mfa.challengeAndVerify({ factorId: factor.id, code: await totpCode(factor.totp.secret) });
    const aal2 = verified!.access_token;
    expect((await call("/api/admin/users", aal2)).status).toBe(200);
    expect((await call("/api/profile", aal2, { headers: { "X-View-As": user.user.id } })).status).toBe(200);
    expect((await call("/api/usage?scope=all", aal2)).body.all).not.toBeNull();
  });
});

describe("prospect-owned scans, tracked keywords and audits use the admin guard (issue 26)", () => {
  it("an admin's password-only session neither reads nor changes them nor re-runs an audit's paid steps; aal2 does", async () => {
    const { startGrid } = await import("../../../worker/features/rank/grid");
    const { startAudit } = await import("../../../worker/features/audits/run");
    const { insertTrackedKeyword } = await import("../../../worker/features/rank/queries");
    const { getDb } = await import("../../../worker/platform/db/client");
    const { seedReport } = await import("../reports/reports-fixtures");
    const admin = await signUpAdmin();
    const seeded = await seedReport();
    const prospectId = seeded.prospect.id;
    const quiet = { ...env, RANK_CHECKS: { send: async () => undefined, sendBatch: async () => undefined }, AUDITS: { send: async () => undefined, sendBatch: async () => undefined } } as unknown as Env;
    const business = { kind: "prospect" as const, prospectId, name: "Ridge Roofing", area: "Austin, TX", placeId: "ChIJx", latitude: 30.27, longitude: -97.74 };
    const scan = await startGrid(quiet, { resolved: { owner: { kind: "prospect", prospectId }, business, website: null }, keyword: "roofer", size: 3, radiusMiles: 1, userId: admin.user.id });
    const keywordId = crypto.randomUUID();
    await insertTrackedKeyword(
      getDb(env),
      { id: keywordId, kind: "prospect", userId: admin.user.id, prospectId, ownerKey: `prospect:${prospectId}`, business: JSON.stringify(business), website: null, keyword: "roofer", lastCheckAt: new Date().toISOString() },
      crypto.randomUUID(),
    );
    const audit = await startAudit(quiet, { kind: "prospect", prospectId, userId: admin.user.id, subject: { name: "Ridge Roofing", website: null, keyword: "roofer", area: "Austin, TX", phone: null, address: null } });
    await env.DB.prepare("update audit_steps set status = 'done' where audit_id = ?").bind(audit.id).run();

    const requests: [string, RequestInit][] = [
      [`/api/rank/grids/${scan.id}`, {}],
      [`/api/rank/grids/${scan.id}/export.csv`, {}],
      [`/api/rank/keywords/${keywordId}`, {}],
      [`/api/rank/keywords/${keywordId}/export.csv`, {}],
      [`/api/rank/keywords/${keywordId}`, { method: "PATCH", body: JSON.stringify({ paused: true }) }],
      [`/api/audits/${audit.id}`, {}],
      [`/api/audits/${audit.id}/listing`, { method: "POST", body: JSON.stringify({ placeId: "ChIJother" }) }],
      [`/api/rank/keywords/${keywordId}`, { method: "DELETE" }],
    ];
    const aal1 = admin.session.access_token;
    for (const [path, init] of requests) {
      const res = await call(path, aal1, init);
      expect(res.status, `${init.method ?? "GET"} ${path}`).toBe(404);
    }
    // Nothing changed: the keyword is there, unpaused; the audit's steps were not reopened.
    expect(await env.DB.prepare("select paused from tracked_keywords where id = ?").bind(keywordId).first<{ paused: number }>()).toEqual({ paused: 0 });
    const reopened = await env.DB.prepare("select count(*) as n from audit_steps where audit_id = ? and status != 'done'").bind(audit.id).first<{ n: number }>();
    expect(reopened?.n).toBe(0);
    // The admin-only big grid and the unlimited keyword list are admin powers too.
    expect((await call("/api/rank/grids?estimate=1&size=11", aal1)).status).toBe(403);

    const { data: factor } = await admin.client.mfa.enroll({ factorType: "totp" });
    if (!factor || factor.type !== "totp") throw new Error("no factor");
    const { data: verified } = await admin.client.mfa.challengeAndVerify({ factorId: factor.id, code: await totpCode(factor.totp.secret) });
    const aal2 = verified!.access_token;
    expect((await call(`/api/rank/grids/${scan.id}`, aal2)).status).toBe(200);
    expect((await call(`/api/rank/keywords/${keywordId}`, aal2)).status).toBe(200);
    expect((await call(`/api/audits/${audit.id}`, aal2)).status).toBe(200);
    expect((await call("/api/rank/grids?estimate=1&size=11", aal2)).status).toBe(200);
  });
});

describe("DELETE /api/account", () => {
  it("needs the right password, then removes the user's rows, logo objects and sessions", async () => {
    const made = await signUp(uniqueEmail("leaving"));
    const token = made.session.access_token;
    const png = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="), (ch) => ch.charCodeAt(0));
    const form = new FormData();
    form.append("file", new File([png], "logo.png", { type: "image/png" }));
    const upload = await app.request("/api/profile/logo", { method: "POST", body: form, headers: { Authorization: `Bearer ${token}` } }, env);
    expect(upload.status).toBe(201);
    // An orphan from an earlier failed replace goes too.
    await env.FILES.put(`logos/${made.user.id}/orphan.png`, png);
    expect((await env.FILES.list({ prefix: `logos/${made.user.id}/` })).objects).toHaveLength(2);

    const wrong = await api("/api/account", { method: "DELETE", token, body: JSON.stringify({ password: "not-my-password-9" }) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.password).toEqual(["The password is incorrect."]);
    const missing = await api("/api/account", { method: "DELETE", token, body: JSON.stringify({}) });
    expect(missing.status).toBe(400);

    const gone = await api("/api/account", { method: "DELETE", token, body: JSON.stringify({ password: GOOD_PASSWORD }) });
    expect(gone.status).toBe(204);
    expect((await env.FILES.list({ prefix: `logos/${made.user.id}/` })).objects).toEqual([]);
    for (const table of ["users", "profiles"]) {
      const row = await env.DB.prepare(`select count(*) as n from ${table} where id = ?`).bind(made.user.id).first<{ n: number }>();
      expect(row?.n, table).toBe(0);
    }
    for (const table of ["sessions", "refresh_tokens", "mfa_factors", "generated_posts"]) {
      const row = await env.DB.prepare(`select count(*) as n from ${table} where user_id = ?`).bind(made.user.id).first<{ n: number }>();
      expect(row?.n, table).toBe(0);
    }
    const mail = await env.DB.prepare("select count(*) as n from outbox where to_email = ?").bind(made.email).first<{ n: number }>();
    expect(mail?.n).toBe(0);
    // Signed out everywhere, and the password no longer signs in.
    expect((await api("/api/profile", { token })).status).toBe(401);
    const signIn = await made.client.signInWithPassword({ email: made.email, password: GOOD_PASSWORD });
    expect(signIn.error?.code).toBe("invalid_credentials");
  });

  it("needs the code first when the account has two-factor sign-in, and keeps the last admin", async () => {
    const secured = await signUpWithFactor();
    const aal1 = await secured.client.signInWithPassword({ email: secured.email, password: GOOD_PASSWORD });
    const refused = await api("/api/account", { method: "DELETE", token: aal1.data.session!.access_token, body: JSON.stringify({ password: GOOD_PASSWORD }) });
    expect(refused.body.error.code).toBe("mfa_required");
    const verified = await secured.client.mfa.challengeAndVerify({ factorId: secured.factorId, code: await totpCode(secured.secret, 1) });
    const ok = await api("/api/account", { method: "DELETE", token: verified.data!.access_token, body: JSON.stringify({ password: GOOD_PASSWORD }) });
    expect(ok.status).toBe(204);

    // Only one admin left: refused with the reason. (Other test files' admins exist in this database, so
    // the rule is checked on a profile that is the only admin by clearing the others for this check.)
    const admin = await signUpAdmin();
    const others = await env.DB.prepare("select id from profiles where is_admin = 1 and id != ?").bind(admin.user.id).all<{ id: string }>();
    await env.DB.prepare("update profiles set is_admin = 0 where is_admin = 1 and id != ?").bind(admin.user.id).run();
    try {
      const last = await api("/api/account", { method: "DELETE", token: admin.session.access_token, body: JSON.stringify({ password: GOOD_PASSWORD }) });
      expect(last.status).toBe(409);
      expect(last.body.error.message).toMatch(/only admin/);
    } finally {
      for (const o of others.results) await env.DB.prepare("update profiles set is_admin = 1 where id = ?").bind(o.id).run();
    }
  });

  it("two admins deleting their accounts at once leave one: the last-admin check and the delete are one statement (issue 26)", async () => {
    const { deleteAccountRows } = await import("../../../worker/features/accounts/delete-account");
    const { getDb } = await import("../../../worker/platform/db/client");
    const first = await signUpAdmin();
    const second = await signUpAdmin();
    const others = await env.DB.prepare("select id from profiles where is_admin = 1 and id not in (?, ?)").bind(first.user.id, second.user.id).all<{ id: string }>();
    await env.DB.prepare("update profiles set is_admin = 0 where is_admin = 1 and id not in (?, ?)").bind(first.user.id, second.user.id).run();
    try {
      const answers = await Promise.all(
        [first, second].map((a) => api("/api/account", { method: "DELETE", token: a.session.access_token, body: JSON.stringify({ password: GOOD_PASSWORD }) })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([204, 409]);
      const admins = await env.DB.prepare("select count(*) as n from profiles where is_admin = 1").first<{ n: number }>();
      expect(admins?.n).toBe(1);
      // Past the early check (as when both requests passed it together), the delete itself still refuses the last admin.
      const last = answers[0]!.status === 409 ? first : second;
      expect(await deleteAccountRows(getDb(env), { id: last.user.id, email: last.email })).toBe(false);
      for (const table of ["users", "profiles"]) {
        const row = await env.DB.prepare(`select count(*) as n from ${table} where id = ?`).bind(last.user.id).first<{ n: number }>();
        expect(row?.n, table).toBe(1);
      }
      expect((await api("/api/profile", { token: last.session.access_token })).status).toBe(200);
    } finally {
      for (const o of others.results) await env.DB.prepare("update profiles set is_admin = 1 where id = ?").bind(o.id).run();
    }
  });

  it("an admin's widgets go with their logos (public in R2 until then); the webhook endpoints they added are paused (issue 26)", async () => {
    await signUpAdmin(); // another admin stays
    const admin = await signUpAdmin();
    const token = admin.session.access_token;
    const widget = await call("/api/widgets", token, { method: "POST", body: JSON.stringify({ name: "Homepage" }) }, env);
    expect(widget.status).toBe(201);
    const widgetId = widget.body.widget.id as string;
    const png = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="), (ch) => ch.charCodeAt(0));
    const form = new FormData();
    form.append("file", new File([png], "logo.png", { type: "image/png" }));
    const upload = await app.request(`/api/widgets/${widgetId}/logo`, { method: "POST", body: form, headers: { Authorization: `Bearer ${token}` } }, env);
    expect(upload.status).toBe(201);
    const logoPath = new URL(((await upload.json()) as { widget: { logoUrl: string } }).widget.logoUrl, "http://localhost").pathname;
    expect((await app.request(logoPath, {}, env)).status).toBe(200);
    const hook = await call("/api/webhooks", token, { method: "POST", body: JSON.stringify({ url: `${env.TEST_WEBHOOKS_URL}/hooks/${widgetId}`, events: ["widget.lead"] }) }, env);
    expect(hook.status).toBe(201);

    expect((await api("/api/account", { method: "DELETE", token, body: JSON.stringify({ password: GOOD_PASSWORD }) })).status).toBe(204);
    expect((await env.FILES.list({ prefix: `logos/${widgetId}/` })).objects).toEqual([]);
    expect((await app.request(logoPath, {}, env)).status).toBe(404);
    expect(await env.DB.prepare("select id from widgets where id = ?").bind(widgetId).first()).toBeNull();
    const endpoint = await env.DB.prepare("select status, user_id, last_error from webhook_endpoints where id = ?")
      .bind(hook.body.endpoint.id)
      .first<{ status: string; user_id: string | null; last_error: string }>();
    expect(endpoint).toMatchObject({ status: "paused", user_id: null });
    expect(endpoint!.last_error).toMatch(/deleted their account/);
  });
});
