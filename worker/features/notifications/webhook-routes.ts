// /api/webhooks (admins): outgoing webhook endpoints — add (the secret shown once), edit, rotate the secret, pause and
// resume, delete — their delivery log, a test event and the replay of a delivery.
import { Hono } from "hono";
import { z } from "zod";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { decodeCursor, encodeCursor } from "../../platform/db/cursor";
import { DELIVERIES_PAGE, deleteEndpoint, getDelivery, getEndpoint, listDeliveries, listEndpoints, type EndpointRow } from "../../platform/notifications/webhook-queries";
import { refusalResponse } from "../../platform/http/paid-run";
import { WEBHOOK_URL_RULE, WebhookEndpointInput, WebhookEndpointPatch } from "../../platform/notifications/rules/lead-alerts";
import { WEBHOOK_EVENTS } from "../../platform/notifications/rules/lead-events";
import { apiError, ErrorCode, invalidCursor } from "../../platform/errors";
import { parseEvents, replayDelivery, sendTestEvent } from "../../platform/notifications/webhooks";
import { createWebhookEndpoint, editWebhookEndpoint, ENDPOINT_NOT_FOUND as NOT_FOUND } from "./endpoints";
import { validate, validId } from "../../platform/validate";

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

export const webhookRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)

  .get("/", async (c) => {
    const rows = await listEndpoints(getDb(c.env));
    return c.json({ endpoints: rows.map(endpointJson), events: WEBHOOK_EVENTS, urlRule: WEBHOOK_URL_RULE });
  })

  .post("/", validate("json", WebhookEndpointInput), async (c) => {
    const added = await createWebhookEndpoint(c.env, getDb(c.env), c.get("caller").id, c.req.valid("json"));
    return added.ok ? c.json({ endpoint: endpointJson(added.endpoint), secret: added.secret }, 201) : refusalResponse(c, added.refusal);
  })

  .patch("/:id", validId(NOT_FOUND), validate("json", WebhookEndpointPatch), async (c) => {
    const edited = await editWebhookEndpoint(c.env, getDb(c.env), c.req.valid("param").id, c.req.valid("json"));
    if (!edited.ok) return refusalResponse(c, edited.refusal);
    return c.json({ endpoint: endpointJson(edited.endpoint), ...(edited.secret ? { secret: edited.secret } : {}) });
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
