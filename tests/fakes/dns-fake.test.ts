// The fake DoH resolver, driven by the app's own client (worker/platform/providers/dns.ts): it answers in the documented JSON
// shape (fixtures/dns/, sources named in its README), and the client reads the documented examples as they are.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../worker/platform/env';
import { resolveHost } from '../../worker/platform/providers/dns';
import { startDnsFake, FAKE_DNS_DOWN, FAKE_DNS_SERVFAIL, type DnsFake } from './dns-fake';

let fake: DnsFake;
let env: Env;
beforeAll(async () => {
  fake = await startDnsFake();
  env = { DNS_RESOLVER_URL: fake.resolverUrl, DNS_TIMEOUT_MS: '1000' } as Env;
});
afterAll(() => fake.close());

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/dns/${name}`, import.meta.url), 'utf8'));

describe('fake DoH resolver', () => {
  it("serves Cloudflare's and Google's documented example answers as they are", async () => {
    const aaaa = await fetch(`${fake.resolverUrl}?name=example.com&type=AAAA`, { headers: { accept: 'application/dns-json' } });
    expect(await aaaa.json()).toEqual(fixture('cloudflare-example.com-AAAA.json'));
    const a = await fetch(`${fake.resolverUrl}?name=apple.com&type=A`, { headers: { accept: 'application/dns-json' } });
    expect(await a.json()).toEqual(fixture('google-apple.com-A.json'));
  });

  it('answers SERVFAIL in the shape of Google\'s documented failure, and NXDOMAIN for unknown names', async () => {
    const fail = (await (await fetch(`${fake.resolverUrl}?name=${FAKE_DNS_SERVFAIL}&type=A`)).json()) as Record<string, unknown>;
    expect(Object.keys(fail).sort()).toEqual(Object.keys(fixture('google-dnssec-failed.org-SERVFAIL.json')).sort());
    expect(fail.Status).toBe(2);
    const none = (await (await fetch(`${fake.resolverUrl}?name=nothing.example&type=A`)).json()) as Record<string, unknown>;
    expect(none).toMatchObject({ Status: 3, Question: [{ name: 'nothing.example.', type: 1 }] });
    expect(none.Answer).toBeUndefined();
  });
});

describe('the DoH client (worker/platform/providers/dns.ts) against it', () => {
  it('reads the documented answers: the AAAA of example.com and the three A records of apple.com', async () => {
    expect(await resolveHost(env, 'example.com')).toEqual({ ok: true, addresses: ['2606:2800:220:1:248:1893:25c8:1946'] });
    expect(await resolveHost(env, 'apple.com')).toEqual({ ok: true, addresses: ['17.178.96.59', '17.172.224.47', '17.142.160.59'] });
    expect(fake.requests.filter((r) => r.name === 'apple.com').every((r) => r.accept === 'application/dns-json')).toBe(true);
  });

  it('skips CNAME records and keeps the addresses after them', async () => {
    expect(await resolveHost(env, 'cname.rebind.example')).toEqual({ ok: true, addresses: ['192.168.10.20'] });
  });

  it('fails closed: SERVFAIL and a resolver answering 503 are unavailable, an unknown name is not found', async () => {
    expect(await resolveHost(env, FAKE_DNS_SERVFAIL)).toMatchObject({ ok: false, code: 'unavailable' });
    expect(await resolveHost(env, FAKE_DNS_DOWN)).toMatchObject({ ok: false, code: 'unavailable' });
    expect(await resolveHost(env, 'nothing.example')).toMatchObject({ ok: false, code: 'not_found' });
  });
});
