// The outgoing webhook endpoints as the admins' /api/webhooks routes change them: a web address that passes the URL
// rule and the DNS check, a secret sealed at rest (shown once, when made or rotated), paused and resumed.
import type { z } from "zod";
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import { ErrorCode, type FieldErrors } from "../../platform/errors";
import { encryptionConfigured, ENCRYPTION_KEY_MISSING } from "../../platform/crypto/secret-box";
import { WEBHOOK_URL_RULE, type WebhookEndpointInput, type WebhookEndpointPatch } from "../../platform/notifications/rules/lead-alerts";
import { getEndpoint, updateEndpoint, type EndpointRow } from "../../platform/notifications/webhook-queries";
import { addEndpoint, newWebhookSecret, orderedEvents, sealWebhookSecret } from "../../platform/notifications/webhooks";
import { guardWebhookUrl } from "../../platform/providers/webhooks";

export const ENDPOINT_NOT_FOUND = "Webhook endpoint not found.";

type EndpointRefusal = { status: 400 | 404 | 503; code: string; message: string; fields?: FieldErrors };
type Refused = { ok: false; refusal: EndpointRefusal };

const NOT_FOUND: Refused = { ok: false, refusal: { status: 404, code: ErrorCode.notFound, message: ENDPOINT_NOT_FOUND } };
const NO_ENCRYPTION: Refused = { ok: false, refusal: { status: 503, code: ErrorCode.notConfigured, message: ENCRYPTION_KEY_MISSING } };

/**
 * The endpoint rule, and its host name's addresses over DNS: a name that resolves to a private address is refused here.
 * A name that does not resolve yet, or a resolver that does not answer, does not block saving: every delivery is
 * guarded again before it is sent (and fails closed then).
 */
async function urlRefusal(env: Env, url: string): Promise<Refused | null> {
  const decision = await guardWebhookUrl(env, url);
  if (decision.ok || decision.code === "dns_not_found" || decision.code === "dns_unavailable") return null;
  return { ok: false, refusal: { status: 400, code: ErrorCode.validation, message: `url: ${decision.reason} ${WEBHOOK_URL_RULE}`, fields: { url: [decision.reason] } } };
}

/** A new endpoint and its secret (shown this once). */
export async function createWebhookEndpoint(env: Env, db: Db, userId: string, input: z.infer<typeof WebhookEndpointInput>) {
  const refused = await urlRefusal(env, input.url);
  if (refused) return refused;
  if (!encryptionConfigured(env)) return NO_ENCRYPTION;
  const { endpoint, secret } = await addEndpoint(env, db, { userId, url: input.url, description: input.description ?? "", events: input.events });
  return { ok: true as const, endpoint, secret };
}

/** An endpoint edited, paused or resumed, or its secret rotated (the new one returned, shown this once). */
export async function editWebhookEndpoint(
  env: Env,
  db: Db,
  id: string,
  input: z.infer<typeof WebhookEndpointPatch>,
): Promise<{ ok: true; endpoint: EndpointRow; secret: string | null } | Refused> {
  const current = await getEndpoint(db, id);
  if (!current) return NOT_FOUND;
  const refused = input.url !== undefined ? await urlRefusal(env, input.url) : null;
  if (refused) return refused;
  const set: Partial<EndpointRow> = {};
  if (input.url !== undefined) set.url = input.url;
  if (input.description !== undefined) set.description = input.description;
  if (input.events) set.events = JSON.stringify(orderedEvents(input.events));
  if (input.status === "paused" && current.status !== "paused") Object.assign(set, { status: "paused", pausedAt: new Date().toISOString() });
  // Resuming starts afresh: the day of failures that paused it is forgotten.
  if (input.status === "active" && current.status !== "active") Object.assign(set, { status: "active", pausedAt: null, failingSince: null });
  let secret: string | null = null;
  if (input.rotateSecret) {
    if (!encryptionConfigured(env)) return NO_ENCRYPTION;
    secret = newWebhookSecret();
    set.secretCiphertext = await sealWebhookSecret(env, id, secret);
  }
  const endpoint = await updateEndpoint(db, id, set);
  return endpoint ? { ok: true, endpoint, secret } : NOT_FOUND;
}
