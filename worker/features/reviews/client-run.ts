// "Sync reviews" from the clients view (issue 41): the client's reviews read from Google on the queue, as their own
// "Check now" does. Free of the meter (Google's API is not metered; a new review's AI draft reserves its own call).
import type { ClientRunner } from "../../platform/client-runs";
import { googleConfig } from "../../platform/providers/google";
import { findConnection } from "../integrations";
import { requestSync, ReviewErrorCode } from "./service";

const NOT_CONNECTED = "Google is not connected for this client: they connect it on Integrations.";
const RECONNECT = "This client's Google connection needs renewing: they reconnect it on Integrations.";

export const reviewSyncRun: ClientRunner = async (env, db, client) => {
  const connection = googleConfig(env) ? await findConnection(db, client.id) : null;
  if (connection?.status !== "connected") return { ok: false, code: ReviewErrorCode.notConnected, message: connection?.status === "needs_reconnect" ? RECONNECT : NOT_CONNECTED };
  return {
    ok: true,
    micro: 0,
    start: async () => {
      const asked = await requestSync(env, db, client.id);
      if (asked.kind === "queued") return { ok: true };
      if (asked.kind === "not_connected") return { ok: false, code: ReviewErrorCode.notConnected, message: NOT_CONNECTED };
      const message = asked.code === ReviewErrorCode.syncInProgress ? "Their reviews are being read from Google right now." : "Their reviews were checked a moment ago.";
      return { ok: false, code: asked.code, message };
    },
  };
};
