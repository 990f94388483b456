// /api/prospects: bulk import (spec §5 rules and texts), duplicates, search over the eight fields, pages, tag, delete, CSV.
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { fieldTooLong, INVALID_ROW_FORMAT } from "../../../worker/features/prospects/rules/import";
import { prospectSearchText, type ProspectSearchFields } from "../../../worker/features/prospects/rules/prospect";
import { api, BASE, callRoute, expectViewingAs, signUp, signUpAdmin } from "../helpers";

const row = (...fields: string[]) => fields.join("\t");
const marker = () => crypto.randomUUID().slice(0, 8);

let admin: Awaited<ReturnType<typeof signUpAdmin>>;
let token: string;

beforeAll(async () => {
  admin = await signUpAdmin();
  token = admin.session.access_token;
});

async function importText(text: string, extra: Record<string, unknown> = {}, as = token) {
  return api("/api/prospects/import", { method: "POST", token: as, body: JSON.stringify({ text, ...extra }) });
}

async function list(query = "", as = token) {
  return api(`/api/prospects${query ? `?${query}` : ""}`, { token: as });
}

async function countRows(sql: string, ...binds: unknown[]) {
  const r = await env.DB.prepare(sql).bind(...binds).first<{ n: number }>();
  return r!.n;
}

describe("POST /api/prospects/import", () => {
  it("creates a prospect and its report from each row of the spec's format", async () => {
    const m = marker();
    const text = [
      row("Roof repair and replacement", `Acme Roofing ${m}`, "Austin, TX", "(512) 555-0100", "info@acme.test", "Jane Doe"),
      row("Emergency plumbing", `Drip Fixers ${m}`, "Milano, Italy", "+39 02 1234 5678", "ciao@drip.test"),
      row("Family HVAC service", `Cool Air ${m}`, "Denver, CO"),
    ].join("\n");
    const res = await importText(text);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.errors).toEqual([]);
    expect(res.body.duplicates).toEqual([]);
    expect(res.body.skipped).toEqual([]);
    expect(res.body.created.map((c: { row: number }) => c.row)).toEqual([1, 2, 3]);

    const [acme, drip, cool] = res.body.created;
    expect(acme.prospect).toMatchObject({
      name: `Acme Roofing ${m}`,
      company_name: `Acme Roofing ${m}`,
      description: "Roof repair and replacement",
      area: "Austin, TX",
      phone: "15125550100",
      email: "info@acme.test",
      keyword: "roofer in austin",
      tag: "Roofing",
      user_id: admin.user.id,
      report: { id: acme.reportId, content_generated: false, status: "draft" },
    });
    expect(drip.prospect).toMatchObject({ phone: "390212345678", tag: "Plumbing", keyword: "plumber in milano" });
    expect(cool.prospect).toMatchObject({ phone: "", email: "", tag: "HVAC", keyword: "hvac contractor in denver" });

    const report = await env.DB.prepare("select prospect_id, content_generated, questions, user_id from seo_reports where id = ?")
      .bind(acme.reportId)
      .first();
    expect(report).toEqual({
      prospect_id: acme.prospect.id,
      content_generated: 0,
      user_id: admin.user.id,
      questions:
        "Is your project located in or near Austin, TX?,What type of roofing work do you need: a repair or a full replacement?,What is your estimated budget for this roofing project?",
    });
  });

  it("reports malformed rows with the spec's message and row number, and still creates the good ones", async () => {
    const m = marker();
    const text = [
      row("Painting", `Brush Co ${m}`, "Reno, NV"),
      "just one field",
      row("Cleaning", `Sparkle ${m}`),
      row("Lawn care", `Green ${m}`, "Boise, ID"),
    ].join("\n");
    const res = await importText(text);
    expect(res.status).toBe(200);
    expect(res.body.created.map((c: { row: number }) => c.row)).toEqual([1, 4]);
    expect(res.body.errors).toEqual([
      { row: 2, message: INVALID_ROW_FORMAT },
      { row: 3, message: INVALID_ROW_FORMAT },
    ]);
    expect(INVALID_ROW_FORMAT).toBe(
      "Invalid row format. Expected format: Description\\tName\\tLocation\\tPhone\\tEmail\\tFull Name",
    );
  });

  it("refuses a row with a field longer than the form allows, and still creates the valid rows", async () => {
    const m = marker();
    const text = [
      row("Roofing", `Fits ${m}`, "Tulsa, OK"),
      row("Roofing", `Long ${m} ${"x".repeat(200)}`, "Tulsa, OK"),
      row("x".repeat(5001), `Wordy ${m}`, "Tulsa, OK"),
      row("Roofing", `Far ${m}`, "y".repeat(201)),
      row("Roofing", `Dialled ${m}`, "Tulsa, OK", "5".repeat(51)),
      row("Roofing", `Mailed ${m}`, "Tulsa, OK", "", `${"z".repeat(250)}@a.io`),
      row("Plumbing", `Also fits ${m}`, "Waco, TX"),
    ].join("\n");
    const res = await importText(text);
    expect(res.status).toBe(200);
    expect(res.body.created.map((c: { row: number }) => c.row)).toEqual([1, 7]);
    expect(res.body.errors).toEqual([
      { row: 2, message: fieldTooLong("Name", 200) },
      { row: 3, message: fieldTooLong("Description", 5000) },
      { row: 4, message: fieldTooLong("Location", 200) },
      { row: 5, message: fieldTooLong("Phone", 50) },
      { row: 6, message: fieldTooLong("Email", 254) },
    ]);
    const stored = await env.DB.prepare("select count(*) as n from prospects where name like ?").bind(`%${m}%`).first<{ n: number }>();
    expect(stored!.n).toBe(2);
  });

  it("skips rows whose name or location is blank, silently", async () => {
    const m = marker();
    const res = await importText(
      [row("Roofing", "", "Austin"), row("Roofing", `Named ${m}`, "  "), row("Roofing", `Kept ${m}`, "Waco, TX")].join("\n"),
    );
    expect(res.body.skipped).toEqual([1, 2]);
    expect(res.body.errors).toEqual([]);
    expect(res.body.created).toHaveLength(1);
    expect(await countRows("select count(*) n from prospects where name = ?", `Named ${m}`)).toBe(0);
  });

  it("numbers rows from startRow, so chunked pastes keep the original row numbers", async () => {
    const m = marker();
    const res = await importText([row("Roofing", `Chunk ${m}`, "Tulsa, OK"), "bad row"].join("\n"), { startRow: 101 });
    expect(res.body.created[0].row).toBe(101);
    expect(res.body.errors).toEqual([{ row: 102, message: INVALID_ROW_FORMAT }]);
  });

  it("answers an empty paste and a paste of blank lines with the spec's messages", async () => {
    const empty = await importText("   ");
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: "validation_failed", message: "Please enter prospect data" });
    const missing = await api("/api/prospects/import", { method: "POST", token, body: JSON.stringify({}) });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("validation_failed");
  });

  it("answers malformed JSON with 400, not 500", async () => {
    const res = await api("/api/prospects/import", { method: "POST", token, body: "{not json" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
  });

  it("refuses an oversized body and too many rows with 413 and a clear message", async () => {
    const big = await importText("x".repeat(2 * 1024 * 1024 + 10));
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe("payload_too_large");
    expect(big.body.error.message).toMatch(/at most 2 MB/);
    const many = await importText(Array.from({ length: 2001 }, (_, i) => row("Roofing", `R${i}`, "Here")).join("\n"));
    expect(many.status).toBe(413);
    expect(many.body.error.message).toMatch(/at most 2,000 rows/);
  });

  it("reports rows matching an existing prospect (same name and phone, or same name and area) as duplicates", async () => {
    const m = marker();
    const first = await importText(
      [row("Roofing", `Dupe Roofs ${m}`, "Austin, TX", "512-555-0101"), row("Plumbing", `Pipe Pros ${m}`, "Dallas, TX")].join("\n"),
    );
    const existingRoofs = first.body.created[0].prospect.id;
    const existingPipes = first.body.created[1].prospect.id;
    const again = await importText(
      [
        row("Roofing", `dupe roofs ${m}`, "Somewhere else", "(512) 555-0101"), // same name (any case) + phone
        row("Plumbing", `Pipe Pros ${m}`, "dallas, tx", "999"), // same name + area
        row("Plumbing", `Pipe Pros ${m}`, "Houston, TX", "888"), // same name only: not a duplicate
      ].join("\n"),
    );
    expect(again.body.duplicates).toEqual([
      { row: 1, name: `dupe roofs ${m}`, existingId: existingRoofs },
      { row: 2, name: `Pipe Pros ${m}`, existingId: existingPipes },
    ]);
    expect(again.body.created.map((c: { row: number }) => c.row)).toEqual([3]);
    expect(await countRows("select count(*) n from prospects where lower(name) = lower(?)", `Dupe Roofs ${m}`)).toBe(1);
  });

  it("finds duplicates within the same paste, and imports them anyway when asked", async () => {
    const m = marker();
    const text = [row("Roofing", `Twin ${m}`, "Austin, TX"), row("Roofing", `Twin ${m}`, "Austin, TX")].join("\n");
    const res = await importText(text);
    expect(res.body.created).toHaveLength(1);
    expect(res.body.duplicates).toEqual([{ row: 2, name: `Twin ${m}`, existingId: res.body.created[0].prospect.id }]);

    const anyway = await importText(text, { allowDuplicates: true });
    expect(anyway.body.duplicates).toEqual([]);
    expect(anyway.body.created).toHaveLength(2);
    expect(await countRows("select count(*) n from prospects where name = ?", `Twin ${m}`)).toBe(3);
  });

  it("lands 1,000 rows as 1,000 prospects and 1,000 reports", async () => {
    const m = marker();
    const text = Array.from({ length: 1000 }, (_, i) =>
      row("Roof repair", `Bulk ${m} ${i}`, `Town ${i}, TX`, `512555${String(i).padStart(4, "0")}`, `b${i}@bulk.test`),
    ).join("\n");
    const res = await importText(text);
    expect(res.status).toBe(200);
    expect(res.body.created).toHaveLength(1000);
    expect(res.body.errors).toEqual([]);
    expect(await countRows("select count(*) n from prospects where name like ?", `Bulk ${m} %`)).toBe(1000);
    expect(
      await countRows(
        "select count(*) n from seo_reports r join prospects p on p.id = r.prospect_id where p.name like ? and r.content_generated = 0",
        `Bulk ${m} %`,
      ),
    ).toBe(1000);
    // Newest first keeps the paste's order reversed (the last row is the newest), page after page.
    const page = await list(`q=${encodeURIComponent(`bulk ${m}`)}&limit=3`);
    expect(page.body.total).toBe(1000);
    expect(page.body.prospects.map((p: { name: string }) => p.name)).toEqual([
      `Bulk ${m} 999`,
      `Bulk ${m} 998`,
      `Bulk ${m} 997`,
    ]);
  });
});

describe("GET /api/prospects", () => {
  const m = marker();
  let ids: Record<string, string> = {};

  beforeAll(async () => {
    const res = await importText(
      [
        row(`Gutter cleaning zq${m}d`, `Searchable zq${m}n`, `Area zq${m}a, TX`, "555 0100", `mail-zq${m}e@x.test`),
        row("Window washing", `Other Co ${m}`, "Plano, TX", "214-555-0199", `other${m}@x.test`),
      ].join("\n"),
    );
    ids = { first: res.body.created[0].prospect.id, second: res.body.created[1].prospect.id };
    // A tag and a company name distinct from the name, so every field is searched on its own.
    await api(`/api/prospects/${ids.first}`, { method: "PATCH", token, body: JSON.stringify({ tag: "Pool Services" }) });
    const p = await env.DB.prepare("select * from prospects where id = ?").bind(ids.first).first<ProspectSearchFields>();
    const companyName = `Company zq${m}c`;
    await env.DB.prepare("update prospects set company_name = ?, search_text = ? where id = ?")
      .bind(companyName, prospectSearchText({ ...p!, company_name: companyName }), ids.first)
      .run();
  });

  it.each([
    ["name", () => `SEARCHABLE ZQ${m}N`],
    ["area", () => `area zq${m}a`],
    ["keyword", () => `gutter cleaner in area zq${m}a`],
    ["tag", () => `pool services`],
    ["description", () => `zq${m}D`],
    ["company name", () => `company zq${m}c`],
    ["phone", () => `15550100`],
    ["email", () => `mail-zq${m}e@`],
  ])("finds a prospect by its %s, case-insensitively", async (_field, query) => {
    const res = await list(`q=${encodeURIComponent(query())}&limit=200`);
    expect(res.status).toBe(200);
    expect(res.body.prospects.map((p: { id: string }) => p.id)).toContain(ids.first);
    expect(res.body.prospects.map((p: { id: string }) => p.id)).not.toContain(ids.second);
  });

  it("matches a one- or two-character search too (no trigram: a scan)", async () => {
    const res = await list(`q=zq&limit=200`);
    expect(res.body.prospects.map((p: { id: string }) => p.id)).toContain(ids.first);
  });

  it("treats LIKE and FTS syntax in the search as plain text", async () => {
    for (const q of ['%', '_', '"', 'a"b OR c', "zq*", "NEAR(x y)"]) {
      const res = await list(`q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      if (q === "%" || q === "_") expect(res.body.total).toBe(0);
    }
  });

  it("returns each prospect with its report, the match count and the overall count", async () => {
    const res = await list(`q=${encodeURIComponent(`searchable zq${m}n`)}`);
    expect(res.body.total).toBe(1);
    expect(res.body.all).toBeGreaterThanOrEqual(2);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.prospects[0]).toMatchObject({
      id: ids.first,
      tag: "Pool Services",
      company_name: `Company zq${m}c`,
      report: { content_generated: false, status: "draft" },
    });
    expect(Object.keys(res.body.prospects[0]).sort()).toEqual(
      ["area", "company_name", "created_at", "description", "email", "id", "keyword", "last_chat_at", "name", "phone", "report", "tag", "user_id", "website"].sort(),
    );
  });

  it("pages newest first with a cursor, without gaps or repeats", async () => {
    const p = marker();
    await importText(Array.from({ length: 7 }, (_, i) => row("Roofing", `Pager ${p} ${i}`, "Austin")).join("\n"));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`q=${encodeURIComponent(`pager ${p}`)}&limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(7);
      seen.push(...res.body.prospects.map((x: { name: string }) => x.name));
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([6, 5, 4, 3, 2, 1, 0].map((i) => `Pager ${p} ${i}`));
  });

  it("answers a bad cursor or limit with 400", async () => {
    expect((await list("cursor=nonsense")).status).toBe(400);
    expect((await list("limit=0")).status).toBe(400);
    expect((await list("limit=abc")).status).toBe(400);
  });
});

describe("PATCH /api/prospects/:id", () => {
  /** One roofing prospect imported under a name no other test uses. */
  async function importedRoofer(name: string) {
    const m = marker();
    const created = await importText(row("Roofing", `${name} ${m}`, "Austin"));
    return { m, id: created.body.created[0].prospect.id as string };
  }

  it("sets one of the 21 categories, clears it with null, and keeps search in step", async () => {
    const { m, id } = await importedRoofer("Taggable");
    const res = await api(`/api/prospects/${id}`, { method: "PATCH", token, body: JSON.stringify({ tag: "Interior Design" }) });
    expect(res.status).toBe(200);
    expect(res.body.prospect).toMatchObject({ id, tag: "Interior Design", report: { status: "draft" } });
    const found = await list(`q=${encodeURIComponent(`interior design`)}&limit=200`);
    expect(found.body.prospects.map((p: { id: string }) => p.id)).toContain(id);
    const roofing = await list(`q=${encodeURIComponent(`taggable ${m}`)}`);
    expect(roofing.body.prospects[0].tag).toBe("Interior Design");

    const cleared = await api(`/api/prospects/${id}`, { method: "PATCH", token, body: JSON.stringify({ tag: null }) });
    expect(cleared.body.prospect.tag).toBeNull();
  });

  it("refuses a tag outside the list, and answers an unknown prospect with 404", async () => {
    const { id } = await importedRoofer("Strict");
    const bad = await api(`/api/prospects/${id}`, { method: "PATCH", token, body: JSON.stringify({ tag: "Astrology" }) });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.tag).toBeTruthy();
    const missing = await api(`/api/prospects/${crypto.randomUUID()}`, {
      method: "PATCH",
      token,
      body: JSON.stringify({ tag: "Roofing" }),
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual({ code: "not_found", message: "Prospect not found", requestId: expect.any(String) });
  });
});

describe("DELETE /api/prospects/:id", () => {
  it("removes the report and the prospect together", async () => {
    const m = marker();
    const created = await importText(row("Roofing", `Doomed ${m}`, "Austin"));
    const { prospect, reportId } = created.body.created[0];
    await env.DB.prepare("insert into chat_messages (id, report_id, role, content) values (?, ?, 'user', 'hi')")
      .bind(crypto.randomUUID(), reportId)
      .run();
    const res = await api(`/api/prospects/${prospect.id}`, { method: "DELETE", token });
    expect(res.status).toBe(200);
    expect(res.body.deleted).toEqual({ id: prospect.id, reportId });
    expect(await countRows("select count(*) n from prospects where id = ?", prospect.id)).toBe(0);
    expect(await countRows("select count(*) n from seo_reports where id = ?", reportId)).toBe(0);
    expect(await countRows("select count(*) n from chat_messages where report_id = ?", reportId)).toBe(0);
    expect((await list(`q=${encodeURIComponent(`doomed ${m}`)}`)).body.total).toBe(0);

    const again = await api(`/api/prospects/${prospect.id}`, { method: "DELETE", token });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe("Prospect not found");
  });
});

describe("GET /api/prospects/export.csv", () => {
  it("exports the current search as RFC 4180 CSV with formula cells defused", async () => {
    const m = marker();
    await importText(
      [
        row('Roofing, "best" in town', `Csv ${m} Quotes`, "Austin, TX", "5125550100", "q@x.test"),
        // A valid address may still start like a formula (a malformed one is refused at import: issue 26).
        row("=HYPERLINK(\"http://evil\")", `Csv ${m} Formula`, "+Plus, TX", "", "+mail@x.test"),
        row("-minus", `Csv ${m} Minus`, "Waco"),
      ].join("\n"),
    );
    const res = await SELF.fetch(`${BASE}/api/prospects/export.csv?q=${encodeURIComponent(`csv ${m}`)}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="prospects-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 byte-order mark, for spreadsheet apps
    const lines = new TextDecoder().decode(bytes).split("\r\n");
    // Every cell quoted.
    expect(lines[0]).toBe('"Name","Company Name","Description","Area","Keyword","Phone","Email","Tag","Created","Report ID","Report Status"');
    expect(lines).toHaveLength(5); // header, three rows, and the final empty string after the last CRLF
    expect(lines[4]).toBe("");
    // Newest first: the last pasted row comes first.
    expect(lines[1]).toMatch(new RegExp(`^"Csv ${m} Minus","Csv ${m} Minus","'-minus","Waco","minus in waco","","","Other",`));
    expect(lines[2]).toMatch(
      new RegExp(`^"Csv ${m} Formula","Csv ${m} Formula","'=HYPERLINK\\(""http://evil""\\)","'\\+Plus, TX",.*,"","'\\+mail@x\\.test",`),
    );
    expect(lines[3]).toContain(`"Roofing, ""best"" in town","Austin, TX","roofer in austin","15125550100","q@x.test","Roofing",`);
    expect(lines[3]).toMatch(/,"draft"$/);
  });
});

describe("who may call /api/prospects", () => {
  let regular: Awaited<ReturnType<typeof signUp>>;
  let otherAdmin: Awaited<ReturnType<typeof signUpAdmin>>;
  let prospectId: string;

  beforeAll(async () => {
    regular = await signUp();
    otherAdmin = await signUpAdmin();
    const created = await importText(row("Roofing", `Guarded ${marker()}`, "Austin"));
    prospectId = created.body.created[0].prospect.id;
  });

  const routes = () => [
    { method: "GET", path: "/api/prospects" },
    { method: "GET", path: "/api/prospects/export.csv" },
    { method: "POST", path: "/api/prospects/import", body: { text: row("Roofing", `Nope ${marker()}`, "Austin") } },
    { method: "PATCH", path: `/api/prospects/${prospectId}`, body: { tag: "Other" } },
    { method: "DELETE", path: `/api/prospects/${crypto.randomUUID()}` },
  ];
  const call = callRoute;

  it("anonymous: 401 on every route", async () => {
    for (const r of routes()) {
      const res = await call(r);
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
    }
  });

  it("a regular user: 403 admin_required on every route", async () => {
    for (const r of routes()) {
      const res = await call(r, { token: regular.session.access_token });
      expect(res.status, `${r.method} ${r.path}`).toBe(403);
      expect(res.body.error).toEqual({
        code: "admin_required",
        message: "You need administrator privileges to access this page.",
        requestId: expect.any(String),
      });
    }
  });

  it("a regular user sending X-View-As: 403 on every route", async () => {
    for (const r of routes()) {
      const res = await call(r, { token: regular.session.access_token, viewAs: admin.user.id });
      expect(res.status, `${r.method} ${r.path}`).toBe(403);
    }
  });

  it("an admin viewing as a regular user: 403 on every route (reads as that user, writes refused)", async () => {
    await expectViewingAs(routes(), token, { id: regular.user.id, isAdmin: false });
  });

  it("an admin viewing as another admin: reads work, every write is refused read-only", async () => {
    await expectViewingAs(routes(), token, { id: otherAdmin.user.id, isAdmin: true });
    expect((await list(`q=guarded`)).body.prospects.find((p: { id: string }) => p.id === prospectId)?.tag).toBe("Roofing");
  });

  it("another admin (not the creator) manages every prospect; unknown ids are 404", async () => {
    const other = otherAdmin.session.access_token;
    expect((await call(routes()[0]!, { token: other })).status).toBe(200);
    const patched = await call(routes()[3]!, { token: other });
    expect(patched.status).toBe(200);
    const missing = await call(routes()[4]!, { token: other });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
  });
});

describe("search input", () => {
  it.each(["roof\u0000", "a\u0007b", "x\u001b[31m"])("refuses control characters in q (%j) with 400, in the list and the export", async (q) => {
    const { session } = await signUpAdmin();
    for (const path of ["/api/prospects", "/api/prospects/export.csv"]) {
      const res = await api(`${path}?q=${encodeURIComponent(q)}`, { token: session.access_token });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
  });
});
