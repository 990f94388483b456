// The fake Google answers as Google does: PKCE checked at the token endpoint, Google's error shapes, and the provider's
// error mapping (worker/platform/providers/google.ts) reads them right.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../worker/platform/env';
import { classifyGoogleError, deleteReviewReply, exchangeCode, GoogleError, googleConfig, listLocations, listReviews, pkceChallenge, refreshAccessToken, updateReviewReply } from '../../worker/platform/providers/google';
import { FAKE_GOOGLE_CLIENT_ID, FAKE_GOOGLE_CLIENT_SECRET, GBP_MARKERS, startGoogleFake, type GoogleFake } from './google-fake';
import { fixture } from './fixtures';

let google: GoogleFake;
beforeAll(async () => {
  google = await startGoogleFake();
});
afterAll(async () => {
  await google?.close();
});

const config = () =>
  googleConfig({ GOOGLE_OAUTH_CLIENT_ID: FAKE_GOOGLE_CLIENT_ID, GOOGLE_OAUTH_CLIENT_SECRET: FAKE_GOOGLE_CLIENT_SECRET, GOOGLE_OAUTH_BASE_URL: google.url, GBP_API_BASE_URL: google.url } as unknown as Env)!;

/** Opens the consent page with a fresh verifier and returns the code offered for `user`. */
async function codeFor(user: string, verifier: string, redirectUri = 'http://127.0.0.1:1/cb') {
  const url = new URL(`${google.url}/o/oauth2/v2/auth`);
  url.search = new URLSearchParams({ client_id: FAKE_GOOGLE_CLIENT_ID, redirect_uri: redirectUri, response_type: 'code', scope: 'https://www.googleapis.com/auth/business.manage', state: 's1', code_challenge: await pkceChallenge(verifier), code_challenge_method: 'S256' }).toString();
  const page = await (await fetch(url)).text();
  const href = new RegExp(`data-user="${user}" href="([^"]+)"`).exec(page)![1]!.replace(/&amp;/g, '&');
  const back = new URL(href);
  expect(back.searchParams.get('state')).toBe('s1');
  return back.searchParams.get('code')!;
}

describe('fake Google', () => {
  it('our S256 challenge is RFC 7636 (base64url of SHA-256)', async () => {
    const verifier = randomBytes(32).toString('base64url');
    expect(await pkceChallenge(verifier)).toBe(createHash('sha256').update(verifier).digest('base64url'));
  });

  it('exchanges a code only with the verifier of its challenge, once', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const code = await codeFor('owner', verifier);
    const wrong = await exchangeCode(config(), { code, codeVerifier: 'x'.repeat(43), redirectUri: 'http://127.0.0.1:1/cb' }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(GoogleError);
    expect((wrong as GoogleError).message).toBe('invalid_grant: Invalid code verifier.');

    const code2 = await codeFor('owner', verifier);
    const tokens = await exchangeCode(config(), { code: code2, codeVerifier: verifier, redirectUri: 'http://127.0.0.1:1/cb' });
    expect(tokens.refreshToken).toMatch(/^1\/\/fake-/);
    const again = await exchangeCode(config(), { code: code2, codeVerifier: verifier, redirectUri: 'http://127.0.0.1:1/cb' }).catch((e: unknown) => e);
    expect((again as GoogleError).kind).toBe('token_refused');
    const refreshed = await refreshAccessToken(config(), tokens.refreshToken!);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    const locations = await listLocations(config(), refreshed.accessToken);
    expect(locations.map((l) => [l.name, l.canOperateLocalPost])).toEqual([
      ['accounts/1001/locations/2001', true],
      ['accounts/1001/locations/2002', true],
      ['accounts/1001/locations/2003', false],
    ]);
  });

  it("answers a project without the APIs with Google's SERVICE_DISABLED status, and a missing readMask with INVALID_ARGUMENT", async () => {
    const verifier = randomBytes(32).toString('base64url');
    const tokens = await exchangeCode(config(), { code: await codeFor('api-disabled', verifier), codeVerifier: verifier, redirectUri: 'http://127.0.0.1:1/cb' });
    const res = await fetch(`${google.url}/v1/accounts`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: { status: string; details: { reason?: string }[] } };
    expect(body.error.status).toBe('PERMISSION_DENIED');
    expect(body.error.details[0]!.reason).toBe('SERVICE_DISABLED');
    expect(classifyGoogleError(403, body).kind).toBe('api_not_enabled');

    const owner = await exchangeCode(config(), { code: await codeFor('owner', verifier), codeVerifier: verifier, redirectUri: 'http://127.0.0.1:1/cb' });
    const noMask = await fetch(`${google.url}/v1/accounts/1001/locations`, { headers: { Authorization: `Bearer ${owner.accessToken}` } });
    expect(noMask.status).toBe(400);
    expect(((await noMask.json()) as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
    expect(classifyGoogleError(401, { error: { code: 401, status: 'UNAUTHENTICATED' } }).kind).toBe('token_refused');
    expect(classifyGoogleError(503, { error: { code: 503, status: 'UNAVAILABLE' } }).kind).toBe('unavailable');
  });

  it('pages reviews newest first as reviews.list documents them, and takes or refuses a reply (issue 28)', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const tokens = await exchangeCode(config(), { code: await codeFor('owner', verifier), codeVerifier: verifier, redirectUri: 'http://127.0.0.1:1/cb' });
    const location = 'accounts/1001/locations/2001';
    const first = await listReviews(config(), tokens.accessToken, location);
    // The documented example, as the client reads it.
    const documented = fixture<{ reviews: { reviewId: string; starRating: string }[]; averageRating: number; totalReviewCount: number }>('google', 'reviews-list.json');
    expect(first.reviews.map((r) => r.reviewId)).toEqual(documented.reviews.map((r) => r.reviewId));
    expect(first).toMatchObject({ averageRating: documented.averageRating, totalReviewCount: documented.totalReviewCount, nextPageToken: null });
    await fetch(`${google.url}/__reviews`, { method: 'POST', body: JSON.stringify({ location, generate: 120 }) });
    const pages = [await listReviews(config(), tokens.accessToken, location)];
    while (pages.at(-1)!.nextPageToken) pages.push(await listReviews(config(), tokens.accessToken, location, pages.at(-1)!.nextPageToken));
    expect(pages.map((p) => p.reviews.length)).toEqual([50, 50, 20]);
    const times = pages.flatMap((p) => p.reviews.map((r) => r.updateTime));
    expect(times).toEqual([...times].sort().reverse());
    const name = pages[0]!.reviews[0]!.name;
    expect(await updateReviewReply(config(), tokens.accessToken, name, 'Thank you!')).toMatchObject({ comment: 'Thank you!' });
    const refused = await updateReviewReply(config(), tokens.accessToken, name, `No ${GBP_MARKERS.refuseReply}`).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GoogleError);
    expect(refused).toMatchObject({ kind: 'refused', message: 'comment: The reply contains content that violates the review reply policy.' });
    await deleteReviewReply(config(), tokens.accessToken, name);
    // Deleting a reply Google no longer has counts as deleted.
    await deleteReviewReply(config(), tokens.accessToken, name);
    google.reset();
  });
});
