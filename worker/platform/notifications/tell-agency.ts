// "Your agency has been told" (issue 26): when a customer meets a missing service, every admin gets one in-app alert
// for that service a day (the dedupe key holds the day), pointing at the Set-up checklist. Never throws.
import { getDb } from "../db/client";
import { adminRecipients, insertNotifications } from "./queries";
import type { ProviderId } from "../providers/rules/services";
import type { Env } from "../env";
import { log } from "../log";

export const PROVIDER_MISSING_KIND = "provider_missing";

export async function tellAgency(env: Env, provider: ProviderId, now = new Date()): Promise<void> {
  try {
    const db = getDb(env);
    const admins = await adminRecipients(db);
    const at = now.toISOString();
    await insertNotifications(
      db,
      admins.map((a) => ({
        userId: a.id,
        kind: PROVIDER_MISSING_KIND,
        prospectId: null,
        reportId: null,
        data: JSON.stringify({ provider }),
        dedupeKey: `${PROVIDER_MISSING_KIND}:${provider}:${at.slice(0, 10)}`,
        inApp: true,
        mailState: "none" as const,
        createdAt: at,
      })),
    );
  } catch (error) {
    log.error("setup: agency not told of a missing provider", { provider }, error);
  }
}
