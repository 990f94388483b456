// Visit tokens: the edge-rendered shared page carries one signed by the worker (a fresh one on every answer, also
// from the cache), and view beacons count only with a valid one, at most BEACON_EVENTS_PER_VISIT each, so nobody
// can forge opens by posting beacons with made-up visit ids.
import { signFor, verifyFor } from "../../platform/auth/signing";
import type { Env } from "../../platform/env";

export const VISIT_TOKEN_META = "visit-token";
/** A page kept open (or revalidated from the browser's cache) keeps counting for a week. */
export const VISIT_TOKEN_TTL_SECONDS = 7 * 86_400;

const PURPOSE = "visit tokens";

/** `<visit id>.<expires>.<hex mac>` for this report. */
export async function newVisitToken(env: Env, reportId: string, nowMs = Date.now(), visit: string = crypto.randomUUID()): Promise<string> {
  const expires = Math.floor(nowMs / 1000) + VISIT_TOKEN_TTL_SECONDS;
  return `${visit}.${expires}.${await signFor(env, PURPOSE, `${reportId}\n${visit}\n${expires}`)}`;
}

/** The visit id of a valid token for this report, or null. */
export async function verifyVisitToken(env: Env, reportId: string, token: string, nowMs = Date.now()): Promise<string | null> {
  const match = /^([0-9a-f-]{36})\.(\d{1,12})\.([0-9a-f]{64})$/.exec(token);
  if (!match) return null;
  const [, visit, expires, mac] = match;
  if (Number(expires) < Math.floor(nowMs / 1000)) return null;
  return (await verifyFor(env, PURPOSE, `${reportId}\n${visit}\n${expires}`, mac!)) ? visit! : null;
}

/** The page with its visit token in a meta tag (inserted after the cache, so every answer gets its own). */
export function withVisitToken(html: string, token: string): string {
  return html.replace("</head>", `<meta name="${VISIT_TOKEN_META}" content="${token}"></head>`);
}
