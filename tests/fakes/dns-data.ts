// The fake DNS-over-HTTPS resolver's names, shared by the fake (node) and the worker tests (workerd). Public addresses
// are documented ones (example.com's, apple.com's from Google's example answer); nothing here is ever connected to:
// a name that passes the guard is only fetched through a test's recording fetcher, never over the network.
import { CITATION_TRAPS } from './citation-web';

export const FAKE_PUBLIC_V4 = '93.184.215.14';
export const FAKE_PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';

export type FakeDnsRecord = { type: 'A' | 'AAAA' | 'CNAME'; data: string; name?: string };

/** name → its records (CNAME first, as resolvers list them); a name missing here answers NXDOMAIN. */
export const FAKE_DNS_NAMES: Record<string, FakeDnsRecord[]> = {
  'www.joes-plumbing.example': [{ type: 'A', data: FAKE_PUBLIC_V4 }, { type: 'AAAA', data: FAKE_PUBLIC_V6 }],
  'hooks.example.com': [{ type: 'A', data: FAKE_PUBLIC_V4 }, { type: 'AAAA', data: FAKE_PUBLIC_V6 }],
  'public-v6.example': [{ type: 'AAAA', data: FAKE_PUBLIC_V6 }],
  // Names that point at what a fetch must never reach.
  'metadata.rebind.example': [{ type: 'A', data: '169.254.169.254' }],
  'loopback.rebind.example': [{ type: 'A', data: '127.0.0.1' }],
  'private.rebind.example': [{ type: 'A', data: '10.0.0.7' }],
  'cgnat.rebind.example': [{ type: 'A', data: '100.64.1.2' }],
  'unspecified.rebind.example': [{ type: 'A', data: '0.0.0.0' }],
  // One public address and one private: ANY private address refuses the name.
  'mixed.rebind.example': [{ type: 'A', data: FAKE_PUBLIC_V4 }, { type: 'AAAA', data: 'fd00::1' }],
  'link-local-v6.rebind.example': [{ type: 'AAAA', data: 'fe80::1' }],
  'mapped.rebind.example': [{ type: 'AAAA', data: '::ffff:192.168.1.1' }],
  'loopback-v6.rebind.example': [{ type: 'AAAA', data: '::1' }],
  // A CNAME to an internal name, whose address the same answer carries.
  'cname.rebind.example': [{ type: 'CNAME', data: 'db.corp.rebind.example.' }, { type: 'A', data: '192.168.10.20', name: 'db.corp.rebind.example.' }],
  // The Citation Tracker's directories (issue 27): their names pass the guard, their pages come from the fake
  // directory web (tests/fakes/citation-web.ts through CITATIONS_WEB_BASE_URL), never from this address.
  ...Object.fromEntries(CITATION_TRAPS.flatMap((t) => [t.domain, `www.${t.domain}`]).map((host) => [host, [{ type: 'A' as const, data: FAKE_PUBLIC_V4 }]])),
};

/** The resolver answers these with SERVFAIL (Status 2, Google's documented failure shape). */
export const FAKE_DNS_SERVFAIL = 'servfail.example';
/** The resolver answers these with HTTP 503 (a resolver that is down). */
export const FAKE_DNS_DOWN = 'resolver-down.example';
