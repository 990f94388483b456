// Business Settings on the server: PUT /api/profile validation, logos in R2 (size, sniffed type, replacement), /api/files.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LOGO_MAX_BYTES, LOGO_TOO_LARGE_MESSAGE, fileKeyFromUrl } from "../../../worker/features/profile/rules/profile";
import { BASE, api, signUp, signUpAdmin, signUpUnconfirmed } from "../helpers";
import { SELF } from "cloudflare:test";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3, 4]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);
const WEBP = new TextEncoder().encode("RIFF\u0000\u0000\u0000\u0000WEBPVP8 ");
const GIF = new TextEncoder().encode("GIF89a\u0001\u0000\u0001\u0000");
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

async function upload(token: string, bytes: Uint8Array, name: string, type = "image/png", viewAs?: string) {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type }));
  const headers = new Headers({ Authorization: `Bearer ${token}` });
  if (viewAs) headers.set("X-View-As", viewAs);
  const res = await SELF.fetch(`${BASE}/api/profile/logo`, { method: "POST", body: form, headers });
  return { status: res.status, body: (await res.json()) as any };
}

const FULL = {
  company_name: "Ridge Roofing",
  company_website: "ridgeroofing.com",
  company_phone: "(512) 555-0142",
  company_location: "Austin, TX",
  company_email: "Hello@RidgeRoofing.com",
  company_category: "Roofing",
  company_description: "Family-owned roofers since 1998.",
};

describe("PUT /api/profile", () => {
  it("saves every field, adds https:// to a bare website and reads back the same", async () => {
    const { session } = await signUp();
    const put = await api("/api/profile", { method: "PUT", token: session.access_token, body: JSON.stringify(FULL) });
    expect(put.status).toBe(200);
    expect(put.body.profile).toMatchObject({
      company_name: "Ridge Roofing",
      company_website: "https://ridgeroofing.com",
      company_email: "hello@ridgeroofing.com",
      company_category: "Roofing",
    });
    const get = await api("/api/profile", { token: session.access_token });
    expect(get.body.profile).toMatchObject(put.body.profile);
  });

  it("clears a field sent blank and keeps a website that already has its scheme", async () => {
    const { session } = await signUp();
    await api("/api/profile", { method: "PUT", token: session.access_token, body: JSON.stringify(FULL) });
    const put = await api("/api/profile", {
      method: "PUT",
      token: session.access_token,
      body: JSON.stringify({ ...FULL, company_phone: "  ", company_website: "http://ridge.example.com/home" }),
    });
    expect(put.body.profile.company_phone).toBeNull();
    expect(put.body.profile.company_website).toBe("http://ridge.example.com/home");
  });

  it("changes only the fields an update names: {} changes nothing, an explicit null clears one", async () => {
    const { session } = await signUp();
    await api("/api/profile", { method: "PUT", token: session.access_token, body: JSON.stringify(FULL) });
    const empty = await api("/api/profile", { method: "PUT", token: session.access_token, body: "{}" });
    expect(empty.status).toBe(200);
    expect(empty.body.profile).toMatchObject({ company_name: "Ridge Roofing", company_phone: "(512) 555-0142", company_category: "Roofing" });
    const one = await api("/api/profile", { method: "PUT", token: session.access_token, body: JSON.stringify({ company_phone: null }) });
    expect(one.body.profile).toMatchObject({ company_name: "Ridge Roofing", company_phone: null, company_location: "Austin, TX" });
  });

  it.each([
    ["form-encoded", "application/x-www-form-urlencoded", "company_name=&company_phone="],
    ["no content type", null, "company_name="],
  ])("answers 415 to a %s body and keeps the profile (it once cleared it all)", async (_name, type, body) => {
    const { session } = await signUp();
    await api("/api/profile", { method: "PUT", token: session.access_token, body: JSON.stringify(FULL) });
    const req = new Request(`${BASE}/api/profile`, { method: "PUT", body, headers: { Authorization: `Bearer ${session.access_token}` } });
    if (type) req.headers.set("Content-Type", type);
    else req.headers.delete("Content-Type");
    const res = await SELF.fetch(req);
    expect(res.status).toBe(415);
    expect((await api("/api/profile", { token: session.access_token })).body.profile.company_name).toBe("Ridge Roofing");
  });

  it.each([
    ["company_email", "not-an-email"],
    ["company_website", "not a site"],
    ["company_category", "Bakery"],
    ["company_name", "x".repeat(201)],
    ["company_description", "x".repeat(2001)],
  ])("refuses a bad %s with 400 and the field named, saving nothing", async (field, value) => {
    const { session } = await signUp();
    const res = await api("/api/profile", { method: "PUT", token: session.access_token, body: JSON.stringify({ ...FULL, [field]: value }) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    expect(Object.keys(res.body.error.fields)).toContain(field);
    expect((await api("/api/profile", { token: session.access_token })).body.profile.company_name).toBeNull();
  });

  it("says the address is unconfirmed, and to an ADMIN_EMAILS user that admin rights wait on the link (issue 26)", async () => {
    const listed = await signUpUnconfirmed("second.admin@agency.test");
    const own = await api("/api/profile", { token: listed.session.access_token });
    expect(own.body).toMatchObject({ emailUnconfirmed: true, adminAwaitsConfirmation: true, profile: { is_admin: false } });
    const regular = await signUpUnconfirmed();
    expect((await api("/api/profile", { token: regular.session.access_token })).body).toMatchObject({ emailUnconfirmed: true, adminAwaitsConfirmation: false });
  });

  it("keeps the business's time zone, an IANA name, and refuses one Intl does not know (issue 26)", async () => {
    const { session } = await signUp();
    const token = session.access_token;
    expect((await api("/api/profile", { token })).body.profile.time_zone).toBeNull();
    const put = await api("/api/profile", { method: "PUT", token, body: JSON.stringify({ time_zone: "America/Chicago" }) });
    expect(put.status).toBe(200);
    expect(put.body.profile.time_zone).toBe("America/Chicago");
    const bad = await api("/api/profile", { method: "PUT", token, body: JSON.stringify({ time_zone: "Mars/Olympus_Mons" }) });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("validation_failed");
    expect(JSON.stringify(bad.body.error)).toContain("Choose a time zone from the list");
    expect((await api("/api/profile", { token })).body.profile.time_zone).toBe("America/Chicago");
  });

  it("refuses without a session (401) and while viewing as another user (403)", async () => {
    expect((await api("/api/profile", { method: "PUT", body: JSON.stringify(FULL) })).status).toBe(401);
    const admin = await signUpAdmin();
    const user = await signUp();
    const res = await api("/api/profile", { method: "PUT", token: admin.session.access_token, viewAs: user.user.id, body: JSON.stringify(FULL) });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("view_as_read_only");
  });

  it("shows the viewed user's profile to an admin viewing as them", async () => {
    const admin = await signUpAdmin();
    const user = await signUp();
    await api("/api/profile", { method: "PUT", token: user.session.access_token, body: JSON.stringify(FULL) });
    const res = await api("/api/profile", { token: admin.session.access_token, viewAs: user.user.id });
    expect(res.body).toMatchObject({ viewingAs: true, profile: { id: user.user.id, company_name: "Ridge Roofing" } });
  });

  it("answers malformed JSON with 400, not 500", async () => {
    const { session } = await signUp();
    const res = await api("/api/profile", { method: "PUT", token: session.access_token, body: "{not json" });
    expect(res.status).toBe(400);
  });
});

describe("POST /api/profile/logo", () => {
  it.each([
    ["png", PNG, "image/png"],
    ["jpeg", JPEG, "image/jpeg"],
    ["webp", WEBP, "image/webp"],
    ["gif", GIF, "image/gif"],
  ])("stores a %s in R2 and serves it from /api/files with long caching and nosniff", async (_name, bytes, mime) => {
    const { session, user } = await signUp();
    const res = await upload(session.access_token, bytes, "logo.bin", "application/octet-stream");
    expect(res.status).toBe(201);
    const url: string = res.body.profile.company_logo_url;
    expect(url).toMatch(new RegExp(`^/api/files/logos/${user.id}/[0-9a-f-]{36}\\.`));
    const file = await SELF.fetch(`${BASE}${url}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe(mime);
    expect(file.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(file.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
  });

  it("decides the type by the bytes: a PNG renamed .gif is stored as PNG", async () => {
    const { session } = await signUp();
    const res = await upload(session.access_token, PNG, "logo.gif", "image/gif");
    expect(res.status).toBe(201);
    expect(res.body.profile.company_logo_url).toMatch(/\.png$/);
    const file = await SELF.fetch(`${BASE}${res.body.profile.company_logo_url}`);
    expect(file.headers.get("Content-Type")).toBe("image/png");
    await file.arrayBuffer();
  });

  it("refuses an SVG renamed .png with 415 and stores nothing", async () => {
    const { session, user } = await signUp();
    const res = await upload(session.access_token, SVG, "logo.png", "image/png");
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe("unsupported_media_type");
    expect((await env.FILES.list({ prefix: `logos/${user.id}/` })).objects).toHaveLength(0);
  });

  it("takes exactly 2 MB and refuses 2 MB + 1 byte with the spec's message", async () => {
    const { session, user } = await signUp();
    const exact = new Uint8Array(LOGO_MAX_BYTES);
    exact.set(PNG);
    expect((await upload(session.access_token, exact, "big.png")).status).toBe(201);
    const over = new Uint8Array(LOGO_MAX_BYTES + 1);
    over.set(PNG);
    const res = await upload(session.access_token, over, "bigger.png");
    expect(res.status).toBe(413);
    expect(res.body.error.message).toBe(LOGO_TOO_LARGE_MESSAGE);
    expect((await env.FILES.list({ prefix: `logos/${user.id}/` })).objects).toHaveLength(1);
  });

  it("deletes the old object when the logo is replaced, and when it is removed", async () => {
    const { session, user } = await signUp();
    const first = await upload(session.access_token, PNG, "a.png");
    const firstKey = fileKeyFromUrl(first.body.profile.company_logo_url)!;
    expect(await env.FILES.head(firstKey)).not.toBeNull();

    const second = await upload(session.access_token, JPEG, "b.jpg");
    const secondKey = fileKeyFromUrl(second.body.profile.company_logo_url)!;
    expect(secondKey).not.toBe(firstKey);
    expect(await env.FILES.head(firstKey)).toBeNull();
    expect((await SELF.fetch(`${BASE}/api/files/${firstKey}`)).status).toBe(404);
    expect((await env.FILES.list({ prefix: `logos/${user.id}/` })).objects.map((o) => o.key)).toEqual([secondKey]);

    const removed = await api("/api/profile/logo", { method: "DELETE", token: session.access_token });
    expect(removed.status).toBe(200);
    expect(removed.body.profile.company_logo_url).toBeNull();
    expect(await env.FILES.head(secondKey)).toBeNull();
  });

  it("refuses a missing file (400), no session (401) and a write while viewing as (403)", async () => {
    const { session } = await signUp();
    const empty = await SELF.fetch(`${BASE}/api/profile/logo`, {
      method: "POST",
      body: new FormData(),
      headers: { Authorization: `Bearer ${session.access_token}` },
    });
    expect(empty.status).toBe(400);
    await empty.arrayBuffer();
    const anonymous = new FormData();
    anonymous.append("file", new File([PNG], "a.png"));
    const res = await SELF.fetch(`${BASE}/api/profile/logo`, { method: "POST", body: anonymous });
    expect(res.status).toBe(401);
    await res.arrayBuffer();
    const admin = await signUpAdmin();
    expect((await upload(admin.session.access_token, PNG, "a.png", "image/png", session.user.id)).status).toBe(403);
  });

  it("serves nothing outside the logo keys from /api/files", async () => {
    await env.FILES.put("secrets/readme.txt", "private");
    const res = await SELF.fetch(`${BASE}/api/files/secrets/readme.txt`);
    expect(res.status).toBe(404);
    await res.arrayBuffer();
  });
});
