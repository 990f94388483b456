// /api/webhooks (admins): outgoing webhook endpoints — add (the secret shown once), edit, rotate the secret, pause and
// resume, delete — their delivery log, a test event and the replay of a delivery.
import { Hono, type Context } from "hono";
import { z } from "zod";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { decodeCursor, encodeCursor } from "../../platform/db/cursor";
import { DELIVERIES_PAGE, deleteEndpoint, getDelivery, getEndpoint, listDeliveries, listEndpoints, updateEndpoint, type EndpointRow } from "../../platform/notifications/webhook-queries";
import { encryptionConfigured, ENCRYPTION_KEY_MISSING } from "../../platform/crypto/secret-box";
import { WEBHOOK_URL_RULE, WebhookEndpointInput, WebhookEndpointPatch } from "../../platform/notifications/rules/lead-alerts";
import { WEBHOOK_EVENTS } from "../../platform/notifications/rules/lead-events";
import { apiError, ErrorCode, invalidCursor } from "../../platform/errors";
import { guardWebhookUrl } from "../../platform/providers/webhooks";
import { addEndpoint, newWebhookSecret, orderedEvents, parseEvents, replayDelivery, sealWebhookSecret, sendTestEvent } from "../../platform/notifications/webhooks";
import { validate, validId } from "../../platform/validate";

const NOT_FOUND = "Webhook endpoint not found.";
const DELIVERY_NOT_FOUND = "Delivery not found.";

const DeliveryParams = z.object({ id: z.string().min(1).max(64), deliveryId: z.string().min(1).max(64) });
const DeliveriesQuery = z.object({ cursor: z.string().max(200).optional(), limit: z.coerce.number().int().min(1).max(100).default(DELIVERIES_PAGE) });
const TestInput = z.object({ event: z.enum(WEBHOOK_EVENTS).optional() }).strict();

/** An endpoint as the screens see it: never its secret. */
function endpointJson(e: EndpointRow) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: parseEvents(e.events),
    status: e.status,
    failing: e.status === "active" && e.failingSince !== null,
    failingSince: e.failingSince,
    lastStatusCode: e.lastStatusCode,
    lastError: e.lastError,
    lastAttemptAt: e.lastAttemptAt,
    pausedAt: e.pausedAt,
    createdAt: e.createdAt,
  };
}

/**
 * The endpoint rule, and its host name's addresses over DNS: a name that resolves to a private address is refused here.
 * A name that does not resolve yet, or a resolver that does not answer, does not block saving: every delivery is
 * guarded again before it is sent (and fails closed then).
 */
async function urlRefused(c: Context, url: string) {
  const decision = await guardWebhookUrl(c.env as AppEnv["Bindings"], url);
  if (decision.ok || decision.code === "dns_not_found" || decision.code === "dns_unavailable") return null;
  return apiError(c, 400, ErrorCode.validation, `url: ${decision.reason} ${WEBHOOK_URL_RULE}`, { url: [decision.reason] });
}

export const webhookRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)

  .get("/", async (c) => {
    const rows = await listEndpoints(getDb(c.env));
    return c.json({ endpoints: rows.map(endpointJson), events: WEBHOOK_EVENTS, urlRule: WEBHOOK_URL_RULE });
  })

  .post("/", validate("json", WebhookEndpointInput), async (c) => {
    const input = c.req.valid("json");
    const refused = await urlRefused(c, input.url);
    if (refused) return refused;
    if (!encryptionConfigured(c.env)) return apiError(c, 503, ErrorCode.notConfigured, ENCRYPTION_KEY_MISSING);
    const { endpoint, secret } = await addEndpoint(c.env, getDb(c.env), {
      userId: c.get("caller").id,
      url: input.url,
      description: input.description ?? "",
      events: input.events,
    });
    return c.json({ endpoint: endpointJson(endpoint), secret }, 201);
  })

  .patch("/:id", validId(NOT_FOUND), validate("json", WebhookEndpointPatch), async (c) => {
    const db = getDb(c.env);
    const id = c.req.valid("param").id;
    const input = c.req.valid("json");
    const current = await getEndpoint(db, id);
    if (!current) return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    if (input.url !== undefined) {
      const refused = await urlRefused(c, input.url);
      if (refused) return refused;
    }
    let secret: string | null = null;
    const set: Partial<EndpointRow> = {};
    if (input.url !== undefined) set.url = input.url;
    if (input.description !== undefined) set.description = input.description;
    if (input.events) set.events = JSON.stringify(orderedEvents(input.events));
    if (input.status === "paused" && current.status !== "paused") Object.assign(set, { status: "paused", pausedAt: new Date().toISOString() });
    // Resuming starts afresh: the day of failures that paused it is forgotten.
    if (input.status === "active" && current.status !== "active") Object.assign(set, { status: "active", pausedAt: null, failingSince: null });
    if (input.rotateSecret) {
      if (!encryptionConfigured(c.env)) return apiError(c, 503, ErrorCode.notConfigured, ENCRYPTION_KEY_MISSING);
      secret = newWebhookSecret();
      set.secretCiphertext = await sealWebhookSecret(c.env, id, secret);
    }
    const row = await updateEndpoint(db, id, set);
    if (!row) return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    return c.json({ endpoint: endpointJson(row), ...(secret ? { secret } : {}) });
  })

  .delete("/:id", validId(NOT_FOUND), async (c) => {
    if (!(await deleteEndpoint(getDb(c.env), c.req.valid("param").id))) return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    return c.body(null, 204);
  })

  .get("/:id/deliveries", validId(NOT_FOUND), validate("query", DeliveriesQuery), async (c) => {
    const db = getDb(c.env);
    const id = c.req.valid("param").id;
    const { cursor: cursorText, limit } = c.req.valid("query");
    const cursor = cursorText ? decodeCursor(cursorText) : null;
    if (cursorText && !cursor) return invalidCursor(c);
    if (!(await getEndpoint(db, id))) return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    const page = await listDeliveries(db, id, cursor, limit);
    const last = page.rows[page.rows.length - 1];
    return c.json({
      deliveries: page.rows.map(({ seq: _seq, ...d }) => d),
      nextCursor: page.more && last ? encodeCursor({ createdAt: last.createdAt, seq: last.seq }) : null,
    });
  })

  .post("/:id/test", validId(NOT_FOUND), validate("json", TestInput), async (c) => {
    const db = getDb(c.env);
    const endpoint = await getEndpoint(db, c.req.valid("param").id);
    if (!endpoint) return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    if (endpoint.status === "paused") return apiError(c, 409, ErrorCode.conflict, "This endpoint is paused: resume it to send a test event.");
    const deliveryId = await sendTestEvent(c.env, db, endpoint, c.req.valid("json").event);
    return c.json({ deliveryId }, 202);
  })

  .post("/:id/deliveries/:deliveryId/replay", async (c) => {
    const params = DeliveryParams.safeParse(c.req.param());
    if (!params.success) return apiError(c, 404, ErrorCode.notFound, DELIVERY_NOT_FOUND);
    const db = getDb(c.env);
    const [endpoint, delivery] = await Promise.all([getEndpoint(db, params.data.id), getDelivery(db, params.data.deliveryId)]);
    if (!endpoint || !delivery || delivery.endpointId !== endpoint.id) return apiError(c, 404, ErrorCode.notFound, DELIVERY_NOT_FOUND);
    if (endpoint.status === "paused") return apiError(c, 409, ErrorCode.conflict, "This endpoint is paused: resume it to replay deliveries.");
    const deliveryId = await replayDelivery(c.env, db, delivery);
    return c.json({ deliveryId }, 202);
  });
