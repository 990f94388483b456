// GET /api/calendar/:token.ics (public): a social plan as an iCalendar feed, for calendar apps to subscribe to. The
// token is 256 random bits given once to the plan's owner; only its SHA-256 is stored.
import { Hono } from "hono";
import { sha256Hex } from "../../platform/auth/tokens";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { contentByFeedToken } from "./queries";
import { planToIcs, SocialPlan } from "./rules/social-plan";
import { apiError, ErrorCode } from "../../platform/errors";

const FEED_NOT_FOUND = "Calendar not found";
const TOKEN_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;

export const calendarRoutes = new Hono<AppEnv>().get("/:file", async (c) => {
  const token = TOKEN_FILE.exec(c.req.param("file"))?.[1];
  if (!token) return apiError(c, 404, ErrorCode.notFound, FEED_NOT_FOUND);
  const row = await contentByFeedToken(getDb(c.env), await sha256Hex(token));
  const plan = row?.tool === "social-plan" ? SocialPlan.safeParse(JSON.parse(row.result)) : null;
  if (!row || !plan?.success) return apiError(c, 404, ErrorCode.notFound, FEED_NOT_FOUND);
  const ics = planToIcs(plan.data, { planId: row.id, name: `Social Plan · ${row.title}`, stamp: row.updatedAt });
  return c.body(ics, 200, {
    "Content-Type": "text/calendar; charset=utf-8",
    "Content-Disposition": `inline; filename="social-plan-${plan.data.month}.ics"`,
    "Cache-Control": "private, max-age=300",
    "X-Content-Type-Options": "nosniff",
  });
});
