// A loopback DNS-over-HTTPS resolver speaking the JSON API (GET /dns-query?name=&type=A|AAAA, Accept:
// application/dns-json) as Cloudflare and Google document it (fixtures/dns/, sources named there): {Status, TC, RD, RA,
// AD, CD, Question, Answer?, Comment?}. It answers FAKE_DNS_NAMES, `<a.b.c.d>.nip.io` the way nip.io does (the address
// written in the name), `example.com` AAAA and `apple.com` A with the documented example answers themselves, SERVFAIL
// for FAKE_DNS_SERVFAIL, HTTP 503 for FAKE_DNS_DOWN, and NXDOMAIN (Status 3) for any other name.
import { readFileSync } from 'node:fs';
import { listen, sendJson } from './http-helpers';
import { FAKE_DNS_DOWN, FAKE_DNS_NAMES, FAKE_DNS_SERVFAIL, FAKE_PUBLIC_V4, type FakeDnsRecord } from './dns-data';
import { CITATION_SOURCES } from '../../worker/features/citations/rules/sources';

export * from './dns-data';

const TYPES = { A: 1, CNAME: 5, AAAA: 28 } as const;

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/dns/${name}`, import.meta.url), 'utf8'));
}

/** The documented example answers, served as they are. */
const DOCUMENTED: Record<string, string> = {
  'example.com|AAAA': 'cloudflare-example.com-AAAA.json',
  'apple.com|A': 'google-apple.com-A.json',
};

export interface DnsRequest {
  name: string;
  type: string;
  accept: string | null;
}

export interface DnsFake {
  url: string;
  /** DNS_RESOLVER_URL: `${url}/dns-query`. */
  resolverUrl: string;
  requests: DnsRequest[];
  reset(): void;
  close(): Promise<void>;
}

function records(name: string): FakeDnsRecord[] | null {
  const nip = /^((?:\d{1,3}\.){3}\d{1,3})\.nip\.io$/.exec(name);
  if (nip) return [{ type: 'A', data: nip[1]! }];
  if (FAKE_DNS_NAMES[name]) return FAKE_DNS_NAMES[name];
  // The Citation Tracker's directories (issue 27) have public addresses; their pages are served by the fake directory
  // web through the test's fetcher, never over the network.
  if (CITATION_SOURCES.some((s) => name === s.domain || name.endsWith(`.${s.domain}`))) return [{ type: 'A', data: FAKE_PUBLIC_V4 }];
  return null;
}

export async function startDnsFake(port = 0): Promise<DnsFake> {
  const requests: DnsRequest[] = [];
  const running = await listen(port, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname === '/__requests') return sendJson(res, 200, { requests });
    if (req.method !== 'GET' || url.pathname !== '/dns-query') return sendJson(res, 404, { error: 'not found' });
    const name = (url.searchParams.get('name') ?? '').toLowerCase().replace(/\.$/, '');
    const type = (url.searchParams.get('type') ?? 'A').toUpperCase();
    requests.push({ name, type, accept: req.headers.accept ?? null });
    if (!name) return sendJson(res, 400, { error: 'Invalid query name' });
    if (type !== 'A' && type !== 'AAAA') return sendJson(res, 400, { error: 'this fake answers A and AAAA only' });
    if (name === FAKE_DNS_DOWN) return sendJson(res, 503, { error: 'unavailable' });
    const documented = DOCUMENTED[`${name}|${type}`];
    if (documented) return sendJson(res, 200, fixture(documented), { 'content-type': 'application/dns-json' });
    const question = [{ name: `${name}.`, type: TYPES[type] }];
    const head = { TC: false, RD: true, RA: true, AD: false, CD: false, Question: question };
    if (name === FAKE_DNS_SERVFAIL) {
      return sendJson(res, 200, { Status: 2, ...head, Comment: `DNSSEC validation failure. Please check http://dnsviz.net/d/${name}/dnssec/.` }, { 'content-type': 'application/dns-json' });
    }
    const found = records(name);
    if (!found) return sendJson(res, 200, { Status: 3, ...head }, { 'content-type': 'application/dns-json' });
    // A CNAME is listed whatever the type asked; addresses only of the type asked.
    const answer = found
      .filter((r) => r.type === 'CNAME' || r.type === type)
      .map((r) => ({ name: r.name ?? `${name}.`, type: TYPES[r.type], TTL: 300, data: r.data }));
    return sendJson(res, 200, { Status: 0, ...head, ...(answer.length ? { Answer: answer } : {}) }, { 'content-type': 'application/dns-json' });
  });
  return {
    url: running.origin,
    resolverUrl: `${running.origin}/dns-query`,
    requests,
    reset: () => void requests.splice(0),
    close: () => running.close(),
  };
}
