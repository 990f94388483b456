// /api/brand (issue 30): the public fields for anyone, everything for an admin; a save is validated, an unreadable
// accent colour is refused with the nearest readable one; the logo follows the logo rules and is served by version.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { accentContrast, ACCENT_UNREADABLE_CODE } from "../../../worker/platform/brand/rules/brand";
import { forgetBrand } from "../../../worker/platform/brand/load";
import { callWorker, signUp, signUpAdmin } from "../helpers";

const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (ch) => ch.charCodeAt(0));
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

let admin: string;
let user: string;
beforeAll(async () => {
  admin = (await signUpAdmin()).session.access_token;
  user = (await signUp()).session.access_token;
});

function upload(bytes: Uint8Array, token = admin) {
  const form = new FormData();
  form.set("file", new File([bytes], "logo.png", { type: "image/png" }));
  return callWorker("/api/brand/logo", { method: "POST", token, body: form });
}

describe("/api/brand", () => {
  it("answers Porchlight's defaults before any brand is saved", async () => {
    forgetBrand();
    const res = await callWorker("/api/brand");
    expect(res.status).toBe(200);
    expect(res.body.brand).toMatchObject({ name: "Porchlight", logoUrl: null, accentColor: null, custom: false });
  });

  it("lets only an admin save; refuses bad fields with the field named", async () => {
    expect((await callWorker("/api/brand", { method: "PUT", json: { name: "X" } })).status).toBe(401);
    expect((await callWorker("/api/brand", { method: "PUT", token: user, json: { name: "X" } })).status).toBe(403);
    const bad = await callWorker("/api/brand", { method: "PUT", token: admin, json: { name: "Acme", supportEmail: "nope" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.supportEmail).toBeDefined();
  });

  it("refuses an accent colour white text cannot be read on, offering the nearest readable one, and saves nothing", async () => {
    const res = await callWorker("/api/brand", { method: "PUT", token: admin, json: { name: "Acme Growth", accentColor: "#f2a120" } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe(ACCENT_UNREADABLE_CODE);
    const suggestion = res.body.error.suggestion as string;
    expect(accentContrast(suggestion)).toBeGreaterThanOrEqual(4.5);
    expect(res.body.error.message).toContain(suggestion);
    forgetBrand();
    expect((await callWorker("/api/brand")).body.brand.custom).toBe(false);
    // The offered colour is accepted as it is.
    const ok = await callWorker("/api/brand", { method: "PUT", token: admin, json: { name: "Acme Growth", accentColor: suggestion } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.brand.accentColor).toBe(suggestion);
  });

  it("shows the public fields to anyone and everything to an admin", async () => {
    const saved = await callWorker("/api/brand", {
      method: "PUT",
      token: admin,
      json: { name: "Acme Growth", accentColor: "#1d4ed8", supportEmail: "help@acme.test", mailSenderName: "Acme Team", footerLine: "Acme · Austin" },
    });
    expect(saved.status).toBe(200);
    forgetBrand();
    const anon = await callWorker("/api/brand");
    expect(anon.body.brand).toMatchObject({ name: "Acme Growth", accentColor: "#1d4ed8", supportEmail: "help@acme.test", footerLine: "Acme · Austin", custom: true });
    expect(anon.body.brand.mailSenderName).toBeUndefined();
    const mine = await callWorker("/api/brand", { token: user });
    expect(mine.body.brand.mailSenderName).toBeUndefined();
    const theirs = await callWorker("/api/brand", { token: admin });
    expect(theirs.body.brand).toMatchObject({ mailSenderName: "Acme Team" });
    expect(theirs.body.brand.updatedAt).toEqual(expect.any(String));
    // A bad token is refused, not quietly answered as a visitor.
    expect((await callWorker("/api/brand", { token: "not-a-token" })).status).toBe(401);
  });

  it("stores a logo by its bytes (never SVG), serves it by version, and replaces the old one in R2", async () => {
    expect((await upload(PNG, user)).status).toBe(403);
    expect((await upload(SVG)).status).toBe(415);
    const first = await upload(PNG);
    expect(first.status, first.text).toBe(201);
    const url = first.body.brand.logoUrl as string;
    expect(url).toMatch(/^\/api\/brand\/logo\?v=\d+$/);
    const logo = await callWorker(url);
    expect(logo.status).toBe(200);
    expect(logo.headers.get("Content-Type")).toBe("image/png");
    expect(logo.headers.get("Cache-Control")).toContain("immutable");
    expect(logo.headers.get("X-Content-Type-Options")).toBe("nosniff");
    // Another version's URL still answers the current logo, briefly cached.
    expect((await callWorker("/api/brand/logo?v=0")).headers.get("Cache-Control")).toBe("public, max-age=60");

    const second = await upload(PNG);
    expect(second.body.brand.logoUrl).not.toBe(url);
    const listed = await env.FILES.list({ prefix: "logos/brand/" });
    expect(listed.objects).toHaveLength(1);

    const removed = await callWorker("/api/brand/logo", { method: "DELETE", token: admin });
    expect(removed.body.brand.logoUrl).toBeNull();
    expect((await env.FILES.list({ prefix: "logos/brand/" })).objects).toHaveLength(0);
    expect((await callWorker("/api/brand/logo?v=1")).status).toBe(404);
  });

  it("resets to the product's own brand, for admins only", async () => {
    await callWorker("/api/brand", { method: "PUT", token: admin, json: { name: "Acme Growth" } });
    expect((await callWorker("/api/brand", { method: "DELETE", token: user })).status).toBe(403);
    const reset = await callWorker("/api/brand", { method: "DELETE", token: admin });
    expect(reset.status).toBe(200);
    expect(reset.body.brand).toMatchObject({ name: "Porchlight", custom: false });
    forgetBrand();
    expect((await callWorker("/api/brand")).body.brand.custom).toBe(false);
  });

  it("serves the accent's stylesheet for a readable colour only", async () => {
    const ok = await callWorker("/api/brand/theme.css?accent=1d4ed8");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Content-Type")).toContain("text/css");
    expect(ok.text).toContain("--brand-accent:#1d4ed8");
    expect((await callWorker("/api/brand/theme.css?accent=ffff00")).status).toBe(404);
    expect((await callWorker("/api/brand/theme.css?accent=%7D%3Cscript")).status).toBe(404);
  });
});
