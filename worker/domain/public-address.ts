// The address rule for every fetch the worker makes on a user's say-so (the audit's website fetch, webhooks):
// http(s) on the default port to a public host only. Pure: no DNS, no fetch; worker/platform/providers/fetch-guard.ts looks a host
// name up over DNS-over-HTTPS and passes its addresses back in as `resolvedIps`.

export type AddressRefusal =
  | "bad_url"
  | "scheme"
  | "credentials"
  | "port"
  | "localhost"
  | "internal_name"
  | "metadata"
  | "unspecified"
  | "loopback"
  | "private"
  | "link_local"
  | "cgnat"
  | "unique_local"
  | "multicast"
  | "reserved";

export type AddressDecision = { ok: true; url: URL } | { ok: false; code: AddressRefusal; reason: string };

export type AddressOptions = {
  /** AUDIT_ALLOW_LOOPBACK: tests and local development reach loopback (any port) and nothing else private. */
  allowLoopback?: boolean;
  /** The host's addresses after DNS, where the platform lets the caller see them; every one must be public. */
  resolvedIps?: readonly string[];
};

type IpClass = "public" | Exclude<AddressRefusal, "bad_url" | "scheme" | "credentials" | "port" | "localhost" | "internal_name" | "metadata">;

const METADATA_HOSTS = new Set([
  "metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal",
  "metadata.azure.com", "metadata.platformequinix.com",
]);

const INTERNAL_SUFFIXES = [".local", ".internal", ".intranet", ".lan", ".home.arpa", ".corp", ".localdomain"];

/** Parses an IPv4 address in any form a resolver or URL parser accepts (dotted, decimal, hex, octal, short forms). */
export function parseIPv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length < 1 || parts.length > 4 || parts.some((p) => p === "")) return null;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part.slice(1), 8);
    else if (/^(?:0|[1-9]\d*)$/.test(part)) value = parseInt(part, 10);
    else return null;
    if (!Number.isFinite(value)) return null;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255)) return null;
  if (last >= 256 ** (4 - values.length)) return null;
  return values.reduce((acc, v, i) => acc + v * 256 ** (3 - i), 0) + last;
}

/** Parses an IPv6 address (with or without brackets, with an embedded dotted IPv4 tail) into eight 16-bit groups. */
export function parseIPv6(text: string): number[] | null {
  let body = text.replace(/^\[|\]$/g, "").toLowerCase();
  const zone = body.indexOf("%");
  if (zone >= 0) body = body.slice(0, zone);
  if (!body.includes(":")) return null;
  const lastColon = body.lastIndexOf(":");
  const maybeV4 = body.slice(lastColon + 1);
  if (maybeV4.includes(".")) {
    // a dotted IPv4 tail becomes the last two groups
    if (!/^\d{1,3}(?:\.\d{1,3}){3}$/.test(maybeV4)) return null;
    const v4 = parseIPv4(maybeV4);
    if (v4 === null) return null;
    body = `${body.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const toGroups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = toGroups(halves[0]!);
  const rest = halves.length === 2 ? toGroups(halves[1]!) : [];
  const groups = [...head, ...rest];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  const known = groups.length;
  if (halves.length === 1 && known !== 8) return null;
  if (halves.length === 2 && known > 7) return null;
  const zeros = halves.length === 2 ? new Array<number>(8 - known).fill(0) : [];
  return [...head.map((g) => parseInt(g, 16)), ...zeros, ...rest.map((g) => parseInt(g, 16))];
}

function inV4(ip: number, base: string, bits: number): boolean {
  const start = parseIPv4(base)!;
  const size = 2 ** (32 - bits);
  return ip >= start && ip < start + size;
}

/** What kind of address an IPv4 number is. */
export function classifyIPv4(ip: number): IpClass {
  if (inV4(ip, "0.0.0.0", 8)) return "unspecified";
  if (inV4(ip, "127.0.0.0", 8)) return "loopback";
  if (inV4(ip, "10.0.0.0", 8) || inV4(ip, "172.16.0.0", 12) || inV4(ip, "192.168.0.0", 16)) return "private";
  if (inV4(ip, "169.254.0.0", 16)) return "link_local";
  if (inV4(ip, "100.64.0.0", 10)) return "cgnat";
  if (inV4(ip, "224.0.0.0", 4)) return "multicast";
  if (
    inV4(ip, "240.0.0.0", 4) || // reserved, and 255.255.255.255
    inV4(ip, "192.0.0.0", 24) ||
    inV4(ip, "192.0.2.0", 24) ||
    inV4(ip, "198.18.0.0", 15) ||
    inV4(ip, "198.51.100.0", 24) ||
    inV4(ip, "203.0.113.0", 24)
  ) return "reserved";
  return "public";
}

/** What kind of address eight IPv6 groups are; IPv4 carried inside IPv6 (mapped, compatible, NAT64, 6to4) is judged as IPv4. */
export function classifyIPv6(g: readonly number[]): IpClass {
  const v4 = (hi: number, lo: number) => classifyIPv4(hi * 65536 + lo);
  const first = g[0]!;
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return "unspecified";
  if (zeroUpTo(7) && g[7] === 1) return "loopback";
  if (zeroUpTo(5) && g[5] === 0xffff) return v4(g[6]!, g[7]!); // ::ffff:a.b.c.d
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return v4(g[6]!, g[7]!); // ::ffff:0:a.b.c.d (SIIT)
  if (zeroUpTo(6)) return v4(g[6]!, g[7]!); // ::a.b.c.d (deprecated compatible form)
  if (first === 0x64 && g[1] === 0xff9b) return v4(g[6]!, g[7]!); // NAT64 64:ff9b::/96 and 64:ff9b:1::/48
  if (first === 0x2002) return v4(g[1]!, g[2]!); // 6to4
  if ((first & 0xffc0) === 0xfe80) return "link_local";
  if ((first & 0xffc0) === 0xfec0) return "private"; // site-local, deprecated
  if ((first & 0xfe00) === 0xfc00) return "unique_local";
  if ((first & 0xff00) === 0xff00) return "multicast";
  if (first === 0x2001 && g[1] === 0x0db8) return "reserved"; // documentation
  if (first === 0x0100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return "reserved"; // discard
  if (first === 0x2001 && g[1]! < 0x0200) return "reserved"; // IETF special purpose (Teredo, ORCHID, benchmarks)
  return "public";
}

/** Classifies an IP literal (v4 in any form, v6 with or without brackets), or null when the text is not one. */
export function classifyIp(text: string): IpClass | null {
  const v6 = parseIPv6(text);
  if (v6) return classifyIPv6(v6);
  const v4 = parseIPv4(text);
  return v4 === null ? null : classifyIPv4(v4);
}

const CLASS_REASON: Record<Exclude<IpClass, "public">, string> = {
  unspecified: "an unspecified address (0.0.0.0/8 or ::)",
  loopback: "a loopback address",
  private: "a private network address",
  link_local: "a link-local address",
  cgnat: "a carrier-grade NAT address (100.64.0.0/10)",
  unique_local: "a unique-local IPv6 address (fc00::/7)",
  multicast: "a multicast address",
  reserved: "a reserved or documentation address",
};

function refuse(code: AddressRefusal, reason: string): AddressDecision {
  return { ok: false, code, reason };
}

function judgeIp(kind: IpClass, shown: string, allowLoopback: boolean): AddressDecision | null {
  if (kind === "public" || (kind === "loopback" && allowLoopback)) return null;
  return refuse(kind, `${shown} is ${CLASS_REASON[kind]}.`);
}

/** Decides whether the worker may fetch this URL; refuses anything not plainly a public http(s) host on its default port. */
export function checkPublicUrl(input: string | URL, options: AddressOptions = {}): AddressDecision {
  const allowLoopback = options.allowLoopback === true;
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    return refuse("bad_url", "That is not a web address.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return refuse("scheme", `Only http and https addresses are fetched, not ${url.protocol.replace(":", "")}.`);
  }
  if (url.username || url.password) return refuse("credentials", "Addresses with a user name or password are not fetched.");
  const host = url.hostname.toLowerCase().replace(/\.+$/, "");
  if (host === "") return refuse("bad_url", "The address has no host.");

  let hostIsLoopback = false;
  const literal = classifyIp(host);
  if (literal !== null) {
    const refused = judgeIp(literal, host, allowLoopback);
    if (refused) return refused;
    hostIsLoopback = literal === "loopback";
  } else if (host === "localhost" || host.endsWith(".localhost")) {
    if (!allowLoopback) return refuse("localhost", `${host} is this machine.`);
    hostIsLoopback = true;
  } else {
    if (METADATA_HOSTS.has(host)) return refuse("metadata", `${host} is a cloud metadata service.`);
    if (!host.includes(".") || INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
      return refuse("internal_name", `${host} is not a public host name.`);
    }
    // A last label that is a number makes the host an IPv4 literal (WHATWG "ends in a number"); the URL parser
    // normalises those, so one reaching here is malformed: refuse it. "24.be" is a name and passes.
    if (/^(?:\d+|0x[0-9a-f]*)$/i.test(host.slice(host.lastIndexOf(".") + 1))) return refuse("reserved", `${host} is not a public host name.`);
  }

  const resolved = options.resolvedIps ?? [];
  if (resolved.length > 0 && literal === null) hostIsLoopback = true; // a name is loopback when every address it resolves to is
  for (const ip of resolved) {
    const kind = classifyIp(ip);
    if (kind === null) return refuse("bad_url", `${ip} is not an IP address.`);
    const refused = judgeIp(kind, `${host} resolves to ${ip}, which`, allowLoopback);
    if (refused) return refused;
    if (kind !== "loopback") hostIsLoopback = false;
  }

  if (url.port !== "" && !(allowLoopback && hostIsLoopback)) {
    return refuse("port", `Only the default port is fetched, not ${url.port}.`);
  }
  return { ok: true, url };
}
