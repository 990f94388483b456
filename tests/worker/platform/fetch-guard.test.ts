// The fetch guard (issue 26): the address rule on the URL as written, then a host name's A and AAAA addresses over
// DNS-over-HTTPS (the fake resolver on loopback, tests/fakes/dns-fake.ts), refused when any is not public, failing
// closed when the resolver fails. Nothing here is requested: a passing URL goes to a recording fetcher only.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../../worker/platform/env";
import { guardedFetch, guardUrl } from "../../../worker/platform/providers/fetch-guard";
import { resolveHost } from "../../../worker/platform/providers/dns";
import { FAKE_DNS_DOWN, FAKE_DNS_SERVFAIL, FAKE_PUBLIC_V4, FAKE_PUBLIC_V6 } from "../../fakes/dns-data";

type DnsRequest = { name: string; type: string; accept: string | null };

async function dnsRequests(): Promise<DnsRequest[]> {
  return ((await (await fetch(`${env.TEST_DNS_URL}/__requests`)).json()) as { requests: DnsRequest[] }).requests;
}

const guard = (url: string, allowLoopback = false, e: Env = env as Env) => guardUrl(e, url, { allowLoopback });

describe("names are resolved, and refused when any address is not public", () => {
  it.each([
    // [url, allowLoopback, expected code or "ok"]
    ["http://www.joes-plumbing.example/", false, "ok"],
    ["https://public-v6.example/", false, "ok"],
    ["https://apple.com/", false, "ok"], // Google's documented example answer: three public A records
    ["http://169.254.169.254.nip.io/latest/meta-data/", false, "link_local"],
    ["http://169.254.169.254.nip.io/latest/meta-data/", true, "link_local"],
    ["http://127.0.0.1.nip.io/", false, "loopback"],
    // A NAME that resolves to loopback stays refused with the loopback allowance: it covers literals and localhost only.
    ["http://127.0.0.1.nip.io/", true, "loopback"],
    ["http://loopback.rebind.example/", true, "loopback"],
    ["http://10.0.0.1.nip.io/", false, "private"],
    ["http://192.168.1.1.nip.io/", false, "private"],
    ["http://metadata.rebind.example/", false, "link_local"],
    ["http://private.rebind.example/", false, "private"],
    ["http://cgnat.rebind.example/", false, "cgnat"],
    ["http://unspecified.rebind.example/", false, "unspecified"],
    ["http://mixed.rebind.example/", false, "unique_local"], // one public A, one fd00::1 AAAA
    ["http://link-local-v6.rebind.example/", false, "link_local"],
    ["http://mapped.rebind.example/", false, "private"], // ::ffff:192.168.1.1
    ["http://loopback-v6.rebind.example/", false, "loopback"],
    ["http://cname.rebind.example/", false, "private"], // CNAME to an internal name at 192.168.10.20
    ["http://no-such-name.example/", false, "dns_not_found"],
    [`http://${FAKE_DNS_SERVFAIL}/`, false, "dns_unavailable"],
    [`http://${FAKE_DNS_DOWN}/`, false, "dns_unavailable"],
  ] as const)("%s (loopback allowed: %s) → %s", async (url, allowLoopback, expected) => {
    const got = await guard(url, allowLoopback);
    if (expected === "ok") expect(got).toMatchObject({ ok: true });
    else expect(got).toMatchObject({ ok: false, code: expected });
  });

  it("says which address refused the name", async () => {
    expect(await guard("http://169.254.169.254.nip.io/")).toMatchObject({ reason: "169.254.169.254.nip.io resolves to 169.254.169.254, which is a link-local address." });
  });

  it("asks for A and AAAA with the DoH JSON media type, and keeps every address", async () => {
    expect(await guard("http://www.joes-plumbing.example/")).toMatchObject({ ok: true, addresses: [FAKE_PUBLIC_V4, FAKE_PUBLIC_V6] });
    // A name no other test asks for (nip.io style: the address is in the name).
    expect(await guard(`http://${FAKE_PUBLIC_V4}.nip.io/`)).toMatchObject({ ok: true, addresses: [FAKE_PUBLIC_V4] });
    const asked = (await dnsRequests()).filter((r) => r.name === `${FAKE_PUBLIC_V4}.nip.io`);
    expect(asked.map((r) => r.type).sort()).toEqual(["A", "AAAA"]);
    expect(asked.every((r) => r.accept === "application/dns-json")).toBe(true);
  });
});

describe("literals and localhost need no DNS", () => {
  it.each([
    ["http://127.0.0.1:8080/", true, "ok"],
    ["http://localhost:8080/", true, "ok"],
    ["http://localhost/", false, "localhost"],
    ["http://127.0.0.1/", false, "loopback"],
    ["http://10.1.2.3/", true, "private"],
    ["http://169.254.169.254/latest/meta-data/", true, "link_local"],
    ["http://[::ffff:169.254.169.254]/", true, "link_local"],
    ["https://8.8.8.8/", false, "ok"],
    ["http://metadata.google.internal/", false, "metadata"],
    ["http://printer.local/", false, "internal_name"],
  ] as const)("%s (loopback allowed: %s) → %s, without a lookup", async (url, allowLoopback, expected) => {
    const host = new URL(url).hostname;
    const before = (await dnsRequests()).filter((r) => r.name === host).length;
    const got = await guard(url, allowLoopback);
    if (expected === "ok") expect(got).toMatchObject({ ok: true, addresses: null });
    else expect(got).toMatchObject({ ok: false, code: expected });
    expect((await dnsRequests()).filter((r) => r.name === host).length).toBe(before);
  });
});

describe("the resolver unreachable", () => {
  it("refuses the fetch (fail closed) with a reason a customer can read", async () => {
    // Nothing listens on port 9 (discard) of loopback.
    const down = { ...env, DNS_RESOLVER_URL: "http://127.0.0.1:9/dns-query" } as Env;
    const got = await guard("http://www.joes-plumbing.example/", false, down);
    expect(got).toEqual({ ok: false, code: "dns_unavailable", reason: "www.joes-plumbing.example could not be looked up just now; try again later." });
    expect(await resolveHost(down, "www.joes-plumbing.example")).toMatchObject({ ok: false, code: "unavailable" });
  });
});

describe("guardedFetch", () => {
  it("never requests a refused URL, and requests a passing one without following redirects", async () => {
    const requested: { url: string; redirect?: RequestInit["redirect"] }[] = [];
    const fetcher = async (url: string, init: RequestInit) => {
      requested.push({ url, redirect: init.redirect });
      return new Response("ok");
    };
    const refused = await guardedFetch(env as Env, "http://metadata.rebind.example/latest/", {}, { allowLoopback: true, fetcher });
    expect(refused).toMatchObject({ ok: false, code: "link_local" });
    expect(requested).toEqual([]);
    const passed = await guardedFetch(env as Env, "http://www.joes-plumbing.example/", { redirect: "follow" }, { allowLoopback: false, fetcher });
    expect(passed).toMatchObject({ ok: true, url: "http://www.joes-plumbing.example/" });
    expect(requested).toEqual([{ url: "http://www.joes-plumbing.example/", redirect: "manual" }]);
  });
});
