// POST /api/tts: speaks one sentence of a chat reply the server wrote (signed in its `done` event), metered by
// characters: a signed-in user's allowance, or a shared report's daily cap and the visitor's address.
import { waitUntil } from "../../platform/context";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requireUser } from "../../platform/auth/middleware";
import { clientIp } from "./load";
import type { AppEnv } from "../../platform/context";
import { TtsRequest } from "./rules/chat";
import { apiError, ErrorCode } from "../../platform/errors";
import { paymentRequired, refusalResponse } from "../../platform/http/paid-run";
import { logPaidCall } from "../../platform/metering/usage-log";
import { validate } from "../../platform/validate";
import { speak, TTS_TOO_LONG } from "./speak";

export const ttsRoutes = new Hono<AppEnv>().post(
  "/",
  bodyLimit({ maxSize: 16 * 1024, onError: (c) => apiError(c, 413, ErrorCode.payloadTooLarge, TTS_TOO_LONG) }),
  // A signed-in user, or (no token) a visitor of a shared chat, rate-limited in `speak`.
  async (c, next) => (c.req.header("Authorization") ? requireUser(c, next) : next()),
  validate("json", TtsRequest),
  async (c) => {
    const speaker = { userId: c.get("caller")?.id ?? null, address: clientIp(c) };
    const spoken = await speak(c.env, c.req.valid("json"), speaker, { waitUntil: (work) => waitUntil(c, work), logPaidCall: (entry) => logPaidCall(c, entry) });
    if ("payment" in spoken) return paymentRequired(c, spoken.payment);
    if (!spoken.ok) {
      if (spoken.refusal.retryAfter !== undefined) c.header("Retry-After", String(spoken.refusal.retryAfter));
      return refusalResponse(c, spoken.refusal);
    }
    return c.body(spoken.audio, 200, { "Content-Type": spoken.contentType, "Cache-Control": "no-store" });
  },
);
