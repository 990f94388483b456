// Connects a signed-up user to the fake Google (consent as "owner", the Austin location chosen), as a person would.
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { api, callWorker, signUp } from "../helpers";

export const AUSTIN = "accounts/1001/locations/2001";

export async function connectedGoogleUser() {
  const user = await signUp();
  const token = user.session.access_token;
  const start = await api("/api/integrations/google/start", { token });
  expect(start.status).toBe(200);
  const cookie = (start.headers.get("Set-Cookie") ?? "").split(";")[0]!;
  const page = await (await fetch(new URL(start.body.authorizeUrl as string))).text();
  const href = /data-user="owner" href="([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, "&");
  const back = new URL(href);
  const res = await callWorker(back.pathname + back.search, { redirect: "manual", headers: { Cookie: cookie } });
  expect(res.status).toBe(302);
  const chosen = await api("/api/integrations/google/locations", { method: "PUT", token, body: JSON.stringify({ locations: [AUSTIN] }) });
  expect(chosen.status).toBe(200);
  return user;
}

/** Sets the fake Google's reviews of a location (or generates `generate` of them), edits or removes one. */
export async function googleReviews(body: Record<string, unknown>) {
  const res = await fetch(`${env.TEST_GOOGLE_BASE_URL}/__reviews`, { method: "POST", body: JSON.stringify(body) });
  expect(res.status).toBe(200);
}

export async function fakeReviews(): Promise<{ reviewId: string; reviewReply?: { comment: string } }[]> {
  return ((await (await fetch(`${env.TEST_GOOGLE_BASE_URL}/__reviews`)).json()) as { reviews: { reviewId: string; reviewReply?: { comment: string } }[] }).reviews;
}
