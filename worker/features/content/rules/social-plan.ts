// The Social Plan's rules (issue 20): a month of posts for the chosen networks and posts per week — themes by trade,
// season and area, one idea per day — and its exchange formats: ICS (the calendar subscription) and CSV both ways.
import { z } from "zod";
import { toCsv } from "../../../domain/csv";
import {
  businessFacts,
  businessPromptLines,
  JSON_RULES,
  modelList,
  modelText,
  networksField,
  parseModelJson,
  topicField,
  type BusinessFacts,
  type ContentBusiness,
  type ContentRules,
} from "./content";
import { NETWORK_LABELS, NETWORKS, shortenToLimit, type Network } from "./length";

export const IDEA_MAX = 280;
export const THEME_MAX = 120;
export const PLAN_DAYS_MAX = 100;

const monthField = z
  .string()
  .trim()
  .regex(/^(\d{4}-(0[1-9]|1[0-2]))?$/, { message: "Use a month like 2026-12" })
  .default("");

export const SocialPlanRequest = z.object({
  /** yyyy-mm; the current month when empty. */
  month: monthField,
  networks: networksField,
  postsPerWeek: z.number().int().min(1).max(7).default(3),
  focus: topicField,
});
export type SocialPlanRequestInput = z.input<typeof SocialPlanRequest>;
export type SocialPlanRequest = z.output<typeof SocialPlanRequest>;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), { message: "Not a real date" });
export const PlanDay = z.object({
  id: z.string().min(1).max(40),
  date: isoDate,
  network: z.enum(NETWORKS),
  theme: z.string().trim().max(THEME_MAX),
  idea: z.string().trim().min(1).max(IDEA_MAX * 2),
});
export type PlanDay = z.infer<typeof PlanDay>;
export const SocialPlan = z.object({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/),
  themes: z.array(z.object({ week: z.number().int().min(1).max(6), theme: z.string().trim().min(1).max(THEME_MAX) })).max(6),
  days: z.array(PlanDay).max(PLAN_DAYS_MAX),
});
export type SocialPlan = z.infer<typeof SocialPlan>;

/** Which weekdays (0 = Sunday) carry a post, by posts per week. */
export const POSTING_DAYS: Record<number, number[]> = {
  1: [2],
  2: [2, 4],
  3: [1, 3, 5],
  4: [1, 2, 4, 5],
  5: [1, 2, 3, 4, 5],
  6: [1, 2, 3, 4, 5, 6],
  7: [0, 1, 2, 3, 4, 5, 6],
};

export function planMonth(req: SocialPlanRequest, now: Date): string {
  return req.month || now.toISOString().slice(0, 7);
}

export function daysInMonth(month: string): number {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Week of the month (1-based, weeks start on Monday) a date falls in. */
export function weekOfMonth(date: string): number {
  const first = new Date(`${date.slice(0, 7)}-01T00:00:00Z`);
  const offset = (first.getUTCDay() + 6) % 7; // Monday = 0
  return Math.floor((Number(date.slice(8, 10)) - 1 + offset) / 7) + 1;
}

export type PlanSlot = { date: string; network: Network; week: number };

/** The month's posting slots: the weekdays for the posts per week, networks taken in turn. */
export function planSlots(month: string, networks: readonly Network[], postsPerWeek: number): PlanSlot[] {
  const weekdays = POSTING_DAYS[postsPerWeek] ?? POSTING_DAYS[3]!;
  const slots: PlanSlot[] = [];
  for (let day = 1; day <= daysInMonth(month); day += 1) {
    const date = `${month}-${String(day).padStart(2, "0")}`;
    if (!weekdays.includes(new Date(`${date}T00:00:00Z`).getUTCDay())) continue;
    slots.push({ date, network: networks[slots.length % networks.length]!, week: weekOfMonth(date) });
  }
  return slots;
}

export type Season = "winter" | "spring" | "summer" | "autumn";
/** The season of a month, northern hemisphere (the product's businesses are in the US). */
export function seasonOf(month: string): Season {
  const m = Number(month.slice(5, 7));
  return m <= 2 || m === 12 ? "winter" : m <= 5 ? "spring" : m <= 8 ? "summer" : "autumn";
}

const SEASON_THEMES: Record<Season, ((f: BusinessFacts) => string)[]> = {
  winter: [
    (f) => `Winter-ready homes in ${f.area}`,
    (f) => `Cold-weather ${f.trade.toLowerCase()} tips`,
    (f) => `Behind the scenes at ${f.name}`,
    () => "Holiday thanks to our customers",
    () => "Plan your spring projects early",
  ],
  spring: [
    (f) => `Spring check-ups for ${f.area} homes`,
    (f) => `${f.trade} before and after`,
    (f) => `Meet the ${f.name} team`,
    () => "Customer stories",
    () => "Get ready for summer",
  ],
  summer: [
    (f) => `Summer ${f.trade.toLowerCase()} care`,
    (f) => `Projects around ${f.area}`,
    () => "Questions we hear every week",
    (f) => `Why neighbours choose ${f.name}`,
    () => "Beat the autumn rush",
  ],
  autumn: [
    (f) => `Autumn prep for ${f.area} homes`,
    (f) => `${f.trade} myths, busted`,
    (f) => `A day in the life at ${f.name}`,
    () => "Thank-you stories from customers",
    () => "Winter is coming: book early",
  ],
};

/** The month's weekly themes by trade, season and area (the template's, and the prompt's suggestion). */
export function templateThemes(business: ContentBusiness, month: string, focus = ""): { week: number; theme: string }[] {
  const f = businessFacts(business);
  const weeks = weekOfMonth(`${month}-${String(daysInMonth(month)).padStart(2, "0")}`);
  const list = SEASON_THEMES[seasonOf(month)];
  return Array.from({ length: weeks }, (_, i) => ({
    week: i + 1,
    theme: shortenToLimit(i === 0 && focus ? focus : list[i % list.length]!(f), THEME_MAX).text,
  }));
}

const IDEA_KINDS: ((f: BusinessFacts, theme: string, network: string) => string)[] = [
  (f, theme, network) => `${theme}: share a photo from a recent ${f.trade.toLowerCase()} job and one thing the homeowner should know (${network}).`,
  (f, theme) => `${theme}: a quick tip in three steps that saves ${f.area} homeowners money.`,
  (f, theme) => `${theme}: ask followers which ${f.trade.toLowerCase()} question they want answered next.`,
  (f, theme) => `${theme}: a short customer story, with their permission, and what ${f.name} did.`,
  (f, theme) => `${theme}: introduce a team member and what they love about their work in ${f.area}.`,
  (f, theme) => `${theme}: remind neighbours to book early, with a clear way to reach ${f.name}.`,
];

function templateIdea(f: BusinessFacts, theme: string, network: Network, index: number): string {
  return shortenToLimit(IDEA_KINDS[index % IDEA_KINDS.length]!(f, theme, NETWORK_LABELS[network]), IDEA_MAX).text;
}

export function templatePlan(business: ContentBusiness, req: SocialPlanRequest, now: Date): SocialPlan {
  const month = planMonth(req, now);
  const themes = templateThemes(business, month, req.focus);
  const f = businessFacts(business);
  const days = planSlots(month, req.networks, req.postsPerWeek).map((slot, i) => {
    const theme = themes.find((t) => t.week === slot.week)?.theme ?? themes[0]!.theme;
    return { id: `d${i + 1}`, date: slot.date, network: slot.network, theme, idea: templateIdea(f, theme, slot.network, i) };
  });
  return { month, themes, days };
}

export function buildPlanPrompt(business: ContentBusiness, req: SocialPlanRequest, findings: Parameters<typeof businessPromptLines>[1], now: Date): string {
  const month = planMonth(req, now);
  const slots = planSlots(month, req.networks, req.postsPerWeek);
  const weeks = templateThemes(business, month).length;
  return [
    ...businessPromptLines(business, findings),
    `Plan a month of social media posts for ${month} (${seasonOf(month)}).`,
    `Focus: ${req.focus || "the season and the business's services in its area"}`,
    `Give one theme for each of the ${weeks} weeks, tied to the trade, the season and the area.`,
    "Then one post idea per slot below, fitting its week's theme and its network (one or two sentences).",
    ...slots.map((s, i) => `${i + 1}. ${s.date} week ${s.week} ${NETWORK_LABELS[s.network]}`),
    "",
    JSON_RULES,
    `Fields: themes (an array of ${weeks} strings, week 1 first) and ideas (an array of {slot, idea}, slot being the number above).`,
  ].join("\n");
}

const ModelPlan = z.object({
  themes: modelList(6),
  ideas: z
    .array(z.object({ slot: z.coerce.number().int(), idea: modelText(IDEA_MAX) }).catch({ slot: 0, idea: undefined }))
    .optional()
    .catch(undefined),
});

export const socialPlanRules: ContentRules<SocialPlanRequest, SocialPlan> = {
  tool: "social-plan",
  request: SocialPlanRequest,
  result: SocialPlan,
  maxTokens: 3000,
  temperature: 0.8,
  prompt: buildPlanPrompt,
  fromAnswer(content, business, req, now) {
    const answer = parseModelJson(content, ModelPlan);
    if (!answer.ok) return answer;
    const template = templatePlan(business, req, now);
    const ideas = new Map((answer.value.ideas ?? []).filter((i) => i.idea).map((i) => [i.slot, i.idea!]));
    // Fewer than half the slots filled is not a plan: the answer is unusable (the engine retries once).
    if (ideas.size < Math.ceil(template.days.length / 2)) return { ok: false, message: "The answer has too few post ideas" };
    const themes = template.themes.map((t, i) => ({ week: t.week, theme: answer.value.themes?.[i] ? shortenToLimit(answer.value.themes[i]!, THEME_MAX).text : t.theme }));
    const days = template.days.map((day, i) => {
      const theme = themes.find((t) => t.week === weekOfMonth(day.date))?.theme ?? day.theme;
      return { ...day, theme, idea: ideas.get(i + 1) ?? day.idea };
    });
    return { ok: true, value: { month: template.month, themes, days } };
  },
  template: templatePlan,
  enforce(plan) {
    let cut = 0;
    const days = plan.days.map((day) => {
      const fitted = shortenToLimit(day.idea, IDEA_MAX);
      if (fitted.shortened) cut += 1;
      return { ...day, idea: fitted.text };
    });
    return { result: { ...plan, days }, notes: cut ? [`${cut} post idea${cut === 1 ? " was" : "s were"} shortened on a sentence boundary to ${IDEA_MAX} characters.`] : [] };
  },
  title(plan, req) {
    const name = new Date(`${plan.month}-01T00:00:00Z`).toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
    return `${name} · ${plan.days.length} posts · ${req.networks.map((n) => NETWORK_LABELS[n]).join(", ")}`;
  },
};

/** Moves a day's post to another date (drag, or the keyboard's earlier/later buttons); days keep date order. */
export function moveDay(plan: SocialPlan, dayId: string, date: string): SocialPlan {
  const days = plan.days.map((d) => (d.id === dayId ? { ...d, date } : d));
  return { ...plan, days: [...days].sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id)) };
}

// ---- CSV (export and import) ----

export const PLAN_CSV_HEADER = ["date", "network", "theme", "idea"] as const;

export function planToCsv(plan: SocialPlan): string {
  return toCsv([PLAN_CSV_HEADER, ...plan.days.map((d) => [d.date, NETWORK_LABELS[d.network], d.theme, d.idea])]);
}

/** RFC 4180 rows: quoted cells with "" escapes, commas, CRLF or LF line ends. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const src = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < src.length; i += 1) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && src[i + 1] === "\n") i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += ch;
  }
  if (cell !== "" || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => r.some((c) => c.trim() !== ""));
}

function networkFrom(text: string): Network | null {
  const key = text.trim().toLowerCase().replace(/[\s_]+/g, "-");
  const byLabel = NETWORKS.find((n) => NETWORK_LABELS[n].toLowerCase().replace(/\s+/g, "-") === key);
  if (byLabel) return byLabel;
  if (key === "twitter") return "x";
  if (key === "google" || key === "gbp" || key === "google-business-profile") return "google-business";
  return (NETWORKS as readonly string[]).includes(key) ? (key as Network) : null;
}

/** A formula-defused cell ('=…) read back as it was written. */
function undefuse(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

export type CsvImport = { days: PlanDay[]; errors: { row: number; message: string }[] };

/**
 * Reads planned posts from CSV (date, network, idea, and optionally theme; the header names the columns, else the
 * export's order is assumed). Each row is checked on its own: valid rows are kept, each bad one reported by row number.
 */
export function planFromCsv(text: string, startId = 1): CsvImport {
  const rows = parseCsv(text).map((r) => r.map((c) => undefuse(c.trim())));
  const errors: CsvImport["errors"] = [];
  const days: PlanDay[] = [];
  if (!rows.length) return { days, errors: [{ row: 1, message: "The file has no rows" }] };
  const first = rows[0]!.map((c) => c.toLowerCase());
  const hasHeader = first.includes("date") && first.includes("idea");
  const col = (name: string, fallback: number) => (hasHeader ? first.indexOf(name) : fallback);
  const at = { date: col("date", 0), network: col("network", 1), theme: col("theme", 2), idea: col("idea", 3) };
  rows.slice(hasHeader ? 1 : 0).forEach((cells, i) => {
    const rowNumber = i + (hasHeader ? 2 : 1);
    const get = (k: keyof typeof at) => (at[k] >= 0 ? (cells[at[k]] ?? "") : "");
    const network = networkFrom(get("network"));
    const candidate = { id: `i${startId + days.length}`, date: get("date"), network, theme: shortenToLimit(get("theme"), THEME_MAX).text, idea: get("idea") };
    if (days.length >= PLAN_DAYS_MAX) return errors.push({ row: rowNumber, message: `A plan holds at most ${PLAN_DAYS_MAX} posts` });
    if (!network) return errors.push({ row: rowNumber, message: `Unknown network "${get("network")}" (use ${NETWORKS.map((n) => NETWORK_LABELS[n]).join(", ")})` });
    const parsed = PlanDay.safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[0] ?? "row");
      return errors.push({ row: rowNumber, message: field === "date" ? `"${get("date")}" is not a date like 2026-12-01` : field === "idea" ? (get("idea") ? `The idea is longer than ${IDEA_MAX * 2} characters` : "The idea is empty") : `${field}: ${issue.message}` });
    }
    days.push(parsed.data);
  });
  return { days, errors };
}

// ---- ICS (RFC 5545): the calendar subscription ----

function icsText(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");
}

/** Folds a content line at 75 octets (RFC 5545 §3.1), never inside a UTF-8 character. */
export function foldIcsLine(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = "";
  let size = 0;
  for (const ch of line) {
    const n = encoder.encode(ch).length;
    if (size + n > (parts.length ? 74 : 75)) {
      parts.push(current);
      current = "";
      size = 0;
    }
    current += ch;
    size += n;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

const compact = (date: string) => date.replace(/-/g, "");

/** The plan as an iCalendar feed: one all-day event per post. `stamp` is when the plan last changed. */
export function planToIcs(plan: SocialPlan, opts: { planId: string; name: string; stamp: string }): string {
  const dtstamp = opts.stamp.replace(/[-:]/g, "").replace(/\.\d+/, "").slice(0, 15) + "Z";
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Porchlight//Social Plan//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${icsText(opts.name)}`,
  ];
  for (const day of plan.days) {
    const next = new Date(`${day.date}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    lines.push(
      "BEGIN:VEVENT",
      `UID:${opts.planId}-${day.id}@porchlight`,
      `DTSTAMP:${dtstamp}`,
      `DTSTART;VALUE=DATE:${compact(day.date)}`,
      `DTEND;VALUE=DATE:${compact(next.toISOString().slice(0, 10))}`,
      `SUMMARY:${icsText(`${NETWORK_LABELS[day.network]}: ${shortenToLimit(day.idea, 80).text}`)}`,
      `DESCRIPTION:${icsText(`${day.theme ? `Theme: ${day.theme}\n\n` : ""}${day.idea}`)}`,
      `CATEGORIES:${icsText(NETWORK_LABELS[day.network])}`,
      "TRANSP:TRANSPARENT",
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return lines.map(foldIcsLine).join("\r\n") + "\r\n";
}

/** The generator a plan's day opens in, with the idea filled in. */
export function generatorLink(day: Pick<PlanDay, "network" | "idea">): string {
  const idea = encodeURIComponent(day.idea);
  if (day.network === "google-business") return `/tools/gmb-post-generator?topic=${idea}`;
  return `/tools/social-post-generator?idea=${idea}&network=${day.network}`;
}
