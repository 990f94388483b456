// /api/review-requests (issue 28): a business asks its customers for Google reviews. Signed-in: the requests and
// their figures, making them (one, many, CSV), the short link and its QR code, the settings and the hook's token.
// Public: the job-completed hook (token), the unsubscribe link, Twilio's status and incoming-message callbacks
// (X-Twilio-Signature), each rate limited. GET /r/:slug (the link itself) is in routes/review-link.ts.
import { zValidator } from "@hono/zod-validator";
import { Hono, type Context } from "hono";
import { z } from "zod";
import { requireUser } from "../../platform/auth/middleware";
import { clientIp } from "../../platform/auth/session";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { countEvent } from "../../platform/db/rate-limits";
import { businessOf, EVERY_BUSINESS, getRequestSettings, listRequests, recordOptOut, recordSmsStatus, requestByToken, requestFigures, sentRequestsSince } from "./queries";
import { reviewersSince } from "../reviews";
import {
  checkCustomer,
  isStopMessage,
  LIKELY_REVIEW_LOOKBACK_DAYS,
  likelyReviewsForRequests,
  MAX_CUSTOMERS_PER_CALL,
  normalizePhoneE164,
  openRate,
  REQUEST_SETTINGS_LABELS,
  RequestSettingsBody,
  type LikelyReviews,
  type RequestFigures,
} from "./rules/review-requests";
import { issuesByField } from "../../domain/form-rules";
import { apiError, ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";
import { appOrigin } from "../../platform/origin";
import { smsConfig, verifyTwilioSignature } from "../../platform/providers/sms";
import { qrPng, qrSvg } from "./qr";
import { customerFromHookBody, customerRows, hookOwner, requestMany, requestOne } from "./intake";
import {
  REVIEW_LINK_NOT_READY,
  requestView,
  reviewLinkFor,
  reviewLinkReady,
  rotateHookToken,
  settingsView,
  smsAvailable,
  timeZoneOf,
  updateSettings,
} from "./requests";
import { validate } from "../../platform/validate";
import { pageCsp } from "../../platform/plain-page";
import { stopConfirmationHtml } from "./pages";
import { paidFeature } from "../../platform/metering/guard";

const CreateBody = z.object({
  customers: z.array(z.unknown()).min(1, "Add at least one customer").max(MAX_CUSTOMERS_PER_CALL, `At most ${MAX_CUSTOMERS_PER_CALL} customers at once`).optional(),
  csv: z.string().max(500_000, "The CSV is too large (500 KB at most)").optional(),
  name: z.unknown().optional(),
  email: z.unknown().optional(),
  phone: z.unknown().optional(),
  jobId: z.unknown().optional(),
});
const LinkQuery = z.object({ format: z.enum(["json", "svg", "png"], { error: "format: json, svg or png" }).optional() });

export const ReviewRequestErrorCode = { noListing: "no_listing", invalidToken: "invalid_token", invalidSignature: "invalid_signature" } as const;
export const NO_LISTING_MESSAGE = "Your review link needs your Google listing: run an audit of your business or enter your Google place ID in the settings below.";

/**
 * The settings body, refused in the form's words: the field's label (never its key), the rule's stable code where it
 * has one (a web address in a template, a line break in the subject: issue 39), the fields for the form.
 */
const settingsBody = zValidator("json", RequestSettingsBody, (result, c) => {
  if (result.success) return;
  const issue = result.error.issues[0] as { path: PropertyKey[]; message: string; params?: { code?: string } } | undefined;
  const label = REQUEST_SETTINGS_LABELS[String(issue?.path[0] ?? "") as keyof typeof REQUEST_SETTINGS_LABELS];
  const message = issue && label ? `${label}: ${issue.message}` : "Some settings are not valid. Check the form and try again.";
  return apiError(c, 400, issue?.params?.code ?? ErrorCode.validation, message, issuesByField(result.error));
});

function figuresOf(counts: Record<string, number>): RequestFigures {
  const n = (k: string) => counts[k] ?? 0;
  const figures = { scheduled: n("scheduled"), sent: n("sent"), delivered: n("delivered"), opened: n("opened"), failed: n("failed"), optedOut: n("opted_out") };
  return { total: Object.values(figures).reduce((a, b) => a + b, 0), ...figures };
}

async function limited(c: Context<AppEnv>, key: string, max: number): Promise<boolean> {
  return (await countEvent(getDb(c.env), { key, max, windowSeconds: 60 })) > max;
}

/** A request that made no result (never expected): the API's 500 in its usual words. */
function somethingWentWrong(c: Context) {
  return apiError(c, 500, ErrorCode.internal, "Something went wrong on our side. Please try again.");
}

function tooMany(c: Context) {
  c.header("Retry-After", "60");
  return apiError(c, 429, ErrorCode.rateLimited, "Too many requests. Please wait a minute and try again.");
}

/** A form body (Twilio's callbacks, the unsubscribe page) or a JSON one, as URLSearchParams. */
async function formOrJson(c: Context): Promise<URLSearchParams | null> {
  const type = c.req.header("Content-Type") ?? "";
  const text = await c.req.text();
  if (/application\/x-www-form-urlencoded/i.test(type)) return new URLSearchParams(text);
  if (text.trim() === "") return new URLSearchParams();
  try {
    const value = JSON.parse(text) as unknown;
    if (!value || typeof value !== "object" || Array.isArray(value)) return null;
    return new URLSearchParams(Object.entries(value as Record<string, unknown>).filter(([, v]) => typeof v === "string") as [string, string][]);
  } catch {
    return null;
  }
}

function stopAnswer(c: Context, done: boolean) {
  const nonce = crypto.randomUUID().replace(/-/g, "");
  c.header("Content-Security-Policy", pageCsp(nonce));
  return c.html(stopConfirmationHtml(done, nonce), done ? 200 : 404);
}

const TWIML_EMPTY = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/** Twilio's callbacks: the form, once its signature (keyed by our auth token, over the URL it called) checks out. */
async function twilioForm(c: Context<AppEnv>): Promise<URLSearchParams | Response> {
  if (await limited(c, `rr:sms:ip:${clientIp(c)}`, 600)) return tooMany(c);
  const config = smsConfig(c.env);
  const form = new URLSearchParams(await c.req.text());
  if (!config || !(await verifyTwilioSignature(config.authToken, c.req.url, form, c.req.header("X-Twilio-Signature")))) {
    log.warn("review requests: Twilio callback refused (signature)", { path: new URL(c.req.url).pathname });
    return apiError(c, 403, ReviewRequestErrorCode.invalidSignature, "The request signature is not valid.");
  }
  return form;
}

/** The public side: the hook, the unsubscribe link and Twilio's callbacks. */
export const reviewRequestPublicRoutes = new Hono<AppEnv>()
  .post("/hook/:token", async (c) => {
    const ip = clientIp(c);
    if (await limited(c, `rr:hook:ip:${ip}`, 120)) return tooMany(c);
    const db = getDb(c.env);
    const userId = await hookOwner(db, c.req.param("token"));
    if (!userId) return apiError(c, 401, ReviewRequestErrorCode.invalidToken, "This hook address is not valid. Copy the current one from Reviews › Ask for reviews.");
    if (await limited(c, `rr:hook:user:${userId}`, 300)) return tooMany(c);
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      return apiError(c, 400, ErrorCode.validation, "The request body is not valid JSON.");
    }
    const checked = customerFromHookBody(raw);
    if (!checked.ok) return apiError(c, 400, ErrorCode.validation, checked.message);
    if (!(await reviewLinkReady(db, userId))) return apiError(c, 409, REVIEW_LINK_NOT_READY.code, REVIEW_LINK_NOT_READY.message);
    const business = await businessOf(db, userId);
    const result = await requestOne(c.env, db, { id: userId, isAdmin: business?.isAdmin ?? false, timeZone: timeZoneOf(business) }, checked.customer, "hook");
    if (!result) return somethingWentWrong(c);
    // Refusals are answers, not failures: the field-service app must not retry an opted-out customer.
    return result.ok ? c.json({ queued: true, id: result.id, dueAt: result.dueAt }, 202) : c.json({ queued: false, code: result.code, message: result.message }, 200);
  })

  .post("/unsubscribe", async (c) => {
    if (await limited(c, `rr:unsub:ip:${clientIp(c)}`, 30)) return tooMany(c);
    const form = await formOrJson(c);
    const token = c.req.query("r") ?? form?.get("token") ?? form?.get("r") ?? "";
    // The unsubscribe page's form (form-encoded) gets a page back; a JSON caller gets JSON.
    const wantsHtml = /application\/x-www-form-urlencoded/i.test(c.req.header("Content-Type") ?? "");
    const db = getDb(c.env);
    const request = token && token.length <= 100 ? await requestByToken(db, token) : null;
    if (!request) {
      if (wantsHtml) return stopAnswer(c, false);
      return apiError(c, 404, ErrorCode.notFound, "This unsubscribe link is not valid.");
    }
    await recordOptOut(db, request.userId, [request.email, request.phone].filter((a): a is string => Boolean(a)), "unsubscribe_link");
    log.info("review requests: customer unsubscribed", { requestId: request.id });
    if (wantsHtml) return stopAnswer(c, true);
    return c.json({ unsubscribed: true });
  })

  .post("/sms/status", async (c) => {
    const form = await twilioForm(c);
    if (form instanceof Response) return form;
    const sid = form.get("MessageSid") ?? "";
    const status = (form.get("MessageStatus") ?? "").toLowerCase();
    const db = getDb(c.env);
    if (sid && (status === "delivered" || status === "read")) await recordSmsStatus(db, sid, { delivered: true });
    else if (sid && (status === "failed" || status === "undelivered")) {
      const code = Number(form.get("ErrorCode"));
      const optedOut = code === 21610;
      const row = await recordSmsStatus(db, sid, { failed: optedOut ? "The customer opted out of text messages." : `The text message was not delivered${code ? ` (carrier error ${code})` : ""}.`, optedOut });
      if (optedOut && row?.phone) await recordOptOut(db, EVERY_BUSINESS, [row.phone], "sms_stop");
    }
    return c.body(null, 204);
  })

  .post("/sms/incoming", async (c) => {
    const form = await twilioForm(c);
    if (form instanceof Response) return form;
    const from = normalizePhoneE164(form.get("From"));
    if (from && isStopMessage(form.get("Body"), form.get("OptOutType"))) {
      // STOP reaches Twilio's Messaging Service, which every business shares: kept for every business.
      await recordOptOut(getDb(c.env), EVERY_BUSINESS, [from], "sms_stop");
      log.info("review requests: STOP received");
    }
    return c.body(TWIML_EMPTY, 200, { "Content-Type": "text/xml; charset=utf-8" });
  });

export const reviewRequestRoutes = new Hono<AppEnv>()
  .use(requireUser)

  .get("/", async (c) => {
    const subject = c.get("subject");
    const db = getDb(c.env);
    const since = new Date(Date.now() - LIKELY_REVIEW_LOOKBACK_DAYS * 86_400_000).toISOString();
    const [rows, counts, settings, sent, written] = await Promise.all([
      listRequests(db, subject.id),
      requestFigures(db, subject.id),
      getRequestSettings(db, subject.id),
      sentRequestsSince(db, subject.id, since),
      reviewersSince(db, subject.id, since),
    ]);
    const figures = figuresOf(counts);
    const matches = likelyReviewsForRequests(sent, written);
    const likelyReviews: LikelyReviews = { count: matches.length, requestIds: matches.map((m) => m.requestId), lookbackDays: LIKELY_REVIEW_LOOKBACK_DAYS };
    return c.json({ requests: rows.map(requestView), figures, openRate: openRate(figures), likelyReviews, channels: { sms: smsAvailable(c.env, settings), email: true } });
  })

  .post("/", paidFeature, validate("json", CreateBody, (fields) => Object.values(fields)[0]?.[0]), async (c) => {
    const body = c.req.valid("json");
    const subject = c.get("subject");
    const db = getDb(c.env);
    const owner = { id: subject.id, isAdmin: subject.isAdmin, timeZone: timeZoneOf(subject.profile) };
    // Nothing is scheduled while the link would open "This review link isn't ready yet" (issue 39).
    if (!(await reviewLinkReady(db, subject.id))) return apiError(c, 409, REVIEW_LINK_NOT_READY.code, REVIEW_LINK_NOT_READY.message);
    if (body.customers !== undefined || body.csv !== undefined) {
      const rows = customerRows(body);
      if (!rows.ok) return apiError(c, 400, ErrorCode.validation, rows.message, rows.fields);
      return c.json(await requestMany(c.env, db, owner, rows, body.csv !== undefined ? "csv" : "manual"), 200);
    }
    const checked = checkCustomer({ name: body.name, email: body.email, phone: body.phone, jobId: body.jobId });
    if (!checked.ok) return apiError(c, 400, ErrorCode.validation, checked.error.message);
    const result = await requestOne(c.env, db, owner, checked.customer, "manual");
    if (!result) return somethingWentWrong(c);
    if (!result.ok) return apiError(c, result.code === "plan_limit" ? 429 : 409, result.code, result.message);
    return c.json({ id: result.id, status: result.status, dueAt: result.dueAt }, 201);
  })

  .get("/link", validate("query", LinkQuery), async (c) => {
    const format = c.req.valid("query").format ?? "json";
    const subject = c.get("subject");
    const link = await reviewLinkFor(getDb(c.env), appOrigin(c.env, c.req.url), subject);
    if (format === "json") return c.json(link);
    if (!link.reviewUrl) return apiError(c, 409, ReviewRequestErrorCode.noListing, NO_LISTING_MESSAGE);
    const title = `Review ${subject.companyName ?? "us"} on Google`;
    if (format === "svg") return c.body(qrSvg(link.shortUrl, title), 200, { "Content-Type": "image/svg+xml; charset=utf-8" });
    return c.body(await qrPng(link.shortUrl), 200, { "Content-Type": "image/png" });
  })

  .get("/settings", async (c) => {
    const subject = c.get("subject");
    return c.json(await settingsView(c.env, getDb(c.env), subject.id, timeZoneOf(subject.profile)));
  })

  .put("/settings", settingsBody, async (c) => {
    const subject = c.get("subject");
    const db = getDb(c.env);
    await updateSettings(db, subject.id, c.req.valid("json"));
    return c.json(await settingsView(c.env, db, subject.id, timeZoneOf(subject.profile)));
  })

  /** A new hook address (the old one stops working): its token is shown in this answer only. */
  .post("/settings/hook", async (c) => {
    const subject = c.get("subject");
    const token = await rotateHookToken(getDb(c.env), subject.id);
    return c.json({ hookUrl: `${appOrigin(c.env, c.req.url)}/api/review-requests/hook/${token}` }, 201);
  });
