// The guard in front of every paid route (issue 39): a customer whose address is not confirmed yet gets 403
// `email_unconfirmed` before anything is read or queued. The meter refuses their calls too (reserveCall), so queued
// and scheduled work (review requests' sends, weekly re-scans) spends nothing either; this answers the screens early.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";
import { accountMustConfirm } from "../../domain/metering";
import { apiError } from "../errors";
import { EMAIL_UNCONFIRMED_REFUSAL } from "./meter";

/** After requireUser: the caller (never a viewed user) must have confirmed their address, unless an admin. */
export const paidFeature = createMiddleware<AppEnv>(async (c, next) => {
  const caller = c.get("caller");
  if (accountMustConfirm({ isAdmin: caller.isAdmin, emailConfirmed: caller.emailConfirmedAt !== null })) {
    return apiError(c, 403, EMAIL_UNCONFIRMED_REFUSAL.code, EMAIL_UNCONFIRMED_REFUSAL.message);
  }
  await next();
});
