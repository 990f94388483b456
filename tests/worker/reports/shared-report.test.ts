// GET /api/shared/reports/:id: public, never the phone, the 404 shape, edge cache by version, ETag/304, purge on change.
import { cacheOrigin } from "../../../worker/platform/edge-cache";
import { env, SELF } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import app from "../../../worker/app";
import {
  forgetVersion,
  memoizeVersion,
  memoizedVersion,
  sharedReportCacheKey,
  VERSION_MEMO_MS,
} from "../../../worker/features/reports/shared-cache";
import { api, signUpAdmin } from "../helpers";
import { aiEnv, deliver, readyReport as readyReportWith, seedReport, withoutCacheApi } from "./reports-fixtures";

const PHONE = "(737) 555-0123";
const PHONE_DIGITS = "17375550123";

const readyReport = () => readyReportWith({ phone: PHONE });

function shared(id: string, headers: Record<string, string> = {}) {
  return api(`/api/shared/reports/${id}`, { headers });
}

describe("GET /api/shared/reports/:id", () => {
  it("is public, carries every section and the agency, and never the phone", async () => {
    const seeded = await readyReport();
    const res = await shared(seeded.id);
    expect(res.status).toBe(200);
    const { report, prospect, sender } = res.body;
    expect(report).toMatchObject({ id: seeded.id, status: "ready", source: "ai", version: 2 });
    expect(report.content.gmbArticles).toHaveLength(3);
    expect(report.content.blogStructures).toHaveLength(3);
    expect(report.content.facebookPosts[0]).toMatchObject({ likes: expect.any(Number), comments: expect.any(Number), shares: expect.any(Number) });
    expect(report.content.seoPotential).toMatchObject({ score: 78, competition: "Medium" });
    expect(report.content.perfectAd.title).toBeTruthy();
    expect(report.content.metaSEO.title).toBeTruthy();
    expect(prospect).toEqual({
      name: seeded.prospect.name,
      company_name: seeded.prospect.companyName,
      area: "Austin, TX",
      keyword: seeded.prospect.keyword,
      tag: "Roofing",
      description: seeded.prospect.description,
    });
    expect(sender === null || typeof sender === "object").toBe(true);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(PHONE_DIGITS);
    expect(text).not.toContain("555-0123");
    expect(text).not.toContain("5550123");
    expect(res.headers.get("ETag")).toBe(`"${seeded.id}-v2"`);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=60, stale-while-revalidate=600");
  });

  it("names the first admin's business as the sender", async () => {
    const first = await env.DB.prepare("select id from profiles where is_admin = 1 order by created_at limit 1").first<{ id: string }>();
    const admin = first ? { id: first.id } : { id: (await signUpAdmin()).user.id };
    await env.DB.prepare("update profiles set company_name = 'Lighthouse Marketing', company_logo_url = '/api/files/logo.png' where id = ?")
      .bind(admin.id)
      .run();
    const seeded = await readyReport();
    const res = await shared(seeded.id);
    expect(res.body.sender).toMatchObject({ company_name: "Lighthouse Marketing", logo_url: "/api/files/logo.png" });
  });

  it("answers the 404 shape for unknown and absurd ids", async () => {
    for (const id of [crypto.randomUUID(), "nope", "x".repeat(500)]) {
      const res = await shared(id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: "not_found", message: "Report not found", requestId: expect.any(String) } });
    }
  });

  it("gives a report that is not ready with its status and no content, uncached", async () => {
    const seeded = await seedReport("", { phone: PHONE });
    const res = await shared(seeded.id);
    expect(res.status).toBe(200);
    expect(res.body.report).toMatchObject({ status: "queued", content: null });
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(JSON.stringify(res.body)).not.toContain(PHONE_DIGITS);
  });

  it("serves the second request from the edge cache and 304s a matching If-None-Match", async () => {
    const seeded = await readyReport();
    const first = await shared(seeded.id);
    expect(first.headers.get("X-Cache")).toBe("MISS");
    const second = await shared(seeded.id);
    expect(second.headers.get("X-Cache")).toBe("HIT");
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("ETag")).toBe(first.headers.get("ETag"));

    const notModified = await shared(seeded.id, { "If-None-Match": first.headers.get("ETag")! });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeNull();
    expect(notModified.headers.get("ETag")).toBe(first.headers.get("ETag"));

    // A client's no-cache does not reach the database: anyone could send it on every request.
    const noCache = await shared(seeded.id, { "Cache-Control": "no-cache", Pragma: "no-cache" });
    expect(noCache.headers.get("X-Cache")).toBe("HIT");
    expect(noCache.body).toEqual(first.body);
    // The benchmark's flag skips the cache in development only.
    const devBypass = await api(`/api/shared/reports/${seeded.id}?cache=bypass`);
    expect(devBypass.headers.get("X-Cache")).toBe("BYPASS");
    expect(devBypass.body).toEqual(first.body);
    const prod = await app.request(`/api/shared/reports/${seeded.id}?cache=bypass`, {}, { ...env, ENVIRONMENT: "production" });
    expect(prod.headers.get("X-Cache")).toBe("HIT");
  });

  it("keys the edge cache on the app's own origin, whatever Host the request names", async () => {
    const seeded = await readyReport();
    const viaOtherHost = await SELF.fetch(`http://attacker.example/api/shared/reports/${seeded.id}`);
    expect(viaOtherHost.headers.get("X-Cache")).toBe("MISS");
    await viaOtherHost.arrayBuffer();
    await vi.waitFor(async () => expect(await caches.default.match(sharedReportCacheKey(cacheOrigin(env), seeded.id, 2))).toBeDefined());
    expect(cacheOrigin(env)).toBe(new URL(env.APP_ORIGIN!).origin);
    expect((await shared(seeded.id)).headers.get("X-Cache")).toBe("HIT");

    // Without APP_ORIGIN the key sits on the fixed internal origin, never on the request's host.
    expect(cacheOrigin({ APP_ORIGIN: "" })).toBe("https://cache.internal");
    const other = await readyReport();
    await app.request(`http://attacker.example/api/shared/reports/${other.id}`, {}, { ...env, APP_ORIGIN: "" });
    await vi.waitFor(async () => expect(await caches.default.match(sharedReportCacheKey("https://cache.internal", other.id, 2))).toBeDefined());
    expect(await caches.default.match(sharedReportCacheKey("http://attacker.example", other.id, 2))).toBeUndefined();
  });

  it("serves the new version after the report changes, and drops the old cache entry", async () => {
    const seeded = await readyReport();
    await shared(seeded.id);
    expect((await shared(seeded.id)).headers.get("X-Cache")).toBe("HIT");

    // Generation again (as after a reset): the consumer saves v3 and deletes v2's entry.
    await env.DB.prepare("update seo_reports set status = 'queued' where id = ?").bind(seeded.id).run();
    await deliver("report-jobs", [{ body: { reportId: seeded.id } }], aiEnv());
    expect(await caches.default.match(sharedReportCacheKey(cacheOrigin(env), seeded.id, 2))).toBeUndefined();
    const after = await shared(seeded.id);
    expect(after.headers.get("X-Cache")).toBe("MISS");
    expect(after.headers.get("ETag")).toBe(`"${seeded.id}-v3"`);
    const stale = await shared(seeded.id, { "If-None-Match": `"${seeded.id}-v2"` });
    expect(stale.status).toBe(200);

    // Editing the prospect bumps the version too (a trigger). This edit bypasses the app, as one made
    // by another isolate would: it is served once this isolate's few-second version memo lapses.
    await env.DB.prepare("update prospects set name = 'Renamed Roofing Co' where id = ?").bind(seeded.prospect.id).run();
    expect((await shared(seeded.id)).headers.get("ETag")).toBe(`"${seeded.id}-v3"`);
    forgetVersion(); // the memo window has passed
    const renamed = await shared(seeded.id);
    expect(renamed.headers.get("ETag")).toBe(`"${seeded.id}-v4"`);
    expect(renamed.body.prospect.name).toBe("Renamed Roofing Co");
  });

  it("a tag change through the API is served at once (the isolate forgets the version it trusted)", async () => {
    const seeded = await readyReport();
    await shared(seeded.id);
    const admin = await signUpAdmin();
    const res = await api(`/api/prospects/${seeded.prospect.id}`, {
      method: "PATCH",
      token: admin.session.access_token,
      body: JSON.stringify({ tag: "Painting" }),
    });
    expect(res.status).toBe(200);
    const after = await shared(seeded.id);
    expect(after.body.prospect.tag).toBe("Painting");
    expect(after.headers.get("X-Cache")).toBe("MISS");
  });

  it("trusts a ready report's version for VERSION_MEMO_MS only, and never a report still generating", () => {
    const t0 = 1_000_000;
    memoizeVersion("r1", { version: 7, status: "ready" }, t0);
    expect(memoizedVersion("r1", t0 + VERSION_MEMO_MS)).toEqual({ version: 7, status: "ready", at: t0 });
    expect(memoizedVersion("r1", t0 + VERSION_MEMO_MS + 1)).toBeNull();
    memoizeVersion("r2", { version: 1, status: "generating" }, t0);
    expect(memoizedVersion("r2", t0)).toBeNull();
  });

  it("is correct with no Cache API at all", async () => {
    const seeded = await readyReport();
    await withoutCacheApi(async (app) => {
      const res = await app.request(`/api/shared/reports/${seeded.id}`, {}, env);
      expect(res.status).toBe(200);
      expect(res.headers.get("X-Cache")).toBe("MISS");
      expect(((await res.json()) as { report: { status: string } }).report.status).toBe("ready");
    });
  });
});
