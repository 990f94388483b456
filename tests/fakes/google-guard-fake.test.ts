// The guard's Google calls (issue 41): the real client (worker/platform/providers/google.ts: getLocationFields,
// getGoogleUpdated, patchLocation, getVoiceOfMerchantState) against the fake Google, which answers from the documented
// examples (fixtures/google/location-*.json, voice-of-merchant-*.json). Each test uses its own location ids.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../worker/platform/env';
import { exchangeCode, getGoogleUpdated, getLocationFields, getVoiceOfMerchantState, GoogleError, googleConfig, listLocations, patchLocation, pkceChallenge } from '../../worker/platform/providers/google';
import { GUARDED_FIELDS, guardedFieldsOf } from '../../worker/platform/providers/rules/gbp-location';
import { fixture } from './fixtures';
import { FAKE_GOOGLE_CLIENT_ID, FAKE_GOOGLE_CLIENT_SECRET, startGoogleFake, type GoogleFake } from './google-fake';

let google: GoogleFake;
beforeAll(async () => {
  google = await startGoogleFake();
});
afterAll(async () => {
  await google?.close();
});

const config = () =>
  googleConfig({ GOOGLE_OAUTH_CLIENT_ID: FAKE_GOOGLE_CLIENT_ID, GOOGLE_OAUTH_CLIENT_SECRET: FAKE_GOOGLE_CLIENT_SECRET, GOOGLE_OAUTH_BASE_URL: google.url, GBP_API_BASE_URL: google.url } as unknown as Env)!;

/** An access token of the fake's `user`, through the consent page and the code exchange (PKCE). */
async function tokenOf(user: 'owner' | 'api-disabled' | 'not-approved'): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${google.url}/o/oauth2/v2/auth`);
  url.search = new URLSearchParams({ client_id: FAKE_GOOGLE_CLIENT_ID, redirect_uri: 'http://127.0.0.1:1/cb', response_type: 'code', scope: 'https://www.googleapis.com/auth/business.manage', code_challenge: await pkceChallenge(verifier), code_challenge_method: 'S256' }).toString();
  const href = new RegExp(`data-user="${user}" href="([^"]+)"`).exec(await (await fetch(url)).text())![1]!.replace(/&amp;/g, '&');
  const code = new URL(href).searchParams.get('code')!;
  return (await exchangeCode(config(), { code, codeVerifier: verifier, redirectUri: 'http://127.0.0.1:1/cb' })).accessToken;
}

/** A location id no other test uses, as the platform stores it. */
const freshLocation = () => `accounts/1001/locations/g${randomBytes(6).toString('hex')}`;
const idOf = (name: string) => name.split('/').pop()!;

/** The object's keys, nested, as sorted paths. */
function shape(node: unknown, at = ''): string[] {
  if (Array.isArray(node)) return node.length ? shape(node[0], `${at}[]`) : [`${at}[]`];
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => [`${at}.${k}`, ...shape(v, `${at}.${k}`)]).sort();
  return [];
}

const documented = () => {
  const location = fixture('google', 'location-get.json');
  delete location.name;
  return location;
};

describe("the guard's Google calls against the fake", () => {
  it("reads the merchant's guarded fields (locations.get with the guarded readMask)", async () => {
    const token = await tokenOf('owner');
    const name = freshLocation();
    const fields = await getLocationFields(config(), token, name);
    expect(fields).toEqual(documented());
    expect(fields.title).toBe('Ridge Roofing');
    expect(Object.keys(fields).sort()).toEqual([...GUARDED_FIELDS].sort());
    const asked = google.requests.find((r) => r.path === `/v1/locations/${idOf(name)}`);
    expect(asked).toMatchObject({ method: 'GET', status: 200 });
  });

  it('honours the readMask: only the asked fields (and name)', async () => {
    const token = await tokenOf('owner');
    const id = idOf(freshLocation());
    const res = await fetch(`${google.url}/v1/locations/${id}?readMask=title,phoneNumbers.primaryPhone`, { headers: { Authorization: `Bearer ${token}` } });
    expect(Object.keys((await res.json()) as object).sort()).toEqual(['name', 'phoneNumbers', 'title']);
    const none = await fetch(`${google.url}/v1/locations/${id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
  });

  it("sees Google's change (phone) in getGoogleUpdated, rejects it by patching the merchant's value; the diff clears", async () => {
    const token = await tokenOf('owner');
    const name = freshLocation();
    const id = idOf(name);
    const ownerPhone = documented().phoneNumbers.primaryPhone as string;
    const nothing = await getGoogleUpdated(config(), token, name);
    expect(nothing).toEqual({ location: documented(), diffMask: [], pendingMask: [] });

    const res = await fetch(`${google.url}/__gbp/locations/${id}`, { method: 'POST', body: JSON.stringify({ google: { phoneNumbers: { primaryPhone: '(512) 555-0100' } }, diffMask: ['phoneNumbers.primaryPhone'] }) });
    expect(res.status).toBe(200);
    const changed = await getGoogleUpdated(config(), token, name);
    expect(changed.diffMask).toEqual(['phoneNumbers.primaryPhone']);
    expect(guardedFieldsOf(changed.diffMask)).toEqual(['phoneNumbers']);
    // Google's phone over the merchant's; the rest of phoneNumbers is the merchant's.
    expect(changed.location.phoneNumbers).toEqual({ ...documented().phoneNumbers, primaryPhone: '(512) 555-0100' });
    expect(changed.location.title).toBe('Ridge Roofing');

    const owner = await getLocationFields(config(), token, name);
    const answered = await patchLocation(config(), token, name, { phoneNumbers: owner.phoneNumbers, title: 'Ignored: not in the mask' }, ['phoneNumbers']);
    expect(answered.phoneNumbers?.primaryPhone).toBe(ownerPhone);
    expect(answered.title).toBe('Ridge Roofing');
    const { patches } = (await (await fetch(`${google.url}/__gbp/patches?location=locations/${id}`)).json()) as { patches: { location: string; updateMask: string[]; body: Record<string, unknown>; at: string }[] };
    expect(patches).toHaveLength(1);
    expect(patches[0]).toMatchObject({ location: `locations/${id}`, updateMask: ['phoneNumbers'], body: { phoneNumbers: { primaryPhone: ownerPhone } } });
    expect(google.guardPatches(id)).toEqual(patches);
    const after = await getGoogleUpdated(config(), token, name);
    expect(after.diffMask).toEqual([]);
    expect(after.location.phoneNumbers?.primaryPhone).toBe(ownerPhone);
    const sent = google.requests.filter((r) => r.method === 'PATCH' && r.path === `/v1/locations/${id}`);
    expect(sent).toHaveLength(1);
  });

  it("accepts Google's change by patching Google's value: the merchant's value becomes it", async () => {
    const token = await tokenOf('owner');
    const name = freshLocation();
    const id = idOf(name);
    google.setGuardLocation(id, { google: { websiteUri: 'https://www.ridgeroofing.example/austin' }, diffMask: ['websiteUri'], pendingMask: ['profile.description'] });
    const changed = await getGoogleUpdated(config(), token, name);
    expect(changed).toMatchObject({ diffMask: ['websiteUri'], pendingMask: ['profile.description'], location: { websiteUri: 'https://www.ridgeroofing.example/austin' } });
    await patchLocation(config(), token, name, { websiteUri: changed.location.websiteUri }, guardedFieldsOf(changed.diffMask));
    expect((await getLocationFields(config(), token, name)).websiteUri).toBe('https://www.ridgeroofing.example/austin');
    expect((await getGoogleUpdated(config(), token, name)).diffMask).toEqual([]);
    expect(google.guardPatches(`locations/${id}`).map((p) => p.updateMask)).toEqual([['websiteUri']]);
  });

  it('an empty updateMask is INVALID_ARGUMENT at Google; the client refuses it before calling', async () => {
    const token = await tokenOf('owner');
    const id = idOf(freshLocation());
    const res = await fetch(`${google.url}/v1/locations/${id}?updateMask=`, { method: 'PATCH', headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'x' }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
    const refused = await patchLocation(config(), token, `locations/${id}`, { title: 'x' }, []).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'refused' });
    expect(google.guardPatches(id)).toEqual([]);
  });

  it('reads Voice of Merchant: verified by default, suspended (complyWithGuidelines), wait and verify', async () => {
    const token = await tokenOf('owner');
    const name = freshLocation();
    const id = idOf(name);
    expect(await getVoiceOfMerchantState(config(), token, name)).toEqual({ hasVoiceOfMerchant: true, hasBusinessAuthority: true, action: 'none', reason: null });
    await fetch(`${google.url}/__gbp/locations/${id}`, { method: 'POST', body: JSON.stringify({ voiceOfMerchant: 'suspended' }) });
    expect(await getVoiceOfMerchantState(config(), token, name)).toEqual({ hasVoiceOfMerchant: false, hasBusinessAuthority: true, action: 'comply_with_guidelines', reason: 'BUSINESS_LOCATION_SUSPENDED' });
    google.setGuardLocation(id, { voiceOfMerchant: 'wait' });
    expect(await getVoiceOfMerchantState(config(), token, name)).toMatchObject({ hasVoiceOfMerchant: false, action: 'wait' });
    google.setGuardLocation(id, { voiceOfMerchant: 'unverified' });
    expect(await getVoiceOfMerchantState(config(), token, name)).toMatchObject({ hasVoiceOfMerchant: false, hasBusinessAuthority: false, action: 'verify' });
    expect(google.requests.some((r) => r.path === `/v1/locations/${id}/VoiceOfMerchantState` && r.status === 200)).toBe(true);
  });

  it("getGoogleUpdated's 503 is GoogleError unavailable, as many times as asked, then it serves", async () => {
    const token = await tokenOf('owner');
    const name = freshLocation();
    google.setGuardLocation(name, { failGoogleUpdated: 2 });
    for (let i = 0; i < 2; i++) {
      const failed = await getGoogleUpdated(config(), token, name).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(GoogleError);
      expect(failed).toMatchObject({ kind: 'unavailable', status: 503 });
    }
    expect((await getGoogleUpdated(config(), token, name)).diffMask).toEqual([]);
  });

  it("answers a project without the APIs or without approval as the other routes do (Verifications named)", async () => {
    const name = freshLocation();
    const disabled = await getVoiceOfMerchantState(config(), await tokenOf('api-disabled'), name).catch((e: unknown) => e);
    expect(disabled).toMatchObject({ kind: 'api_not_enabled', status: 403 });
    expect((disabled as GoogleError).message).toContain('My Business Verifications API');
    const notApproved = await getLocationFields(config(), await tokenOf('not-approved'), name).catch((e: unknown) => e);
    expect(notApproved).toMatchObject({ kind: 'not_approved', status: 429 });
    const anonymous = await fetch(`${google.url}/v1/locations/${idOf(name)}:getGoogleUpdated?readMask=title`);
    expect(anonymous.status).toBe(401);
  });

  it("keeps the listing and the Performance API's location routes", async () => {
    const token = await tokenOf('owner');
    expect((await listLocations(config(), token)).map((l) => l.name)).toEqual(['accounts/1001/locations/2001', 'accounts/1001/locations/2002', 'accounts/1001/locations/2003']);
    const metrics = await fetch(`${google.url}/v1/locations/2001:fetchMultiDailyMetricsTimeSeries?dailyMetrics=CALL_CLICKS&dailyRange.start_date.year=2026&dailyRange.start_date.month=1&dailyRange.start_date.day=1&dailyRange.end_date.year=2026&dailyRange.end_date.month=1&dailyRange.end_date.day=2`, { headers: { Authorization: `Bearer ${token}` } });
    expect(metrics.status).toBe(200);
    expect(Object.keys((await metrics.json()) as object)).toEqual(['multiDailyMetricTimeSeries']);
  });

  it('the fake answers the documented shapes (location-get, location-google-updated, voice-of-merchant-*)', async () => {
    const token = await tokenOf('owner');
    const id = idOf(freshLocation());
    const get = async (path: string) => (await (await fetch(`${google.url}${path}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as Record<string, unknown>;
    const mask = `readMask=${GUARDED_FIELDS.join(',')}`;
    expect(shape(await get(`/v1/locations/${id}?${mask}`))).toEqual(shape(fixture('google', 'location-get.json')));
    google.setGuardLocation(id, { google: { phoneNumbers: { primaryPhone: '(512) 555-0100' } }, diffMask: ['phoneNumbers.primaryPhone'], pendingMask: ['profile.description'] });
    expect(shape(await get(`/v1/locations/${id}:getGoogleUpdated?${mask}`))).toEqual(shape(fixture('google', 'location-google-updated.json')));
    expect(shape(await get(`/v1/locations/${id}/VoiceOfMerchantState`))).toEqual(shape(fixture('google', 'voice-of-merchant-state.json')));
    google.setGuardLocation(id, { voiceOfMerchant: 'suspended' });
    expect(shape(await get(`/v1/locations/${id}/VoiceOfMerchantState`))).toEqual(shape(fixture('google', 'voice-of-merchant-suspended.json')));
  });
});

describe('the documented examples, read by the client', () => {
  // The Location fields google-api-nodejs-client's generated "Example response" lists (as provider-fixtures.test.ts).
  const LOCATION = ['adWordsLocationExtensions', 'categories', 'labels', 'languageCode', 'latlng', 'metadata', 'moreHours', 'name', 'openInfo', 'phoneNumbers', 'profile', 'regularHours', 'relationshipData', 'serviceArea', 'serviceItems', 'specialHours', 'storeCode', 'storefrontAddress', 'title', 'websiteUri'];

  it('use only documented fields', () => {
    expect(LOCATION).toEqual(expect.arrayContaining(Object.keys(fixture('google', 'location-get.json'))));
    const updated = fixture('google', 'location-google-updated.json');
    expect(Object.keys(updated).sort()).toEqual(['diffMask', 'location', 'pendingMask']);
    expect(LOCATION).toEqual(expect.arrayContaining(Object.keys(updated.location)));
    const VOM = ['hasVoiceOfMerchant', 'hasBusinessAuthority', 'waitForVoiceOfMerchant', 'verify', 'resolveOwnershipConflict', 'complyWithGuidelines'];
    expect(VOM).toEqual(expect.arrayContaining(Object.keys(fixture('google', 'voice-of-merchant-state.json'))));
    expect(VOM).toEqual(expect.arrayContaining(Object.keys(fixture('google', 'voice-of-merchant-suspended.json'))));
  });
});
