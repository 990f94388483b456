// The review's smaller findings, each as it was tried: links never built from the request's Host outside development,
// a demoted admin not re-promoted by a confirmation link, recovery limited per address, the cron emptying expired
// rate-limit windows, a broken percent-encoding in a file path.
import { createExecutionContext, createScheduledController, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../../worker/index";
import { getDb } from "../../../worker/platform/db/client";
import { AuditAction, recordAudit } from "../../../worker/platform/auth/admin-queries";
import { confirmEmail, saveEmailConfirmation } from "../../../worker/platform/auth/email-confirmations";
import { appOrigin, APP_ORIGIN_REQUIRED } from "../../../worker/platform/origin";
import { authLimits } from "../../../worker/platform/auth/limits";
import { LONGEST_WINDOW_SECONDS } from "../../../worker/platform/db/rate-limits";
import type { Env } from "../../../worker/platform/env";
import { api, signUp, testIp } from "../helpers";

describe("links", () => {
  it("are built on APP_ORIGIN; outside development without it the worker refuses instead of trusting Host", () => {
    expect(appOrigin({ APP_ORIGIN: "https://app.example.com/", ENVIRONMENT: "production" }, "http://attacker.example/x")).toBe("https://app.example.com");
    expect(appOrigin({ APP_ORIGIN: "", ENVIRONMENT: "development" }, "http://localhost:8787/x")).toBe("http://localhost:8787");
    expect(() => appOrigin({ APP_ORIGIN: "", ENVIRONMENT: "production" }, "http://attacker.example/x")).toThrow(APP_ORIGIN_REQUIRED);
  });
});

describe("a demoted admin", () => {
  it("is not made admin again by confirming an ADMIN_EMAILS address", async () => {
    const db = getDb(env);
    const { user, email } = await signUp();
    await recordAudit(db, { actorId: crypto.randomUUID(), action: AuditAction.adminRevoke, targetId: user.id });
    await saveEmailConfirmation(db, user.id, email.toLowerCase(), "hash-demoted-" + user.id);
    expect(await confirmEmail(db, "hash-demoted-" + user.id, () => true)).toBe(user.id);
    const row = await env.DB.prepare("select is_admin from profiles where id = ?").bind(user.id).first<{ is_admin: number }>();
    expect(row!.is_admin).toBe(0);

    // Never demoted: the listed address still makes the user admin.
    const fresh = await signUp();
    await saveEmailConfirmation(db, fresh.user.id, fresh.email.toLowerCase(), "hash-fresh-" + fresh.user.id);
    await confirmEmail(db, "hash-fresh-" + fresh.user.id, () => true);
    expect((await env.DB.prepare("select is_admin from profiles where id = ?").bind(fresh.user.id).first<{ is_admin: number }>())!.is_admin).toBe(1);
  });
});

describe("POST /auth/v1/recover", () => {
  it("is limited per address as well as per email", async () => {
    const ip = testIp();
    const limit = authLimits.recoverIp(ip);
    for (let i = 0; i < limit.max; i++) {
      const res = await api("/auth/v1/recover", { method: "POST", body: JSON.stringify({ email: `nobody-${i}-${crypto.randomUUID()}@example.test` }), headers: { "CF-Connecting-IP": ip } });
      expect(res.status).toBe(200);
    }
    const over = await api("/auth/v1/recover", { method: "POST", body: JSON.stringify({ email: `nobody-x@example.test` }), headers: { "CF-Connecting-IP": ip } });
    expect(over.status).toBe(429);
    expect(over.body.error_code).toBe("over_request_rate_limit");
  });
});

describe("the cron", () => {
  it("deletes rate-limit windows that are over, so anonymous requests cannot grow the table without end", async () => {
    const old = Math.floor(Date.now() / 1000) - LONGEST_WINDOW_SECONDS - 60;
    const now = Math.floor(Date.now() / 1000);
    await env.DB.batch([
      env.DB.prepare("insert into rate_limits (key, window_start, count) values (?, ?, 5)").bind("cron:old", old),
      env.DB.prepare("insert into rate_limits (key, window_start, count) values (?, ?, 5)").bind("cron:current", now),
    ]);
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), { ...env, REPORT_JOBS: { sendBatch: async () => undefined, send: async () => undefined } } as unknown as Env, createExecutionContext());
    const keys = (await env.DB.prepare("select key from rate_limits where key like 'cron:%'").all<{ key: string }>()).results.map((r) => r.key);
    expect(keys).toEqual(["cron:current"]);
  });
});

describe("/api/files", () => {
  it("answers 404, not 500, to a broken percent-encoding", async () => {
    const res = await api("/api/files/%E0%A4%A");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });
});
