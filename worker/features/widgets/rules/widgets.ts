// The embeddable free-audit widget (issue 21): the admin's widget settings (one schema for the API and the web form),
// a visitor's submission built from the fields the widget asks, the limits, the refusal codes the widget shows, the
// lead's statuses and the progress the widget polls. Pure: shared by the worker, the widget script's server and the web.
import { z } from "zod";
import { CATEGORIES, type Category } from "../../../domain/categories";
import { NO_CONTROL_CHARACTERS, noControlCharacters } from "../../../domain/form-rules";
import { isWebUrl, normalizeWebsite } from "../../profile/rules/profile";

export const WIDGET_LIMITS = { name: 80, consent: 600, origins: 20, origin: 200 } as const;
/** The logo is inlined in the widget's script (it loads nothing else from the app), so it stays small. */
export const WIDGET_LOGO_MAX_BYTES = 100 * 1024;
export const WIDGET_LOGO_TOO_LARGE_MESSAGE = "The widget logo must be smaller than 100 KB.";
export const DEFAULT_ACCENT = "#1f5fa6";
export const DEFAULT_CONSENT = "I agree to be contacted about my free audit.";
/** What a widget's leads may spend a UTC day unless the admin sets otherwise (issue 26): about 40 leads' audits. */
export const DEFAULT_WIDGET_DAILY_CAP_USD = 2;
export const MAX_WIDGET_DAILY_CAP_USD = 1_000;
/** Mails with a report link one address may get a UTC day, across every widget (issue 26). */
export const WIDGET_MAILS_PER_RECIPIENT_DAY = 1;

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
  /** Dollars a UTC day, to the cent (stored in cents). */
  dailyCapUsd: z
    .number({ message: "Enter the daily cap in dollars" })
    .min(0, { message: "The daily cap cannot be negative" })
    .max(MAX_WIDGET_DAILY_CAP_USD, { message: `The daily cap can be at most $${MAX_WIDGET_DAILY_CAP_USD}` })
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, { message: "The daily cap is in dollars and cents, like 2.50" }),
};

/** Dollars as the API takes them → the cents the row keeps. */
export function capCents(usd: number): number {
  return Math.round(usd * 100);
}

/** POST /api/widgets: name required; the rest has defaults. */
export const WidgetCreate = z.strictObject({
  name: WidgetFields.name,
  accent: WidgetFields.accent.optional().default(DEFAULT_ACCENT),
  askWebsite: WidgetFields.askWebsite.optional().default(true),
  askPhone: WidgetFields.askPhone.optional().default(false),
  consentText: WidgetFields.consentText.optional().default(DEFAULT_CONSENT),
  origins: WidgetFields.origins.optional().default([]),
  active: WidgetFields.active.optional().default(true),
  dailyCapUsd: WidgetFields.dailyCapUsd.optional().default(DEFAULT_WIDGET_DAILY_CAP_USD),
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
  dailyCapUsd: WidgetFields.dailyCapUsd.optional(),
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
  /** Active, and (in production) protected by the bot check: its script and frame show the form. */
  served: boolean;
  createdAt: string;
  leads: number;
  /** What its leads may spend a UTC day, and today's leads and spend (reserved and settled, as the meter counts). */
  dailyCapUsd: number;
  today: { leads: number; spentUsd: number };
};

/**
 * The protections every widget shares, for the Widgets page: the bot check ("on"; "off" in development; "missing" in
 * production, where an active widget is then not served), whether a mail provider sends the visitor's mail, and the
 * mail limit per recipient.
 */
export type WidgetProtection = {
  botCheck: "on" | "off" | "missing";
  mailConfigured: boolean;
  mailsPerRecipientPerDay: number;
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
  /** "limited": not mailed, the address had its widget mail today. */
  mailOutcome: "sent" | "limited" | null;
};

export type WidgetListResponse = { widgets: WidgetDto[]; protection: WidgetProtection };
export type WidgetDetailResponse = { widget: WidgetDto; leads: LeadDto[]; protection: WidgetProtection };

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
  /** The trades the visitor picks from (the profile's categories). */
  trades: readonly string[];
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
    // The visitor's trade (issue 26): one of the profile's categories; none (an older embed) is "Other".
    trade: z
      .union([z.enum(CATEGORIES, { error: "Choose your trade from the list" }), z.literal("")])
      .optional()
      .transform((v): Category => (v ? v : "Other")),
    consent: widget.consentText.trim() !== "" ? z.literal(true, { error: "Tick the box to agree" }) : z.boolean().optional(),
    turnstileToken: z.string().max(LEAD_LIMITS.token).optional(),
  });
}
export type LeadInput = z.output<ReturnType<typeof leadInput>>;


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
  spendCapReached: { code: "widget_spend_cap_reached", status: 429, message: "This form has given all the free audits it can today. Please try again tomorrow." },
  botCheckMissing: { code: "widget_bot_check_missing", status: 503, message: "This form is not available right now." },
  leadNotFound: { code: "lead_not_found", status: 404, message: "We could not find your request." },
  // The API's own code for a store that failed (ErrorCode.unavailable).
  leadNotStored: { code: "service_unavailable", status: 503, message: "We could not take your request just now. Please try again in a minute." },
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
  /** The visitor's mail with the link: sent, to be sent when the report is ready, or none (the widget then says nothing of mail). */
  mail: LeadMail;
};

export type LeadMail = "sent" | "will_send" | "none";

/** What the widget says now: by email only when a mail will really go. */
export function leadMessage(status: LeadStatus, mail: LeadMail): string {
  const byMail = mail !== "none";
  switch (status) {
    case "running":
      return "We are auditing your business now. This takes a minute or two.";
    case "ready":
      return "We looked at your Google listing, your website and where you rank, and wrote up what to fix first.";
    case "waiting_allowance":
      return byMail
        ? "Thanks! We have your request. Your free report will follow by email."
        : "Thanks! We have your request. Keep this page open: your free report will show here once it is ready.";
    case "failed":
      return byMail ? "Thanks! We have your request. Your report will follow by email." : "Thanks! We have your request. Your report will show here once it is ready.";
  }
}

/** The steps the widget shows: the audit's four, then writing the report. */
export const PROGRESS_LABELS: Record<string, string> = {
  find: "Finding your Google listing",
  fetch: "Reading your website",
  speed: "Testing your site's speed",
  rank: "Checking where you rank",
  report: "Writing your report",
};
