// Tests the address rule the audit and webhooks fetch under. Pure: these URLs are only parsed, never requested.
import { describe, it, expect } from "vitest";
import { itReturns, itReturnsEqual } from "../each";
import { checkPublicUrl, classifyIp, parseIPv4, parseIPv6 } from "../../../worker/domain/public-address";

describe("checkPublicUrl accepts public http(s) hosts on the default port", () => {
  it.each([
    "https://smithplumbing.com/",
    "http://www.smithplumbing.com/contact?x=1",
    "https://smithplumbing.com:443/",
    "http://smithplumbing.com:80/",
    "https://8.8.8.8/",
    "https://[2606:4700::1111]/",
    "https://SmithPlumbing.COM./",
    "https://xn--bcher-kva.example/",
    "https://24.be/",
    "https://1e100.net/",
  ])("%s", (url) => {
    expect(checkPublicUrl(url).ok).toBe(true);
  });

  it("accepts a host whose resolved addresses are all public", () => {
    expect(checkPublicUrl("https://smithplumbing.com/", { resolvedIps: ["93.184.216.34", "2606:2800:220:1::1"] }).ok).toBe(true);
  });
});

describe("checkPublicUrl refuses", () => {
  it.each([
    ["not a url", "bad_url"],
    ["ftp://smithplumbing.com/", "scheme"],
    ["file:///etc/passwd", "scheme"],
    ["javascript:alert(1)", "scheme"],
    ["data:text/html,hi", "scheme"],
    ["gopher://smithplumbing.com/", "scheme"],
    ["https://user:pass@smithplumbing.com/", "credentials"],
    ["https://smithplumbing.com:8443/", "port"],
    ["http://smithplumbing.com:443/", "port"],
    ["http://smithplumbing.com:22/", "port"],
    ["http://localhost/", "localhost"],
    ["http://LOCALHOST./", "localhost"],
    ["http://app.localhost/", "localhost"],
    ["http://127.0.0.1/", "loopback"],
    ["http://127.1/", "loopback"],
    ["http://127.255.255.254/", "loopback"],
    ["http://2130706433/", "loopback"],
    ["http://0x7f000001/", "loopback"],
    ["http://0x7f.0.0.1/", "loopback"],
    ["http://0177.0.0.1/", "loopback"],
    ["http://017700000001/", "loopback"],
    ["http://[::1]/", "loopback"],
    ["http://[0:0:0:0:0:0:0:1]/", "loopback"],
    ["http://[::ffff:127.0.0.1]/", "loopback"],
    ["http://[::ffff:7f00:1]/", "loopback"],
    ["http://[::ffff:0:127.0.0.1]/", "loopback"],
    ["http://[::127.0.0.1]/", "loopback"],
    ["http://[64:ff9b::127.0.0.1]/", "loopback"],
    ["http://[2002:7f00:1::]/", "loopback"],
    ["http://0.0.0.0/", "unspecified"],
    ["http://0/", "unspecified"],
    ["http://[::]/", "unspecified"],
    ["http://10.0.0.1/", "private"],
    ["http://10.255.255.255/", "private"],
    ["http://172.16.0.1/", "private"],
    ["http://172.31.255.255/", "private"],
    ["http://192.168.1.1/", "private"],
    ["http://3232235777/", "private"],
    ["http://0xc0a80101/", "private"],
    ["http://[::ffff:10.0.0.1]/", "private"],
    ["http://[::ffff:c0a8:101]/", "private"],
    ["http://169.254.169.254/latest/meta-data/", "link_local"],
    ["http://[::ffff:169.254.169.254]/", "link_local"],
    ["http://[fe80::1]/", "link_local"],
    ["http://[febf::1]/", "link_local"],
    ["http://100.64.0.1/", "cgnat"],
    ["http://100.127.255.255/", "cgnat"],
    ["http://100.100.100.200/", "cgnat"],
    ["http://[fc00::1]/", "unique_local"],
    ["http://[fd00:ec2::254]/", "unique_local"],
    ["http://224.0.0.1/", "multicast"],
    ["http://[ff02::1]/", "multicast"],
    ["http://255.255.255.255/", "reserved"],
    ["http://240.0.0.1/", "reserved"],
    ["http://192.0.2.10/", "reserved"],
    ["http://[2001:db8::1]/", "reserved"],
    ["http://metadata.google.internal/computeMetadata/v1/", "metadata"],
    ["http://metadata/", "metadata"],
    ["http://instance-data/", "metadata"],
    ["http://intranet/", "internal_name"],
    ["http://printer.local/", "internal_name"],
    ["http://db.internal/", "internal_name"],
    ["http://router.home.arpa/", "internal_name"],
  ])("%s (%s)", (url, code) => {
    const decision = checkPublicUrl(url);
    expect(decision.ok).toBe(false);
    if (!decision.ok) {
      expect(decision.code).toBe(code);
      expect(decision.reason.length).toBeGreaterThan(0);
    }
  });

  it.each([
    [["127.0.0.1"], "loopback"],
    [["93.184.216.34", "10.1.2.3"], "private"],
    [["::ffff:169.254.169.254"], "link_local"],
    [["fd12:3456::1"], "unique_local"],
    [["100.64.1.1"], "cgnat"],
    [["::"], "unspecified"],
    [["not-an-ip"], "bad_url"],
  ])("a public-looking host that resolves to %j (%s)", (ips, code) => {
    const decision = checkPublicUrl("https://rebind.example.com/", { resolvedIps: ips });
    expect(decision).toMatchObject({ ok: false, code });
  });
});

describe("allowLoopback (AUDIT_ALLOW_LOOPBACK) lets loopback and its port through, and nothing else", () => {
  it.each([
    "http://127.0.0.1:19431/site",
    "http://localhost:19431/",
    "http://[::1]:8080/",
    "http://127.0.0.2/",
    "http://shop.localhost:3000/",
  ])("%s", (url) => {
    expect(checkPublicUrl(url, { allowLoopback: true }).ok).toBe(true);
  });

  it("allows a host resolved to loopback only, with its port", () => {
    expect(checkPublicUrl("http://fake-site.test.example:19431/", { allowLoopback: true, resolvedIps: ["127.0.0.1"] }).ok).toBe(true);
  });

  it.each([
    ["http://10.0.0.1/", "private"],
    ["http://169.254.169.254/", "link_local"],
    ["http://[fc00::1]/", "unique_local"],
    ["http://0.0.0.0:19431/", "unspecified"],
    ["https://smithplumbing.com:8443/", "port"],
    ["ftp://127.0.0.1/", "scheme"],
  ])("%s is still refused (%s)", (url, code) => {
    expect(checkPublicUrl(url, { allowLoopback: true })).toMatchObject({ ok: false, code });
  });

  it("still refuses a public name resolving to a private address, or a port on a public one", () => {
    expect(checkPublicUrl("http://a.example.com/", { allowLoopback: true, resolvedIps: ["127.0.0.1", "10.0.0.1"] })).toMatchObject({ ok: false, code: "private" });
    expect(checkPublicUrl("http://a.example.com:8080/", { allowLoopback: true, resolvedIps: ["127.0.0.1", "93.184.216.34"] })).toMatchObject({ ok: false, code: "port" });
  });
});

describe("IP parsing", () => {
  itReturns("parseIPv4(%s) = %s", parseIPv4, [
    ["127.0.0.1", 0x7f000001],
    ["127.1", 0x7f000001],
    ["0x7f.1", 0x7f000001],
    ["0177.0.0.01", 0x7f000001],
    ["2130706433", 0x7f000001],
    ["256.0.0.1", null],
    ["1.2.3.4.5", null],
    ["example.com", null],
    ["1..2", null],
  ]);

  itReturnsEqual("parseIPv6(%s)", parseIPv6, [
    ["::1", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["[fe80::1%eth0]", [0xfe80, 0, 0, 0, 0, 0, 0, 1]],
    ["::ffff:1.2.3.4", [0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]],
    ["2001:db8::", [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]],
    ["1:2:3:4:5:6:7:8", [1, 2, 3, 4, 5, 6, 7, 8]],
    ["1:2:3", null],
    ["1::2::3", null],
    ["::ffff:1.2.3", null],
    ["gggg::1", null],
  ]);

  itReturns("classifyIp(%s) = %s", classifyIp, [
    ["8.8.8.8", "public"],
    ["172.15.255.255", "public"],
    ["172.32.0.0", "public"],
    ["100.63.255.255", "public"],
    ["100.128.0.0", "public"],
    ["169.253.255.255", "public"],
    ["2606:4700::1111", "public"],
    ["::ffff:8.8.8.8", "public"],
    ["fec0::1", "private"],
    ["hello", null],
  ]);
});
