// Review requests (issue 28): making them (one, pasted, CSV or from a field-service hook) under the rules of
// worker/features/review-requests/rules/review-requests.ts, the business's short link and its Google address, the settings view, and the
// hook's token. Due requests go on the `reviews` queue as {kind:"send", requestIds}, a few per message.
import type { Db } from "../../platform/db/client";
import { findConnection, parseLocations } from "../integrations";
import { readAllowance } from "../../platform/metering/budgets";
import {
  auditPlaceId,
  businessOf,
  countRequestsSince,
  ensureReviewLink,
  findRequestByJob,
  getRequestSettings,
  insertRequest,
  lastRequestsByAddress,
  markEnqueued,
  optedOutAddresses,
  saveRequestSettings,
  type RequestSettingsRow,
  type ReviewRequestRow,
} from "./queries";
import {
  DEFAULT_DELAY_MINUTES,
  DEFAULT_EMAIL_SUBJECT,
  DEFAULT_EMAIL_TEMPLATE,
  DEFAULT_QUIET_END,
  DEFAULT_QUIET_START,
  DEFAULT_SMS_TEMPLATE,
  REVIEW_REQUEST_MONTHLY_LIMIT,
  channelFor,
  dueAt,
  googleReviewUrl,
  mayAskAgain,
  quietHoursHoldUntil,
  type PlaceIdSource,
  type RequestSettingsBody,
  type RequestSettingsView,
  type ReviewRequestView,
  type RowResult,
  type ValidCustomer,
} from "./rules/review-requests";
import { monthPeriod } from "../../domain/metering";
import { allowedSmsCountries, businessSmsCountry, maySmsTo, parseSmsCountries, smsCountryRefusal, type SmsCountry } from "../../domain/sms-pricing";
import { newOpaqueToken, sha256Hex } from "../../platform/auth/tokens";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { settingsOf } from "../../platform/metering/meter";
import { smsConfigured } from "../../platform/providers/sms";

/** Ids per `send` message: each is one or two outside calls, within a Worker's 6 connections. */
export const SEND_BATCH = 5;

export function timeZoneOf(profile: { timeZone: string | null } | null | undefined): string {
  return profile?.timeZone || "UTC";
}

/** Texts go out when the operator configured them and the owner did not turn them off. */
export function smsAvailable(env: Env, settings: Pick<RequestSettingsRow, "smsEnabled"> | null): boolean {
  return smsConfigured(env) && (settings?.smsEnabled ?? true);
}

/** Where this business's texts may go: its own country, and what the operator allows every business (SMS_ALLOWED_COUNTRIES). */
export function smsCountriesFor(env: Env, companyPhone: string | null | undefined): { own: SmsCountry | null; allowed: Set<SmsCountry> } {
  const own = businessSmsCountry(companyPhone);
  return { own, allowed: allowedSmsCountries(own, parseSmsCountries(env.SMS_ALLOWED_COUNTRIES)) };
}

export function settingsWithDefaults(row: RequestSettingsRow | null) {
  return {
    delayMinutes: row?.delayMinutes ?? DEFAULT_DELAY_MINUTES,
    emailSubject: row?.emailSubject || DEFAULT_EMAIL_SUBJECT,
    emailTemplate: row?.emailTemplate || DEFAULT_EMAIL_TEMPLATE,
    smsTemplate: row?.smsTemplate || DEFAULT_SMS_TEMPLATE,
    quietStart: row?.quietStart ?? DEFAULT_QUIET_START,
    quietEnd: row?.quietEnd ?? DEFAULT_QUIET_END,
    smsEnabled: row?.smsEnabled ?? true,
    placeId: row?.placeId ?? "",
  };
}

/**
 * The place id the link sends customers to: the owner's own choice when they typed one (an override, e.g. another of
 * their listings), else the connected Google Business Profile location's (`metadata.placeId`, the first source found
 * for them), else the listing their latest audit found.
 */
export async function effectivePlaceId(db: Db, userId: string, settings: Pick<RequestSettingsRow, "placeId"> | null): Promise<{ placeId: string | null; source: PlaceIdSource | null }> {
  if (settings?.placeId) return { placeId: settings.placeId, source: "settings" };
  const fromGoogle = await connectedPlaceId(db, userId);
  if (fromGoogle) return { placeId: fromGoogle, source: "google" };
  const fromAudit = await auditPlaceId(db, userId);
  return fromAudit ? { placeId: fromAudit, source: "audit" } : { placeId: null, source: null };
}

/**
 * Why requests can't be made yet, when they can't: the review link needs a Google listing (item 23 of issue 39; and no
 * message goes out under the agency's sender for a business that names none, item 3). The same readiness the link and
 * the send job use (effectivePlaceId).
 */
export const REVIEW_LINK_NOT_READY = {
  code: "review_link_not_ready",
  message: "Your review link isn't ready yet, so no request was scheduled: it needs your Google listing. Connect your Google Business Profile, run an audit of your business, or enter your Google place ID in Request settings below, then ask again.",
} as const;

export async function reviewLinkReady(db: Db, userId: string): Promise<boolean> {
  const settings = await getRequestSettings(db, userId);
  return (await effectivePlaceId(db, userId, settings)).placeId !== null;
}

/** The place id of the first chosen location of the user's Google Business Profile connection that has one. */
async function connectedPlaceId(db: Db, userId: string): Promise<string | null> {
  const connection = await findConnection(db, userId);
  if (connection?.status !== "connected") return null;
  return parseLocations(connection.chosenLocations).find((l) => l.placeId)?.placeId ?? null;
}

export async function settingsView(env: Env, db: Db, userId: string, timeZone: string): Promise<RequestSettingsView> {
  const row = await getRequestSettings(db, userId);
  const place = await effectivePlaceId(db, userId, row);
  return {
    ...settingsWithDefaults(row),
    hookConfigured: Boolean(row?.hookTokenHash),
    hookCreatedAt: row?.hookTokenCreatedAt ?? null,
    effectivePlaceId: place.placeId,
    placeIdSource: place.source,
    timeZone,
    smsAvailable: smsConfigured(env),
    defaults: { emailSubject: DEFAULT_EMAIL_SUBJECT, emailTemplate: DEFAULT_EMAIL_TEMPLATE, smsTemplate: DEFAULT_SMS_TEMPLATE },
  };
}

export async function updateSettings(db: Db, userId: string, body: RequestSettingsBody): Promise<void> {
  await saveRequestSettings(db, userId, {
    delayMinutes: body.delayMinutes,
    emailSubject: body.emailSubject || null,
    emailTemplate: body.emailTemplate || null,
    smsTemplate: body.smsTemplate || null,
    quietStart: body.quietStart,
    quietEnd: body.quietEnd,
    smsEnabled: body.smsEnabled,
    placeId: body.placeId || null,
  });
}

/** A new hook token: returned once, kept only as its SHA-256 (the old one stops working at once). */
export async function rotateHookToken(db: Db, userId: string): Promise<string> {
  const token = newOpaqueToken();
  await saveRequestSettings(db, userId, { hookTokenHash: await sha256Hex(token), hookTokenCreatedAt: new Date().toISOString() });
  return token;
}

const SLUG_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
export function newSlug(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => SLUG_ALPHABET[b % SLUG_ALPHABET.length]).join("");
}

export type ReviewLinkView = {
  slug: string;
  shortUrl: string;
  clicks: number;
  placeId: string | null;
  placeIdSource: PlaceIdSource | null;
  reviewUrl: string | null;
  /** The business's name, printed above the QR code (null when the profile has none). */
  businessName: string | null;
};

export async function reviewLinkFor(db: Db, origin: string, owner: { id: string; companyName: string | null }): Promise<ReviewLinkView> {
  const [link, settings] = await Promise.all([ensureReviewLink(db, owner.id, newSlug()), getRequestSettings(db, owner.id)]);
  const place = await effectivePlaceId(db, owner.id, settings);
  return {
    slug: link.slug,
    shortUrl: `${origin}/r/${link.slug}`,
    clicks: link.clicks,
    placeId: place.placeId,
    placeIdSource: place.source,
    reviewUrl: place.placeId ? googleReviewUrl(place.placeId) : null,
    businessName: owner.companyName?.trim() || null,
  };
}

export function requestView(row: ReviewRequestRow): ReviewRequestView {
  return {
    id: row.id,
    customerName: row.customerName,
    email: row.email,
    phone: row.phone,
    channel: row.channel,
    source: row.source,
    status: row.status,
    dueAt: row.dueAt,
    sentAt: row.sentAt,
    deliveredAt: row.deliveredAt,
    openedAt: row.openedAt,
    reminderSentAt: row.reminderSentAt,
    lastError: row.lastError,
    createdAt: row.createdAt,
  };
}

export type Candidate = { row: number; customer: ValidCustomer };
export type Refused = { row: number; code: string; message: string };

export const ROW_REFUSALS = {
  optedOut: { code: "opted_out", message: "This customer asked not to be contacted, so no request is sent." },
  recent: { code: "asked_recently", message: "This customer was asked in the last 90 days." },
  noChannel: { code: "no_channel", message: "Text messages aren't available, and this customer has no email address." },
  smsCountry: { code: "sms_country_not_allowed", message: "Text messages can't go to this customer's country, and this customer has no email address." },
  planLimit: { code: "plan_limit", message: "Your plan's review requests for this month are used up." },
  duplicateJob: { code: "duplicate_job", message: "A request for this job was already made." },
} as const;

/**
 * Makes requests for the candidates, each checked on its own: opted out, asked in the last 90 days (earlier rows of
 * the same call count), no way to reach them, the plan's monthly limit, the same job twice. Valid ones are stored
 * and, when due at once, put on the queue. Answers one result per row, refusals included.
 */
export async function createRequests(
  env: Env,
  db: Db,
  owner: { id: string; isAdmin: boolean; timeZone: string },
  candidates: Candidate[],
  refused: Refused[],
  source: "manual" | "csv" | "hook",
  now = new Date(),
): Promise<RowResult[]> {
  const results: RowResult[] = refused.map((r) => ({ row: r.row, ok: false, code: r.code, message: r.message }));
  const [settings, business] = await Promise.all([getRequestSettings(db, owner.id), businessOf(db, owner.id)]);
  const config = settingsWithDefaults(settings);
  const sms = smsAvailable(env, settings);
  const countries = smsCountriesFor(env, business?.phone);
  const addresses = [...new Set(candidates.flatMap((c) => [c.customer.email, c.customer.phone]).filter((a): a is string => Boolean(a)))];
  const [optedOut, lastAsked, limitLeft] = await Promise.all([
    optedOutAddresses(db, owner.id, addresses),
    lastRequestsByAddress(db, owner.id, addresses),
    monthlyRoomLeft(env, db, owner),
  ]);
  let room = limitLeft;
  const due = dueAt(now, config.delayMinutes);
  const scheduledFor = quietHoursHoldUntil(due, owner.timeZone, config.quietStart, config.quietEnd) ?? due;
  const toQueue: string[] = [];
  for (const { row, customer } of candidates) {
    const mine = [customer.email, customer.phone].filter((a): a is string => Boolean(a));
    const refuse = (r: { code: string; message: string }) => results.push({ row, ok: false, code: r.code, message: r.message });
    if (mine.some((a) => optedOut.has(a))) {
      refuse(ROW_REFUSALS.optedOut);
      continue;
    }
    if (customer.jobId) {
      const existing = await findRequestByJob(db, owner.id, customer.jobId);
      if (existing) {
        refuse(ROW_REFUSALS.duplicateJob);
        continue;
      }
    }
    if (mine.some((a) => !mayAskAgain(lastAsked.get(a) ?? null, now))) {
      refuse(ROW_REFUSALS.recent);
      continue;
    }
    // A text only to a number in a country this business may text (SMS pumping: issue 39); else by mail if it can.
    const textable = sms && customer.phone !== null && maySmsTo(customer.phone, countries.allowed);
    const channel = channelFor(customer, textable);
    if (!channel) {
      refuse(sms && customer.phone ? { code: ROW_REFUSALS.smsCountry.code, message: smsCountryRefusal(countries.own) } : ROW_REFUSALS.noChannel);
      continue;
    }
    if (room !== null && room <= 0) {
      refuse(ROW_REFUSALS.planLimit);
      continue;
    }
    const id = crypto.randomUUID();
    const inserted = await insertRequest(db, {
      id,
      userId: owner.id,
      customerName: customer.name,
      email: customer.email,
      phone: customer.phone,
      channel,
      source,
      externalJobId: customer.jobId,
      token: newOpaqueToken().slice(0, 22),
      status: "scheduled",
      dueAt: scheduledFor.toISOString(),
    });
    if (!inserted) {
      // Another call for the same job landed first (the unique job index).
      refuse(ROW_REFUSALS.duplicateJob);
      continue;
    }
    if (room !== null) room--;
    for (const a of mine) lastAsked.set(a, now.toISOString());
    results.push({ row, ok: true, id, status: "scheduled", dueAt: scheduledFor.toISOString() });
    if (scheduledFor.getTime() <= now.getTime()) toQueue.push(id);
  }
  if (toQueue.length > 0) await enqueueSends(env, db, toQueue);
  return results.sort((a, b) => a.row - b.row);
}

/** How many more requests the plan allows this month (null: no limit, as for admins). */
async function monthlyRoomLeft(env: Env, db: Db, owner: { id: string; isAdmin: boolean }): Promise<number | null> {
  if (owner.isAdmin) return null;
  const now = new Date();
  const read = await readAllowance(db, owner.id, settingsOf(env), now);
  const limit = REVIEW_REQUEST_MONTHLY_LIMIT[read.allowance.plan];
  const monthStart = `${monthPeriod(now).id}-01T00:00:00.000Z`;
  return Math.max(0, limit - (await countRequestsSince(db, owner.id, monthStart)));
}

/** Puts requests on the `reviews` queue, SEND_BATCH ids a message; a failed send is left to the cron's sweep. */
export async function enqueueSends(env: Env, db: Db, ids: string[]): Promise<void> {
  const now = new Date().toISOString();
  for (let i = 0; i < ids.length; i += SEND_BATCH) {
    const part = ids.slice(i, i + SEND_BATCH);
    try {
      await env.REVIEWS.send({ kind: "send", requestIds: part });
      await markEnqueued(db, part, now);
    } catch (error) {
      log.error("review requests: could not queue; the cron sends them", { count: part.length }, error);
    }
  }
}
