// The free-audit widget's public side (issue 21): its script (GET /widget/:id.js) and frame page (GET /widget/:id/frame),
// a visitor's submission (POST /api/widget/:id/leads) and its progress (GET /api/widget/:id/leads/:leadId). Only the
// widget's listed origins (and the app's own, for the frame) get CORS answers; the frame carries frame-ancestors for them.
import { Hono, type Context } from "hono";
import { clientIp } from "../../platform/auth/session";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { getLead, getWidget, originsOf, type WidgetRow } from "./queries";
import { CATEGORIES } from "../../domain/categories";
import { IdParam } from "../../domain/ids";
import { fileKeyFromUrl } from "../profile/rules/profile";
import { leadInput, WidgetRefusal, type LeadProgress, type WidgetPublicConfig, type WidgetRefusalKey } from "./rules/widgets";
import { issuesByField } from "../../domain/form-rules";
import type { Env } from "../../platform/env";
import { apiError, ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";
import { appOrigin } from "../../platform/origin";
import { turnstileConfigured } from "../../platform/providers/turnstile";
import { leadProgress, submitLead } from "./leads";
import { widgetServed } from "./guards";
import { widgetFrameHtml, widgetScript } from "./embed";

function refuse(c: Context, key: WidgetRefusalKey, retryAfter?: number) {
  const r = WidgetRefusal[key];
  if (retryAfter !== undefined) c.header("Retry-After", String(retryAfter));
  return apiError(c, r.status, r.code, r.message);
}

const validWidgetId = (id: string) => IdParam.safeParse({ id }).success;

/**
 * The widget when it takes visitors: active, and in production only behind the bot check (issue 26). Otherwise the
 * refusal: not found, or (an active widget in production without the bot check) not available.
 */
async function servedWidget(env: Env, id: string): Promise<{ widget: WidgetRow } | { refusal: WidgetRefusalKey }> {
  const row = validWidgetId(id) ? await getWidget(getDb(env), id) : null;
  if (!row?.active) return { refusal: "notFound" };
  if (!widgetServed(env, row)) {
    log.warn("widget: not served in production without the bot check (TURNSTILE_SITE_KEY, TURNSTILE_SECRET_KEY)", { widgetId: row.id });
    return { refusal: "botCheckMissing" };
  }
  return { widget: row };
}

async function activeWidget(env: Env, id: string): Promise<WidgetRow | null> {
  const found = await servedWidget(env, id);
  return "widget" in found ? found.widget : null;
}

/** The origins that may call the widget's API: its list, and the app's own (the frame page). */
function allowedOrigin(c: Context<AppEnv>, widget: WidgetRow, origin: string | undefined): boolean {
  if (!origin) return false;
  return originsOf(widget).includes(origin) || origin === appOrigin(c.env, c.req.url);
}

function corsHeaders(c: Context, origin: string) {
  c.header("Access-Control-Allow-Origin", origin);
  c.header("Vary", "Origin");
}

/** The logo inlined as a data: URL (the script loads nothing else from the app); none when it cannot be read. */
async function logoDataUrl(env: Env, url: string | null): Promise<string | null> {
  const key = fileKeyFromUrl(url);
  if (!key) return null;
  try {
    const object = await env.FILES.get(key);
    if (!object) return null;
    const bytes = new Uint8Array(await object.arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return `data:${object.httpMetadata?.contentType ?? "image/png"};base64,${btoa(binary)}`;
  } catch (error) {
    log.warn("widget: logo could not be read", { key }, error);
    return null;
  }
}

async function publicConfig(c: Context<AppEnv>, widget: WidgetRow): Promise<WidgetPublicConfig> {
  return {
    id: widget.id,
    name: widget.name,
    accent: widget.accent,
    logo: await logoDataUrl(c.env, widget.logoUrl),
    askWebsite: widget.askWebsite,
    askPhone: widget.askPhone,
    consentText: widget.consentText,
    trades: CATEGORIES,
    turnstileSiteKey: turnstileConfigured(c.env) ? c.env.TURNSTILE_SITE_KEY!.trim() : null,
    api: appOrigin(c.env, c.req.url),
  };
}

const SCRIPT_CACHE = "public, max-age=300";

/** A preflight of the widget's API: the methods allowed (and the headers, for the JSON submission), to its origins only. */
function preflight(methods: string, allowHeaders?: string) {
  return async (c: Context<AppEnv>) => {
    const widget = await activeWidget(c.env, c.req.param("id") ?? "");
    if (!widget) return refuse(c, "notFound");
    const origin = c.req.header("Origin");
    if (!allowedOrigin(c, widget, origin)) return refuse(c, "originRefused");
    corsHeaders(c, origin!);
    c.header("Access-Control-Allow-Methods", methods);
    if (allowHeaders) c.header("Access-Control-Allow-Headers", allowHeaders);
    c.header("Access-Control-Max-Age", "600");
    return c.body(null, 204);
  };
}

const TURNSTILE_ORIGIN = "https://challenges.cloudflare.com";

export const widgetPageRoutes = new Hono<AppEnv>()
  // The script: `<script src="…/widget/<id>.js" async>`. An inactive or unknown widget mounts nothing (a comment says why).
  .get("/:file{[^/]+\\.js}", async (c) => {
    const id = c.req.param("file").slice(0, -3);
    const widget = await activeWidget(c.env, id);
    c.header("Content-Type", "text/javascript; charset=utf-8");
    c.header("Cache-Control", widget ? SCRIPT_CACHE : "no-store");
    c.header("Cross-Origin-Resource-Policy", "cross-origin");
    if (!widget) return c.body("/* This free-audit widget is not available. */\n", 404);
    return c.body(widgetScript(await publicConfig(c, widget), "script"));
  })

  // The frame: `<iframe src="…/widget/<id>/frame">`, embeddable only by the widget's origins and the app (frame-ancestors).
  .get("/:id/frame", async (c) => {
    const widget = await activeWidget(c.env, c.req.param("id"));
    if (!widget) return c.html("<!doctype html><title>Not available</title><p>This form is not available.</p>", 404);
    const nonce = crypto.randomUUID().replace(/-/g, "");
    const ancestors = originsOf(widget);
    c.header(
      "Content-Security-Policy",
      [
        "default-src 'none'",
        `script-src 'nonce-${nonce}' ${TURNSTILE_ORIGIN}`,
        `style-src 'nonce-${nonce}'`,
        "img-src data:",
        "connect-src 'self'",
        `frame-src ${TURNSTILE_ORIGIN}`,
        "base-uri 'none'",
        "form-action 'none'",
        // 'self': the admin's live preview on the Widgets page.
        `frame-ancestors 'self' ${ancestors.join(" ")}`.trimEnd(),
      ].join("; "),
    );
    // frame-ancestors decides; the app-wide DENY would block every embedding.
    c.header("X-Frame-Options", "");
    c.header("Cache-Control", "no-store");
    return c.html(widgetFrameHtml(await publicConfig(c, widget), nonce));
  });

export const widgetApiRoutes = new Hono<AppEnv>()
  // Preflights: only the widget's origins are answered with CORS headers.
  .options("/:id/leads", preflight("GET, POST", "Content-Type"))
  .options("/:id/leads/:leadId", preflight("GET"))

  .post("/:id/leads", async (c) => {
    const found = await servedWidget(c.env, c.req.param("id"));
    if ("refusal" in found) return refuse(c, found.refusal);
    const origin = c.req.header("Origin");
    // A browser always sends Origin on a cross-origin POST; without one (or another site's) the answer is a refusal.
    if (!allowedOrigin(c, found.widget, origin)) return refuse(c, "originRefused");
    corsHeaders(c, origin!);
    const parsed = leadInput(found.widget).safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) {
      const fields = issuesByField(parsed.error);
      return apiError(c, 400, ErrorCode.validation, Object.values(fields)[0]?.[0] ?? "Please check the form and try again.", fields);
    }
    const visitor = { ip: c.req.header("CF-Connecting-IP") ?? null, address: clientIp(c), origin: appOrigin(c.env, c.req.url) };
    const submitted = await submitLead(c.env, found.widget, parsed.data, visitor);
    return submitted.ok ? c.json(submitted.progress, 201) : refuse(c, submitted.refusal, submitted.retryAfter);
  })

  .get("/:id/leads/:leadId", async (c) => {
    const { id, leadId } = c.req.param();
    const widget = await activeWidget(c.env, id);
    if (!widget) return refuse(c, "notFound");
    const origin = c.req.header("Origin");
    // The frame's same-origin GET sends no Origin; another site's must be listed.
    if (origin !== undefined) {
      if (!allowedOrigin(c, widget, origin)) return refuse(c, "originRefused");
      corsHeaders(c, origin);
    }
    if (!validWidgetId(leadId)) return refuse(c, "leadNotFound");
    const lead = await getLead(getDb(c.env), widget.id, leadId);
    if (!lead) return refuse(c, "leadNotFound");
    const body: LeadProgress = await leadProgress(c.env, lead, appOrigin(c.env, c.req.url));
    return c.json(body);
  });
