// One template per kind of mail: subject, plain-text and HTML parts with the agency's brand (its name, accent colour,
// contact details and footer line; Porchlight's while none is set), the link, when it expires and what to do if it was not you.
import { DEFAULT_BRAND, DEFAULT_BRAND_NAME, type Brand } from "../brand/rules/brand";

/** The product's own name (the brand's default); templates take the brand's name instead (see templatesFor). */
export const PRODUCT_NAME = DEFAULT_BRAND_NAME;

export type MailKind = "confirm_signup" | "reset_password" | "email_change" | "gbp_post_due" | "rank_alerts" | "widget_report_ready" | "lead_alert" | "alert_digest" | "attention_digest" | "client_invite" | "webhook_paused" | "review_alert" | "review_digest" | "client_report" | "client_report_recipient";

export interface MailInput {
  /** The address the message goes to. */
  to: string;
  /** The one-time link, built on APP_ORIGIN. */
  link: string;
  /** What the message is about when its kind needs it (a due post: when it was scheduled). */
  detail?: string;
  /** A second link when the kind has one (the monthly report's PDF). */
  secondaryLink?: string;
  /** The message's own subject and heading when its kind has one (the monthly report: its month and business). */
  title?: string;
  /** This recipient's own unsubscribe link (the monthly report): shown at the foot of both parts. */
  unsubscribeLink?: string;
  /** Figures shown as a row under the intro (the monthly report's three headline figures). */
  figures?: { label: string; value: string; change: string | null }[];
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface Template {
  subject: string | ((input: MailInput) => string);
  heading: string | ((input: MailInput) => string);
  /** What happened, in one or two sentences. */
  intro: (input: MailInput) => string;
  action: string;
  expires: string | ((input: MailInput) => string);
  notYou: string;
}

/** What a mail shows of the brand. */
export type MailBrand = Pick<Brand, "name" | "accentColor" | "website" | "supportEmail" | "supportPhone" | "footerLine">;

/** The mail's buttons and links when the brand has no accent colour. */
const DEFAULT_MAIL_ACCENT = "#1d4ed8";

/**
 * The kinds later issues add (notifications) register here with the same fields, naming the product as
 * `${PRODUCT_NAME}` — the agency's name once a brand is set (tests/worker/brand/brand-everywhere.test.ts renders every kind).
 */
const templatesFor = (PRODUCT_NAME: string): Record<MailKind, Template> => ({
  confirm_signup: {
    subject: `Confirm your ${PRODUCT_NAME} email address`,
    heading: `Welcome to ${PRODUCT_NAME}`,
    intro: ({ to }) => `Confirm that ${to} is your email address to finish setting up your account.`,
    action: "Confirm email address",
    expires: "This link expires in 24 hours and works once.",
    notYou: "If you did not sign up, ignore this message: no account is confirmed without the link.",
  },
  reset_password: {
    subject: `Reset your ${PRODUCT_NAME} password`,
    heading: "Reset your password",
    intro: ({ to }) => `Someone asked to reset the password for ${to}. Open the link to choose a new password.`,
    action: "Choose a new password",
    expires: "This link expires in 1 hour and works once.",
    notYou: "If it was not you, ignore this message: your password stays as it is.",
  },
  email_change: {
    subject: `Confirm your new ${PRODUCT_NAME} email address`,
    heading: "Confirm your new email address",
    intro: ({ to }) => `Someone asked to sign in to ${PRODUCT_NAME} with ${to} from now on. Open the link to confirm the change.`,
    action: "Confirm new email address",
    expires: "This link expires in 24 hours and works once.",
    notYou: "If it was not you, ignore this message: nothing changes.",
  },
  gbp_post_due: {
    subject: "Your Google Business Profile post is due",
    heading: "Time to post on Google",
    intro: ({ detail }) =>
      `The Google Business Profile post you scheduled${detail ? ` for ${detail}` : ""} is due. Google Business Profile is not connected, so ${PRODUCT_NAME} cannot publish it for you: open the scheduler, copy the post and add it on your listing.`,
    action: "Open the GMB Post Scheduler",
    expires: "The post stays in your scheduler until you delete it.",
    notYou: "You get this because a post was scheduled in your account. Connect Google Business Profile on the Integrations page and posts are published for you.",
  },
  rank_alerts: {
    subject: "Your tracked keywords moved",
    heading: "Rank alerts",
    intro: ({ detail }) => `Since your last digest, these tracked keywords dropped 3 or more places or left the top 3 of the map pack:\n${detail ?? ""}`,
    action: "Open the Local Rank Tracker",
    expires: "You get at most one digest a day; the tracker shows every check.",
    notYou: "You get this because you track keywords in your account. Pause or delete a keyword in the Local Rank Tracker to stop its alerts.",
  },
  widget_report_ready: {
    subject: "Your free business audit is ready",
    heading: "Your free audit is ready",
    // `detail` is the agency's own name (its profile), never what the visitor typed: a form anyone can fill must not
    // put a stranger's words in the inbox of the address they entered.
    intro: ({ detail }) =>
      `Thanks for asking for a free business audit${detail ? ` from ${detail}` : ""}. It looked at the Google listing, the website and where the business ranks, and wrote up what to fix first.`,
    action: "Open your report",
    expires: "The link keeps working: bookmark it or share it with your team.",
    notYou: "You get this because your email address was entered in a free-audit form. If it was not you, ignore this message.",
  },
  lead_alert: {
    subject: "A prospect is ready to talk",
    heading: "A new lead",
    intro: ({ detail }) => `${detail ?? "A prospect left their contact details"}. Open their report in ${PRODUCT_NAME} to follow up while it is fresh.`,
    action: "Open the prospect's report",
    expires: "The alert stays in the bell in the app until you mark it read.",
    notYou: "You get this because alerts by mail are on for this kind. Change which alerts you get by mail under Account settings.",
  },
  review_alert: {
    subject: "A customer left a low Google review",
    heading: "A review that needs you",
    intro: ({ detail }) => `${detail ?? "A customer left a Google review of 1–3 stars"}. A quick, calm reply that takes it offline shows other customers you care. A draft is waiting in ${PRODUCT_NAME}.`,
    action: "Open your reviews",
    expires: "The review stays in your inbox until you answer it.",
    notYou: "You get this because review alerts by mail are on. Change which alerts you get by mail under Account settings.",
  },
  review_digest: {
    subject: "New Google reviews",
    heading: "New reviews of your business",
    intro: ({ detail }) => detail ?? "Customers left new Google reviews.",
    action: "Open your reviews",
    expires: "At most one of these digests is sent an hour; every alert is also in the bell in the app.",
    notYou: "You get this because review alerts by mail are on. Change which alerts you get by mail under Account settings.",
  },
  alert_digest: {
    subject: "Your prospects' activity",
    heading: "What your prospects did",
    intro: ({ detail }) => detail ?? "Your prospects opened and read their reports.",
    action: "Open the prospect's report",
    expires: "At most one of these digests is sent an hour; every alert is also in the bell in the app.",
    notYou: "You get this because alerts by mail are on. Change which alerts you get by mail under Account settings.",
  },
  client_invite: {
    subject: ({ title }) => `Your ${PRODUCT_NAME} account for ${title ?? "your business"}`,
    heading: "Your account is ready to set up",
    // `title` is the business's name as the agency has it.
    intro: ({ title }) =>
      `We set up ${PRODUCT_NAME} for ${title ?? "your business"}: your reviews, your Google profile, your local rankings and a monthly report of your results, in one place. Create your account with this address to start; your business details are filled in for you.`,
    action: "Create your account",
    expires: "The link opens the sign-up page; your account is set up once you confirm this address.",
    notYou: "If you were not expecting this, ignore this message: no account is made without you.",
  },
  attention_digest: {
    subject: "What needs doing for your clients today",
    heading: "New in the attention queue",
    intro: ({ detail }) => detail ?? "New items need a person in the attention queue.",
    action: "Open the attention queue",
    expires: "This digest comes once a day, at 8 in the morning; every item is also in the bell and the attention queue in the app.",
    notYou: "You get this because attention alerts by mail are on. Change which alerts you get by mail under Account settings.",
  },
  webhook_paused: {
    subject: "A webhook endpoint was paused",
    heading: "A webhook endpoint was paused",
    intro: ({ detail }) => `${detail ?? "A webhook endpoint"} failed every delivery for a day, so ${PRODUCT_NAME} paused it. Fix the receiver, then resume the endpoint on the Integrations page; failed deliveries can be replayed from its log.`,
    action: "Open Integrations",
    expires: "No events are sent to a paused endpoint until it is resumed.",
    notYou: "You get this because you added this endpoint.",
  },
  client_report: {
    subject: ({ title }) => title ?? "Your monthly results report",
    heading: ({ title }) => title ?? "Your monthly results report",
    intro: ({ detail }) => detail ?? "Your monthly results report is ready.",
    action: "Open the report",
    expires: ({ secondaryLink }) => (secondaryLink ? `A PDF copy to keep or print: ${secondaryLink}` : "The report stays at this link."),
    notYou: `You get this because your address is on this business's monthly report from ${PRODUCT_NAME}. Use the unsubscribe link below to stop getting it.`,
  },
  client_report_recipient: {
    subject: ({ title }) => `Confirm that you want ${title ?? "a business"}'s monthly report`,
    heading: "Confirm your address",
    // `title` is the business's name as its account holder set it; `detail` who asked (their account's address).
    intro: ({ to, title, detail }) =>
      `${detail ?? "Someone"} asked for ${title ?? "a business"}'s monthly results report from ${PRODUCT_NAME} to be mailed to ${to} each month. Confirm and you will get it; until then nothing is sent to this address.`,
    action: "Confirm and get the reports",
    expires: "The link works until it is used or the address is removed from the report.",
    notYou: "If you do not know them or do not want the report, ignore this message: no report is mailed to you without your confirmation.",
  },
});

/** Every kind, for callers (and tests) that go through them all. */
export const MAIL_KINDS = Object.keys(templatesFor(PRODUCT_NAME)) as MailKind[];

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}

/** The brand's contact line under every mail: website, support email and phone, when set. */
function contactLine(brand: MailBrand): string {
  return [brand.website, brand.supportEmail, brand.supportPhone].filter(Boolean).join(" · ");
}

/** The message of `kind` for `input`, branded: both parts say the same things. */
export function renderMail(kind: MailKind, input: MailInput, brand: MailBrand = DEFAULT_BRAND): RenderedMail {
  const t = templatesFor(brand.name)[kind];
  const accent = brand.accentColor ?? DEFAULT_MAIL_ACCENT;
  const intro = t.intro(input);
  const subject = typeof t.subject === "function" ? t.subject(input) : t.subject;
  const heading = typeof t.heading === "function" ? t.heading(input) : t.heading;
  const figures = (input.figures ?? []).slice(0, 3);
  const figureLines = figures.map((f) => `${f.label}: ${f.value}${f.change ? ` — ${f.change}` : ""}`);
  const figureCells = figures
    .map(
      (f) =>
        `<td style="padding:12px;border:1px solid #e5e7eb;border-radius:8px;vertical-align:top;width:${Math.floor(100 / figures.length)}%"><div style="font-size:13px;color:#4b5563">${escapeHtml(f.label)}</div><div style="font-size:22px;font-weight:700;margin:4px 0">${escapeHtml(f.value)}</div>${f.change ? `<div style="font-size:13px;color:#4b5563">${escapeHtml(f.change)}</div>` : ""}</td>`,
    )
    .join("");
  const expires = typeof t.expires === "function" ? t.expires(input) : t.expires;
  const contact = contactLine(brand);
  const signature = [`— ${brand.name}`, contact, brand.footerLine].filter(Boolean) as string[];
  const unsubscribe = input.unsubscribeLink ? `Unsubscribe: ${input.unsubscribeLink}` : null;
  const text = [heading, "", intro, "", ...(figureLines.length ? [...figureLines, ""] : []), `${t.action}:`, input.link, "", expires, "", t.notYou, ...(unsubscribe ? [unsubscribe] : []), "", ...signature, ""].join("\n");
  const link = escapeHtml(input.link);
  const p = (s: string, style = "margin:0 0 16px") => `<p style="${style}">${escapeHtml(s)}</p>`;
  const html = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>`,
    `<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#1f2937;line-height:1.5">`,
    `<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">`,
    `<p style="margin:0 0 24px;font-weight:700;font-size:18px;color:${accent}">${escapeHtml(brand.name)}</p>`,
    `<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(heading)}</h1>`,
    p(intro),
    ...(figures.length ? [`<table role="presentation" style="width:100%;border-collapse:separate;border-spacing:6px;margin:0 -6px 18px"><tr>${figureCells}</tr></table>`] : []),
    `<p style="margin:0 0 24px"><a href="${link}" style="display:inline-block;background:${accent};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(t.action)}</a></p>`,
    p(expires, "margin:0 0 16px;font-size:14px;color:#4b5563"),
    `<p style="margin:0 0 16px;font-size:14px;color:#4b5563">If the button does not work, open this address: <a href="${link}" style="color:${accent};word-break:break-all">${link}</a></p>`,
    p(t.notYou, "margin:0;font-size:14px;color:#4b5563"),
    ...(input.unsubscribeLink ? [`<p style="margin:12px 0 0;font-size:14px;color:#4b5563"><a href="${escapeHtml(input.unsubscribeLink)}" style="color:${accent}">Unsubscribe from this report</a></p>`] : []),
    `</div>`,
    ...[contact, brand.footerLine].filter(Boolean).map((line) => p(line!, "margin:16px auto 0;max-width:520px;text-align:center;font-size:13px;color:#6b7280")),
    `</body></html>`,
  ].join("");
  return { subject, text, html };
}
