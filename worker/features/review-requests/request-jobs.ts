// The review-request queue job (issue 28): each due request (its first message or its one reminder) is claimed by
// compare-and-set, checked again (opted out, quiet hours in the business's zone, a Google listing to link to),
// metered (a reservation first: a text costs cents, a mail nothing but is counted), then sent by text through Twilio
// or by mail through the mail-out queue. The cron (sweepReviewRequests) puts due requests on the queue.
import { getDb, type Db } from "../../platform/db/client";
import { claim } from "../../platform/jobs/claim";
import {
  businessOf,
  dueRequestIds,
  EVERY_BUSINESS,
  failRequests,
  finishClaim,
  reviewRequestJob,
  getRequestSettings,
  ensureReviewLink,
  optedOutAddresses,
  recordOptOut,
  type ReviewRequestRow,
} from "./queries";
import { fillTemplate, firstNameOf, quietHoursHoldUntil, REMINDER_AFTER_MS, smsBody, webAddressesIn } from "./rules/review-requests";
import { smsCountryOf, smsCountryRefusal, smsSegments } from "../../domain/sms-pricing";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { sendStoredMail } from "../../platform/mail/send";
import { linkOrigin } from "../../platform/origin";
import { userPayer } from "../../platform/metering/meter";
import { reserveLoggedCall } from "../../platform/metering/usage-log";
import { sendSms, smsConfig } from "../../platform/providers/sms";
import type { ReviewJobOutcome } from "../reviews";
import { effectivePlaceId, enqueueSends, newSlug, settingsWithDefaults, smsAvailable, smsCountriesFor, timeZoneOf } from "./requests";

/** A claim older than this is taken to be a delivery that died: another may take it. */
const CLAIM_STALE_MS = 10 * 60_000;
/** Deliveries of one request before a temporary failure (the provider down) is final. */
const MAX_ATTEMPTS = 5;
export const REVIEW_REQUESTS_TOOL = "review-requests";


function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

type Step = { retry?: string };

async function sendOne(env: Env, db: Db, claimed: ReviewRequestRow, now: Date): Promise<Step> {
  const claimedAt = claimed.claimedAt!;
  const reminder = claimed.status !== "scheduled";
  const [business, settingsRow, link] = await Promise.all([businessOf(db, claimed.userId), getRequestSettings(db, claimed.userId), ensureReviewLink(db, claimed.userId, newSlug())]);
  const settings = settingsWithDefaults(settingsRow);
  const addresses = [claimed.email, claimed.phone].filter((a): a is string => Boolean(a));
  const fail = (reason: string) =>
    finishClaim(db, claimed.id, claimedAt, reminder ? { reminderDueAt: null, lastError: reason } : { status: "failed", lastError: reason, reminderDueAt: null });

  // Opted out since it was made (by STOP or the unsubscribe link): nothing goes out, by any channel.
  if ((await optedOutAddresses(db, claimed.userId, addresses)).size > 0) {
    await finishClaim(db, claimed.id, claimedAt, reminder ? { reminderDueAt: null } : { status: "opted_out", reminderDueAt: null });
    return {};
  }
  // Quiet hours in the business's zone: held until they end (the cron sends it then).
  const holdUntil = quietHoursHoldUntil(now, timeZoneOf(business), settings.quietStart, settings.quietEnd);
  if (holdUntil) {
    const at = holdUntil.toISOString();
    await finishClaim(db, claimed.id, claimedAt, reminder ? { reminderDueAt: at, enqueuedAt: null } : { dueAt: at, enqueuedAt: null });
    log.info("review request held for quiet hours", { requestId: claimed.id, until: at });
    return {};
  }
  const origin = linkOrigin(env);
  if (!origin) {
    log.error("review requests: APP_ORIGIN is not set, links cannot be built", { requestId: claimed.id });
    await finishClaim(db, claimed.id, claimedAt, { lastError: "not sent yet: the link could not be made" });
    return { retry: "APP_ORIGIN missing" };
  }
  const place = await effectivePlaceId(db, claimed.userId, settingsRow);
  if (!link || !place.placeId) {
    await fail("No Google listing is set for your review link, so nothing was sent.");
    return {};
  }
  const values = { business: business?.name?.trim() || "our team", firstName: firstNameOf(claimed.customerName), link: `${origin}/r/${link.slug}?r=${claimed.token}` };
  // enqueuedAt cleared: the reminder, when it comes due, goes on the queue afresh.
  const sentFields = reminder
    ? { reminderSentAt: now.toISOString(), lastError: null, enqueuedAt: null }
    : { status: "sent" as const, sentAt: now.toISOString(), reminderDueAt: new Date(now.getTime() + REMINDER_AFTER_MS).toISOString(), lastError: null, enqueuedAt: null };
  const payer = await userPayer(env, db, claimed.userId);
  // The one web address a message may carry is its review link: not one in the business's name or a template saved
  // before the rule (issue 39, phishing).
  const foreignAddress = (text: string) => webAddressesIn(text.split(values.link).join(" "))[0];

  // Texts go only where this business may text, checked again here (the business's phone or the operator's list may
  // have changed since the request was made); the meter prices the destination's country (SMS pumping, issue 39).
  const countries = smsCountriesFor(env, business?.phone);
  const country = claimed.phone ? smsCountryOf(claimed.phone) : null;
  const textable = country !== null && countries.allowed.has(country);
  const useSms = claimed.channel === "sms" && claimed.phone && smsAvailable(env, settingsRow) && textable;
  if (useSms && country) {
    const config = smsConfig(env)!;
    const body = smsBody(settings.smsTemplate, values);
    const address = foreignAddress(body);
    if (address) {
      await fail(`Not sent: the message would carry a web address other than your review link (“${address}”). Check your business name and the text message in Request settings.`);
      return {};
    }
    const segments = smsSegments(body);
    const reserved = await reserveLoggedCall(env, payer, { kind: "sms", segments, country }, REVIEW_REQUESTS_TOOL);
    if (!reserved.ok) {
      await fail(`Not sent: ${reserved.refusal.message}`);
      return {};
    }
    const out = await sendSms(config, { to: claimed.phone!, body, statusCallback: `${origin}/api/review-requests/sms/status` });
    if (out.ok) {
      await reserved.ticket.settle({ kind: "sms", segments: out.segments ?? segments, country });
      await finishClaim(db, claimed.id, claimedAt, { ...sentFields, providerMessageId: out.sid, channel: "sms" });
      return {};
    }
    await reserved.ticket.release();
    if (out.optedOut) {
      await recordOptOut(db, EVERY_BUSINESS, [claimed.phone!], "sms_stop");
      await finishClaim(db, claimed.id, claimedAt, reminder ? { reminderDueAt: null } : { status: "opted_out", reminderDueAt: null });
      return {};
    }
    if (out.retryable && claimed.attempts < MAX_ATTEMPTS) {
      await finishClaim(db, claimed.id, claimedAt, { lastError: `not sent yet: ${out.reason}; trying again` });
      return { retry: out.reason };
    }
    await fail(`The text message could not be sent: ${out.reason}.`);
    return {};
  }
  if (!claimed.email) {
    const elsewhere = claimed.phone && smsAvailable(env, settingsRow) && !textable;
    await fail(elsewhere ? smsCountryRefusal(countries.own) : "Text messages aren't available, and this customer has no email address.");
    return {};
  }
  const text = fillTemplate(settings.emailTemplate, values);
  const stopLink = `${origin}/r/${link.slug}/stop?r=${claimed.token}`;
  // One line whatever the business's name holds (a line break in a subject is a header injection).
  const subject = (reminder ? "Reminder: " : "") + fillTemplate(settings.emailSubject, values).replace(values.link, "").replace(/[\r\n\u0085\u2028\u2029]+/g, " ").trim();
  const address = foreignAddress(`${subject}\n${text}`);
  if (address) {
    await fail(`Not sent: the message would carry a web address other than your review link (“${address}”). Check your business name and the email in Request settings.`);
    return {};
  }
  const reserved = await reserveLoggedCall(env, payer, { kind: "mail" }, REVIEW_REQUESTS_TOOL);
  if (!reserved.ok) {
    await fail(`Not sent: ${reserved.refusal.message}`);
    return {};
  }
  const html = `${text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>").replace(escapeHtml(values.link), `<a href="${escapeHtml(values.link)}">Leave a review on Google</a>`)}</p>`)
    .join("")}<p style="font-size:12px;color:#666">Don't want messages like this? <a href="${escapeHtml(stopLink)}">Unsubscribe</a>.</p>`;
  try {
    await sendStoredMail(env, db, { to: claimed.email, subject, text: `${text}\n\nUnsubscribe: ${stopLink}`, html, kind: "review_request" }, { readable: false });
  } catch (error) {
    await reserved.ticket.release();
    log.error("review request mail failed", { requestId: claimed.id }, error);
    await finishClaim(db, claimed.id, claimedAt, { lastError: "not sent yet; trying again" });
    return { retry: "mail could not be stored" };
  }
  await reserved.ticket.settle({ kind: "mail", messages: 1 });
  await finishClaim(db, claimed.id, claimedAt, { ...sentFields, channel: "email" });
  return {};
}

export async function processReviewRequestSend(env: Env, requestIds: string[], attempts: number): Promise<ReviewJobOutcome> {
  void attempts;
  const db = getDb(env);
  const now = new Date();
  const staleBefore = new Date(now.getTime() - CLAIM_STALE_MS).toISOString();
  const retries: string[] = [];
  await Promise.all(
    requestIds.map(async (id) => {
      const [claimed] = await claim(db, reviewRequestJob, [id, now.toISOString()], { now: now.toISOString(), staleBefore });
      if (!claimed) return; // not due, or another delivery holds it: nothing to do twice
      try {
        const step = await sendOne(env, db, claimed, now);
        if (step.retry) retries.push(step.retry);
      } catch (error) {
        log.error("review request: unexpected failure", { requestId: id }, error);
        await finishClaim(db, id, claimed.claimedAt!, { lastError: "not sent yet; trying again" });
        retries.push("unexpected failure");
      }
    }),
  );
  return retries.length > 0 ? { kind: "retry", reason: retries[0]! } : { kind: "done" };
}

export async function failReviewRequestsForDeadLetter(env: Env, requestIds: string[], attempts: number): Promise<void> {
  void attempts;
  await failRequests(getDb(env), requestIds, "Sending failed after several tries.");
}

/** The cron: due requests (first messages and reminders) not on the queue in the last 15 minutes go on it. */
export async function sweepReviewRequests(env: Env, now = new Date()): Promise<void> {
  const db = getDb(env);
  try {
    const ids = await dueRequestIds(db, now.toISOString(), new Date(now.getTime() - 15 * 60_000).toISOString());
    if (ids.length > 0) await enqueueSends(env, db, ids);
  } catch (error) {
    log.error("review requests: sweep failed", {}, error);
  }
}
