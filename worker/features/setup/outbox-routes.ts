// /api/admin/outbox (admins): mail the app has sent and how its delivery went (kept, queued, sent, failed with the
// reason); one-time links always redacted.
import { Hono } from "hono";
import { z } from "zod";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { listOutbox, redactMail } from "../../platform/mail/outbox";
import { validate } from "../../platform/validate";

const OutboxQuery = z.object({
  email: z.string().trim().toLowerCase().email().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const adminOutboxRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/", validate("query", OutboxQuery), async (c) => {
    const { email, limit } = c.req.valid("query");
    const rows = await listOutbox(getDb(c.env), email, limit);
    return c.json({
      messages: rows.map((m) => ({
        id: m.id,
        to: m.toEmail,
        subject: m.subject,
        body: redactMail(m.body),
        kind: m.kind,
        status: m.status,
        attempts: m.attempts,
        last_error: m.lastError,
        sent_at: m.sentAt,
        created_at: m.createdAt,
      })),
    });
  });
