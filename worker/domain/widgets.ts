// The embeddable free-audit widget (issue 21): the admin's widget settings (one schema for the API and the web form),
// a visitor's submission built from the fields the widget asks, the limits, the refusal codes the widget shows, the
// lead's statuses and the progress the widget polls. Pure: shared by the worker, the widget script's server and the web.
import { z } from "zod";
import { NO_CONTROL_CHARACTERS, noControlCharacters } from "./form-rules";
import { isWebUrl, normalizeWebsite } from "./profile";

export const WIDGET_LIMITS = { name: 80, consent: 600, origins: 20, origin: 200 } as const;
/** The logo is inlined in the widget's script (it loads nothing else from the app), so it stays small. */
export const WIDGET_LOGO_MAX_BYTES = 100 * 1024;
export const WIDGET_LOGO_TOO_LARGE_MESSAGE = "The widget logo must be smaller than 100 KB.";
export const DEFAULT_ACCENT = "#1f5fa6";
export const DEFAULT_CONSENT = "I agree to be contacted about my free audit.";

/** The optional fields a widget may ask (business name, location and email are always asked). */
export const OPTIONAL_WIDGET_FIELDS = ["website", "phone"] as const;
export type OptionalWidgetField = (typeof OPTIONAL_WIDGET_FIELDS)[number];

export const INVALID_ORIGIN_MESSAGE = "Each origin is a scheme and host, like https://www.example.com (no path).";

/** `https://Example.com/` → `https://example.com`; null when it is not an http(s) origin without a path. */
export function normalizeOrigin(value: string): string | null {
  const trimmed = value.trim();
  // Scheme and host (a port allowed), nothing after but one slash: no path, query, fragment or user.
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(trimmed)) return null;
  try {
    const url = new URL(trimmed);
    if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) return null;
    return url.origin;
  } catch {
    return null;
  }
}

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .refine(noControlCharacters, { message: NO_CONTROL_CHARACTERS });

const Origins = z
  .array(z.string().max(WIDGET_LIMITS.origin, INVALID_ORIGIN_MESSAGE))
  .max(WIDGET_LIMITS.origins, `At most ${WIDGET_LIMITS.origins} origins`)
  .transform((list, ctx) => {
    const out: string[] = [];
    for (const raw of list) {
      const origin = normalizeOrigin(raw);
      if (!origin) {
        ctx.addIssue({ code: "custom", message: `${raw.slice(0, 80)}: ${INVALID_ORIGIN_MESSAGE}` });
        return z.NEVER;
      }
      if (!out.includes(origin)) out.push(origin);
    }
    return out;
  });

const WidgetFields = {
  name: text(WIDGET_LIMITS.name).min(1, "Give the widget a name"),
  accent: z.string().regex(/^#[0-9a-fA-F]{6}$/, "A colour like #1f5fa6").transform((v) => v.toLowerCase()),
  askWebsite: z.boolean(),
  askPhone: z.boolean(),
  consentText: text(WIDGET_LIMITS.consent),
  origins: Origins,
  active: z.boolean(),
};

/** POST /api/widgets: name required; the rest has defaults. */
export const WidgetCreate = z.strictObject({
  name: WidgetFields.name,
  accent: WidgetFields.accent.optional().default(DEFAULT_ACCENT),
  askWebsite: WidgetFields.askWebsite.optional().default(true),
  askPhone: WidgetFields.askPhone.optional().default(false),
  consentText: WidgetFields.consentText.optional().default(DEFAULT_CONSENT),
  origins: WidgetFields.origins.optional().default([]),
  active: WidgetFields.active.optional().default(true),
});
export type WidgetCreateInput = z.input<typeof WidgetCreate>;

/** PATCH /api/widgets/:id: only the fields it names change. */
export const WidgetPatch = z.strictObject({
  name: WidgetFields.name.optional(),
  accent: WidgetFields.accent.optional(),
  askWebsite: WidgetFields.askWebsite.optional(),
  askPhone: WidgetFields.askPhone.optional(),
  consentText: WidgetFields.consentText.optional(),
  origins: WidgetFields.origins.optional(),
  active: WidgetFields.active.optional(),
  /** null removes the logo (uploading one is POST /api/widgets/:id/logo). */
  logo: z.null().optional(),
});

/** A widget as the admin API answers it. */
export type WidgetDto = {
  id: string;
  name: string;
  accent: string;
  logoUrl: string | null;
  askWebsite: boolean;
  askPhone: boolean;
  consentText: string;
  origins: string[];
  active: boolean;
  createdAt: string;
  leads: number;
};

export const LEAD_STATUSES = ["running", "waiting_allowance", "ready", "failed"] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export type LeadDto = {
  id: string;
  widgetId: string;
  prospectId: string;
  reportId: string;
  status: LeadStatus;
  businessName: string;
  visitorEmail: string;
  createdAt: string;
  mailedAt: string | null;
};

export type WidgetListResponse = { widgets: WidgetDto[] };
export type WidgetDetailResponse = { widget: WidgetDto; leads: LeadDto[] };

/** What the widget's script and frame need (public: no owner, no leads). */
export type WidgetPublicConfig = {
  id: string;
  name: string;
  accent: string;
  /** A data: URL (the script loads nothing else from the app), or null. */
  logo: string | null;
  askWebsite: boolean;
  askPhone: boolean;
  consentText: string;
  /** Set when Turnstile is configured: the widget renders the challenge. */
  turnstileSiteKey: string | null;
  /** The app's origin, where the widget posts. */
  api: string;
};

// ---- A visitor's submission

export const LEAD_LIMITS = { businessName: 200, location: 200, email: 254, website: 500, phone: 50, token: 2048 } as const;

/** The submission schema for one widget: website and phone are refused unless the widget asks them. */
export function leadInput(widget: { askWebsite: boolean; askPhone: boolean; consentText: string }) {
  return z.object({
    businessName: text(LEAD_LIMITS.businessName).min(1, "Enter your business name"),
    location: text(LEAD_LIMITS.location).min(1, "Enter your city or area"),
    email: z.string().trim().max(LEAD_LIMITS.email).email("Enter a valid email address"),
    website: widget.askWebsite
      ? z
          .string()
          .max(LEAD_LIMITS.website)
          .transform(normalizeWebsite)
          .refine((v) => v === "" || isWebUrl(v), { message: "Enter a valid website address, like example.com" })
          .optional()
          .default("")
      : z.literal("").optional().default(""),
    phone: widget.askPhone ? text(LEAD_LIMITS.phone).optional().default("") : z.literal("").optional().default(""),
    consent: widget.consentText.trim() !== "" ? z.literal(true, { error: "Tick the box to agree" }) : z.boolean().optional(),
    turnstileToken: z.string().max(LEAD_LIMITS.token).optional(),
  });
}
export type LeadInput = z.output<ReturnType<typeof leadInput>>;

/** The tag a widget's prospects carry, so the agency can filter them. */
export function widgetTag(name: string): string {
  return `Widget: ${name}`;
}

// ---- Limits (fixed windows in D1, rate_limits)

/** Submissions per client address (IPv6 per /64) per hour. */
export const LEADS_PER_ADDRESS = { max: 3, windowSeconds: 3_600 } as const;
/** Leads per widget per hour and per day, across every visitor. */
export const LEADS_PER_WIDGET_HOUR = { max: 20, windowSeconds: 3_600 } as const;
export const LEADS_PER_WIDGET_DAY = { max: 100, windowSeconds: 86_400 } as const;
/** What a lead needs left of its owner's allowance to start at once (a report and an audit's paid calls). */
export const LEAD_MIN_ALLOWANCE_USD = 0.05;

/** Every refusal has a stable code and a plain message the widget shows as it is. */
export const WidgetRefusal = {
  notFound: { code: "widget_not_found", status: 404, message: "This form is not available." },
  originRefused: { code: "widget_origin_refused", status: 403, message: "This form is not set up for this website." },
  botCheckFailed: { code: "bot_check_failed", status: 400, message: "We could not check that you are not a robot. Please try again." },
  botCheckUnavailable: { code: "bot_check_unavailable", status: 503, message: "The robot check is not answering right now. Please try again in a minute." },
  addressLimit: { code: "widget_address_limit", status: 429, message: "You have sent this form several times already. Please try again in an hour." },
  widgetHourLimit: { code: "widget_hour_limit", status: 429, message: "Lots of businesses are asking for audits right now. Please try again in an hour." },
  widgetDayLimit: { code: "widget_day_limit", status: 429, message: "This form has had all the requests it can take today. Please try again tomorrow." },
  leadNotFound: { code: "lead_not_found", status: 404, message: "We could not find your request." },
} as const;
export type WidgetRefusalKey = keyof typeof WidgetRefusal;

// ---- Progress (GET /api/widget/:id/leads/:leadId)

export type LeadProgressStep = { id: string; label: string; status: "pending" | "running" | "done" | "failed" | "skipped" };

export type LeadProgress = {
  leadId: string;
  status: LeadStatus;
  /** What the widget says now, in plain words. */
  message: string;
  steps: LeadProgressStep[];
  reportStatus: string;
  /** The shared report, once ready. */
  reportUrl: string | null;
};

export const LEAD_MESSAGES: Record<LeadStatus, string> = {
  running: "We are auditing your business now. This takes a minute or two.",
  waiting_allowance: "Thanks! We have your request. Your free report will follow by email.",
  ready: "We looked at your Google listing, your website and where you rank, and wrote up what to fix first.",
  failed: "Thanks! We have your request. Your report will follow by email.",
};

/** The steps the widget shows: the audit's four, then writing the report. */
export const PROGRESS_LABELS: Record<string, string> = {
  find: "Finding your Google listing",
  fetch: "Reading your website",
  speed: "Testing your site's speed",
  rank: "Checking where you rank",
  report: "Writing your report",
};
