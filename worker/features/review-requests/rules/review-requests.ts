// Review requests' pure rules (issue 28): who may be asked (one request per customer per 90 days, never after an
// opt-out), when (the owner's delay, held past quiet hours in the business's zone), what the message says (templates
// with the business's name and the customer's first name, and no web address but the review link: issue 39), the CSV
// rows, phone and email normalisation, and the Google write-review address every customer gets (no gating). SMS
// countries, prices and segments are in ./sms-pricing. Shared by the worker and the web.
import { z } from "zod";
import { normalizePhoneE164 } from "../../../domain/nap";
import { utcToZoned, zonedToUtc } from "../../../domain/time-zone";

export { normalizePhoneE164 };

export const DEFAULT_DELAY_MINUTES = 120;
export const MAX_DELAY_MINUTES = 7 * 24 * 60;
/** One reminder, this long after the first message, if the link was not opened. */
export const REMINDER_AFTER_MS = 3 * 86_400_000;
/** One request per customer per this many days (whatever the channel or the path it came by). */
export const REPEAT_WINDOW_DAYS = 90;
export const DEFAULT_QUIET_START = "20:00";
export const DEFAULT_QUIET_END = "08:00";
/** Customers one POST may carry (pasted or CSV). */
export const MAX_CUSTOMERS_PER_CALL = 500;
/** Requests a business may make in a calendar month (UTC), per plan; admins are not limited. */
export const REVIEW_REQUEST_MONTHLY_LIMIT = { Free: 25, "Self Service": 1000 } as const;

export const DEFAULT_EMAIL_SUBJECT = "How did we do, {first_name}?";
export const DEFAULT_EMAIL_TEMPLATE =
  "Hi {first_name},\n\nThank you for choosing {business}. If you have a minute, we'd be grateful for a review on Google: it helps neighbours find us.\n\n{link}\n\nThank you,\n{business}";
export const DEFAULT_SMS_TEMPLATE = "Hi {first_name}, thanks for choosing {business}! Would you leave us a Google review? {link}";
/** Added to every text message: carriers require the opt-out words. */
export const SMS_STOP_LINE = "Reply STOP to opt out.";

export const REQUEST_STATUS_LABELS = {
  scheduled: "Scheduled",
  sent: "Sent",
  delivered: "Delivered",
  opened: "Opened",
  failed: "Failed",
  opted_out: "Opted out",
} as const;
export type ReviewRequestStatus = keyof typeof REQUEST_STATUS_LABELS;

/** Google's write-review address for a place: every customer gets this same link, happy or not. */
export function googleReviewUrl(placeId: string): string {
  return `https://search.google.com/local/writereview?placeid=${encodeURIComponent(placeId)}`;
}

/** A Google place id as Google writes them (letters, digits, - and _). */
export const PLACE_ID = /^[A-Za-z0-9_-]{10,300}$/;

export function normalizeEmail(raw: string | null | undefined): string | null {
  const value = (raw ?? "").trim().toLowerCase();
  if (value === "" || value.length > 254) return null;
  return z.email().safeParse(value).success ? value : null;
}

export function firstNameOf(name: string): string {
  return name.trim().split(/\s+/)[0] ?? "";
}

export type TemplateValues = { business: string; firstName: string; link: string };

/** `{business}`, `{first_name}` and `{link}` filled in; a template without `{link}` gets the link at its end. */
export function fillTemplate(template: string, values: TemplateValues): string {
  // A "first name" that is a web address (a CSV or hook row can say anything) is not put in a message.
  const first = (webAddressesIn(values.firstName).length === 0 && values.firstName.trim()) || "there";
  let text = template.replace(/\{business\}/g, values.business).replace(/\{first_name\}/g, first);
  if (!text.includes("{link}")) text = `${text.trimEnd()} {link}`;
  return text.replace(/\{link\}/g, values.link);
}

/** The text message as sent: the filled template and the opt-out line. */
export function smsBody(template: string, values: TemplateValues): string {
  return `${fillTemplate(template, values)} ${SMS_STOP_LINE}`;
}

/** Top-level domains a bare web address ("evil.com") is recognised by: every two-letter country code and these. */
const GENERIC_TLDS = new Set(
  "com net org info biz app dev xyz top site online shop store click link live page club icu buzz fun work life world today tech space website cloud email news blog art pro mobi name asia digital network support help review reviews deals sale gov edu mil int bank money win bid vip loan men date stream download racing party trade science cam rest bar monster quest cyou sbs cfd lol mom ink one zip mov gift gifts coupon coupons promo free best cheap"
    .split(" "),
);
const DOT = "[.\u3002\uFF0E\uFF61]";
const SCHEME = /\b[a-z][a-z0-9+.-]{1,15}:\/\/\S+|\bwww\d{0,3}[.\u3002\uFF0E\uFF61]\S+|\b\d{1,3}(?:[.\u3002\uFF0E\uFF61]\d{1,3}){3}\b/gi;
const HOST = new RegExp(`(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?${DOT})+([a-z]{2,24})(?![a-z0-9-])(?:/\\S*)?`, "gi");

/**
 * The web addresses a text carries, written any way: with a scheme ("https://", "hxxp://"), "www.", an IP address or
 * a bare domain ("evil.com", "bit.ly/x", "acme.co.uk", an email's domain). Messages go out under the agency's sender
 * and the shared text line, so the review link ({link}) is the only address a message may carry (issue 39).
 */
export function webAddressesIn(value: string): string[] {
  const found = [...value.matchAll(SCHEME)].map((m) => m[0]);
  const rest = value.replace(SCHEME, " ");
  for (const m of rest.matchAll(HOST)) {
    const tld = m[1]!.toLowerCase();
    if (tld.length === 2 || GENERIC_TLDS.has(tld)) found.push(m[0]);
  }
  return found;
}

/** A template as its words: the placeholders as plain words (so "{business}.com" is still an address), {link} gone. */
function templateWords(template: string): string {
  return template.replace(/\{link\}/g, " ").replace(/\{business\}/g, "Business").replace(/\{first_name\}/g, "Name");
}

/** Stable codes of the message rules (the API's error code when one is broken; the form shows the message). */
export const MESSAGE_RULE_CODES = {
  linkMissing: "template_link_missing",
  webAddress: "template_web_address",
  subjectLineBreak: "subject_line_break",
} as const;

/** The rule a template or subject breaks, if any (the schema below and the send job use it). */
export function messageRuleBroken(value: string, kind: "template" | "subject"): { code: string; message: string } | null {
  if (kind === "subject" && /[\r\n\u0085\u2028\u2029]/.test(value)) return { code: MESSAGE_RULE_CODES.subjectLineBreak, message: "Keep the subject on one line" };
  if (kind === "template" && value !== "" && !value.includes("{link}")) return { code: MESSAGE_RULE_CODES.linkMissing, message: "Keep {link} in the message: it is the review link" };
  const address = webAddressesIn(templateWords(value))[0];
  if (address) return { code: MESSAGE_RULE_CODES.webAddress, message: `Remove “${address.trim()}”: {link} is the only web address a message may carry` };
  return null;
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * When a message due `now` may go out: null when now is outside quiet hours, else the instant they end (local time
 * in `timeZone`). Quiet hours may run past midnight (20:00–08:00) or not (12:00–13:00); start = end means none.
 */
export function quietHoursHoldUntil(now: Date, timeZone: string, start: string, end: string): Date | null {
  if (!HHMM.test(start) || !HHMM.test(end) || start === end) return null;
  const local = utcToZoned(now, timeZone);
  const t = local.time;
  const quiet = start < end ? t >= start && t < end : t >= start || t < end;
  if (!quiet) return null;
  // The window ends today at `end` if that is still ahead, else tomorrow.
  let day = local.date;
  if (t >= end) {
    const next = new Date(`${local.date}T12:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    day = next.toISOString().slice(0, 10);
  }
  return zonedToUtc(day, end, timeZone);
}

/** Whether a customer asked at `lastAt` may be asked again at `now`. */
export function mayAskAgain(lastAt: string | Date | null, now: Date): boolean {
  if (!lastAt) return true;
  return now.getTime() - new Date(lastAt).getTime() >= REPEAT_WINDOW_DAYS * 86_400_000;
}

/** When a new request is due: the owner's delay after now. */
export function dueAt(now: Date, delayMinutes: number): Date {
  return new Date(now.getTime() + Math.max(0, delayMinutes) * 60_000);
}

/** The channel a request goes by: a text when there is a phone and texts can be sent, else mail. */
export function channelFor(customer: { email: string | null; phone: string | null }, smsAvailable: boolean): "sms" | "email" | null {
  if (customer.phone && smsAvailable) return "sms";
  if (customer.email) return "email";
  return null;
}

const STOP_WORDS = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT"]);

/** An incoming text that opts out: Twilio's OptOutType=STOP (Advanced Opt-Out) or one of the standard words alone. */
export function isStopMessage(body: string | null, optOutType: string | null): boolean {
  if ((optOutType ?? "").toUpperCase() === "STOP") return true;
  return STOP_WORDS.has((body ?? "").trim().toUpperCase());
}

const text = (max: number) => z.string().trim().max(max, `At most ${max} characters`);

/** One customer as typed, pasted or sent by a field-service app. */
export const CustomerInput = z.object({
  name: text(120).min(1, "Enter the customer's name"),
  email: text(254).optional().nullable(),
  phone: text(40).optional().nullable(),
  jobId: text(120).optional().nullable(),
});
export type CustomerInput = z.infer<typeof CustomerInput>;

export const CreateRequestsBody = z.union([
  z.object({ customers: z.array(z.unknown()).min(1, "Add at least one customer").max(MAX_CUSTOMERS_PER_CALL, `At most ${MAX_CUSTOMERS_PER_CALL} customers at once`) }),
  z.object({ csv: z.string().min(1, "Paste or choose a CSV file").max(500_000, "The CSV is too large (500 KB at most)") }),
  CustomerInput,
]);

/** A customer the rules accept: a name and at least one way to reach them, normalised. */
export type ValidCustomer = { name: string; email: string | null; phone: string | null; jobId: string | null };
export type RowRefusal = { code: string; message: string };

export function checkCustomer(input: unknown): { ok: true; customer: ValidCustomer } | { ok: false; error: RowRefusal } {
  const parsed = CustomerInput.safeParse(input);
  if (!parsed.success) return { ok: false, error: { code: "invalid", message: parsed.error.issues[0]?.message ?? "Invalid customer" } };
  const { name, email: rawEmail, phone: rawPhone, jobId } = parsed.data;
  const email = rawEmail ? normalizeEmail(rawEmail) : null;
  const phone = rawPhone ? normalizePhoneE164(rawPhone) : null;
  if (rawEmail && !email) return { ok: false, error: { code: "invalid_email", message: "Email: enter a valid email address" } };
  if (rawPhone && !phone) return { ok: false, error: { code: "invalid_phone", message: "Phone: enter a valid mobile number" } };
  if (!email && !phone) return { ok: false, error: { code: "no_contact", message: "Add an email address or a mobile number" } };
  return { ok: true, customer: { name, email, phone, jobId: jobId || null } };
}

const HEADER_WORDS = /^(name|customer|first.?name|full.?name|email|e-mail|phone|mobile|cell|job|job.?id)$/i;

/**
 * One line of CSV: its cells (a quoted cell may hold commas and "" for a quote), or the reason it can't be read. A
 * quote left open is this line's problem alone: customers' names, addresses and numbers never span lines, so a stray
 * quote must not swallow the rows after it (issue 39).
 */
export function csvLine(line: string): { cells: string[] } | { error: RowRefusal } {
  const cells: string[] = [];
  let cell = "";
  let i = 0;
  let atStart = true;
  while (i < line.length) {
    const ch = line[i]!;
    if (atStart && ch === '"') {
      // A quoted cell: up to the closing quote, then whatever follows up to the comma.
      i += 1;
      let closed = false;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (line[i] === '"') {
          closed = true;
          i += 1;
          break;
        } else cell += line[i++];
      }
      if (!closed) return { error: { code: "unclosed_quote", message: "A quote (\") is opened and not closed on this row" } };
      atStart = false;
      continue;
    }
    if (ch === ",") {
      cells.push(cell);
      cell = "";
      atStart = true;
    } else {
      cell += ch;
      if (ch.trim() !== "") atStart = false;
    }
    i += 1;
  }
  cells.push(cell);
  return { cells: cells.map((c) => c.trim()) };
}

/**
 * Customers from CSV (or pasted lines): name, email, phone, job id. A header row names the columns (any order);
 * without one, the order is name, email, phone, job. Each row is read and checked on its own, numbered as the file's
 * lines: valid rows kept, bad ones (an open quote included) reported by their row number.
 */
export function customersFromCsv(csv: string): { rows: { row: number; customer: ValidCustomer }[]; errors: ({ row: number } & RowRefusal)[] } {
  const rows: { row: number; customer: ValidCustomer }[] = [];
  const errors: ({ row: number } & RowRefusal)[] = [];
  const lines = csv
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\r|\n/)
    .map((text, i) => ({ row: i + 1, read: csvLine(text) }))
    .filter(({ read }) => !("cells" in read) || read.cells.some((c) => c !== ""));
  let columns = { name: 0, email: 1, phone: 2, jobId: 3 };
  const first = lines[0]?.read;
  const head = first && "cells" in first ? first.cells : null;
  const hasHeader = Boolean(head && head.some((c) => HEADER_WORDS.test(c)) && !head.some((c) => c.includes("@")));
  if (head && hasHeader) {
    const find = (re: RegExp) => head.findIndex((c) => re.test(c));
    columns = { name: find(/name|customer/i), email: find(/mail/i), phone: find(/phone|mobile|cell/i), jobId: find(/job/i) };
  }
  for (const { row, read } of hasHeader ? lines.slice(1) : lines) {
    if ("error" in read) {
      errors.push({ row, ...read.error });
      continue;
    }
    const at = (index: number) => (index >= 0 ? (read.cells[index] ?? "") : "");
    const checked = checkCustomer({ name: at(columns.name), email: at(columns.email) || null, phone: at(columns.phone) || null, jobId: at(columns.jobId) || null });
    if (checked.ok) rows.push({ row, customer: checked.customer });
    else errors.push({ row, ...checked.error });
  }
  return { rows, errors };
}

/** The job-completed hook's body: what Jobber, Housecall Pro, ServiceTitan or a Zapier step sends. */
export const HookBody = z.object({
  name: text(120).optional(),
  first_name: text(60).optional(),
  last_name: text(60).optional(),
  email: text(254).optional().nullable(),
  phone: text(40).optional().nullable(),
  job_id: z.union([text(120), z.number().int()]).optional().nullable(),
});
export type HookBody = z.infer<typeof HookBody>;

export function customerFromHook(body: HookBody) {
  const name = body.name?.trim() || [body.first_name, body.last_name].filter(Boolean).join(" ").trim();
  return checkCustomer({ name, email: body.email ?? null, phone: body.phone ?? null, jobId: body.job_id === undefined || body.job_id === null ? null : String(body.job_id) });
}

const ruled = (max: number, kind: "template" | "subject") =>
  text(max).superRefine((value, ctx) => {
    const broken = messageRuleBroken(value, kind);
    if (broken) ctx.addIssue({ code: "custom", message: broken.message, params: { code: broken.code } });
  });

export const RequestSettingsBody = z.object({
  delayMinutes: z.number({ error: "Enter a number of minutes" }).int("Enter whole minutes").min(0, "Enter 0 or more minutes").max(MAX_DELAY_MINUTES, "At most 7 days (10080 minutes)"),
  emailSubject: ruled(150, "subject"),
  emailTemplate: ruled(2000, "template"),
  smsTemplate: ruled(300, "template"),
  quietStart: z.string().regex(HHMM, "Enter a time like 20:00"),
  quietEnd: z.string().regex(HHMM, "Enter a time like 08:00"),
  smsEnabled: z.boolean(),
  placeId: z
    .string()
    .trim()
    .refine((v) => v === "" || PLACE_ID.test(v), "A Google place ID looks like ChIJ… (letters, digits, - and _ only)"),
});
export type RequestSettingsBody = z.infer<typeof RequestSettingsBody>;

/** The settings form's labels: the API's messages name a field by these words, never by its key. */
export const REQUEST_SETTINGS_LABELS: Record<keyof RequestSettingsBody, string> = {
  delayMinutes: "Send after",
  emailSubject: "Email subject",
  emailTemplate: "Email message",
  smsTemplate: "Text message",
  quietStart: "Quiet from",
  quietEnd: "Until",
  smsEnabled: "Send by text message",
  placeId: "Google place ID",
};

/** What GET /api/review-requests/settings answers (the hook's token itself is shown only when it is made). */
/** Where the review link's Google place id came from: typed by the owner, the connected Business Profile, an audit. */
export type PlaceIdSource = "settings" | "google" | "audit";

export type RequestSettingsView = RequestSettingsBody & {
  hookConfigured: boolean;
  hookCreatedAt: string | null;
  /** The place id the link uses and where it came from. */
  effectivePlaceId: string | null;
  placeIdSource: PlaceIdSource | null;
  timeZone: string;
  smsAvailable: boolean;
  defaults: { emailSubject: string; emailTemplate: string; smsTemplate: string };
};

export type ReviewRequestView = {
  id: string;
  customerName: string;
  email: string | null;
  phone: string | null;
  channel: "email" | "sms";
  source: "manual" | "csv" | "hook";
  status: ReviewRequestStatus;
  dueAt: string;
  sentAt: string | null;
  deliveredAt: string | null;
  openedAt: string | null;
  reminderSentAt: string | null;
  lastError: string | null;
  createdAt: string;
};

export type RequestFigures = { total: number; scheduled: number; sent: number; delivered: number; opened: number; failed: number; optedOut: number };

export type RowResult = { row: number; ok: true; id: string; status: ReviewRequestStatus; dueAt: string } | ({ row: number; ok: false } & RowRefusal);

/** The share of sent requests whose link was opened, as a whole percentage (null before any was sent). */
export function openRate(figures: Pick<RequestFigures, "sent" | "delivered" | "opened">): number | null {
  const sent = figures.sent + figures.delivered + figures.opened;
  return sent === 0 ? null : Math.round((figures.opened / sent) * 100);
}

/** How far back the request → review match looks (requests sent in the last 180 days). */
export const LIKELY_REVIEW_LOOKBACK_DAYS = 180;

/** Reviews that followed requests, matched by name and time: always "likely", never certain. */
export type LikelyReviews = { count: number; requestIds: string[]; lookbackDays: number };

/** The share of opened requests followed by a likely review, as a whole percentage (null before any was opened). */
export function reviewRate(opened: number, likely: number): number | null {
  return opened === 0 ? null : Math.min(100, Math.round((likely / opened) * 100));
}

/**
 * Reviews that likely followed a request (GET /api/review-requests matches the inbox's stored reviews): the reviewer's name
 * matches the customer's (first name, and the last initial when both give one) and the review came within 14 days
 * after the request was sent. Google does not say who a reviewer is, so a match is only ever "likely".
 */
export function likelyReviewsForRequests<R extends { id: string; reviewerName: string; createdAt: string }>(
  requests: { id: string; customerName: string; sentAt: string | null }[],
  reviews: R[],
): { requestId: string; reviewId: string; label: "likely" }[] {
  const WINDOW_MS = 14 * 86_400_000;
  const parts = (name: string) => name.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const out: { requestId: string; reviewId: string; label: "likely" }[] = [];
  const taken = new Set<string>();
  for (const request of requests) {
    if (!request.sentAt) continue;
    const sent = new Date(request.sentAt).getTime();
    const [first, ...rest] = parts(request.customerName);
    const lastInitial = rest.at(-1)?.[0];
    const match = reviews.find((review) => {
      if (taken.has(review.id)) return false;
      const at = new Date(review.createdAt).getTime();
      if (!(at >= sent && at - sent <= WINDOW_MS)) return false;
      const [rf, ...rr] = parts(review.reviewerName);
      const rInitial = rr.at(-1)?.[0];
      return rf === first && (!lastInitial || !rInitial || rInitial === lastInitial);
    });
    if (match) {
      taken.add(match.id);
      out.push({ requestId: request.id, reviewId: match.id, label: "likely" });
    }
  }
  return out;
}
