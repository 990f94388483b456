// The Google profile guard's field rules (issue 41): each guarded field of a Google Business Profile location as a
// person reads it, and whether two values are the same once normalised (a phone's format, a trailing slash, "Suite 300"
// vs "#300", hours listed in another order are not changes). Pure: the worker (which checks) and the web (which shows).
import { GUARDED_FIELDS, type GbpCategory, type GbpLocationFields, type GbpPostalAddress, type GbpTimeOfDay, type GbpTimePeriod, type GuardedField } from "../../../platform/providers/rules/gbp-location";
import { normalizeAddress, normalizePhone } from "../../../domain/nap";

const DAYS = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"] as const;
const DAY_SHORT = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;
const DAY_MINUTES = 24 * 60;
const WEEK_MINUTES = 7 * DAY_MINUTES;

/** How a person reads the field's value ("" when it has none; the screens show "(none)"). */
export function fieldText(field: GuardedField, fields: GbpLocationFields): string {
  switch (field) {
    case "title":
      return (fields.title ?? "").trim();
    case "phoneNumbers":
      return phoneList(fields).join(", ");
    case "websiteUri":
      return (fields.websiteUri ?? "").trim();
    case "storefrontAddress":
      return addressText(fields.storefrontAddress);
    case "regularHours":
      return hoursText(fields.regularHours?.periods ?? []);
    case "categories":
      return categoryList(fields).map(categoryLabel).join(", ");
    case "profile":
      return (fields.profile?.description ?? "").trim();
  }
}

/** Whether the field has the same value on both sides, normalised (an absent value and an empty one are the same). */
export function sameFieldValue(field: GuardedField, a: GbpLocationFields, b: GbpLocationFields): boolean {
  return fieldKey(field, a) === fieldKey(field, b);
}

/** The guarded fields `after` has (in GUARDED_FIELDS order) whose values differ from `before`'s. */
export function changedFields(before: GbpLocationFields, after: GbpLocationFields): GuardedField[] {
  return GUARDED_FIELDS.filter((field) => after[field] !== undefined && !sameFieldValue(field, before, after));
}

/** Only the named fields (those `fields` has), as a patch body or a stored value carries them. */
export function pickFields(fields: GbpLocationFields, which: readonly GuardedField[]): GbpLocationFields {
  const picked: Record<string, unknown> = {};
  for (const field of which) {
    if (fields[field] !== undefined) picked[field] = fields[field];
  }
  return picked as GbpLocationFields;
}

/** A category's name for people: its displayName, else the id after `gcid:` ("gcid:roofing_contractor" → "Roofing contractor"). */
export function categoryLabel(category: GbpCategory): string {
  const shown = category.displayName?.trim();
  if (shown) return shown;
  const id = category.name.includes("gcid:") ? category.name.slice(category.name.lastIndexOf("gcid:") + 5) : category.name.split("/").pop() ?? "";
  const words = id.replace(/[_-]+/g, " ").replace(/\s+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// ---- reading ----

function phoneList(fields: GbpLocationFields): string[] {
  const phones = fields.phoneNumbers;
  return [phones?.primaryPhone, ...(phones?.additionalPhones ?? [])].map((p) => (p ?? "").trim()).filter(Boolean);
}

function categoryList(fields: GbpLocationFields): GbpCategory[] {
  const categories = fields.categories;
  return [categories?.primaryCategory, ...(categories?.additionalCategories ?? [])].filter((c): c is GbpCategory => !!c?.name);
}

function addressText(address: GbpPostalAddress | undefined): string {
  if (!address) return "";
  const lines = (address.addressLines ?? []).map((l) => l.trim()).filter(Boolean);
  const areaZip = [address.administrativeArea?.trim(), address.postalCode?.trim()].filter(Boolean).join(" ");
  const cityLine = [address.locality?.trim(), areaZip].filter(Boolean).join(", ");
  return [...lines, cityLine].filter(Boolean).join(", ");
}

const minutesOf = (t: GbpTimeOfDay | undefined) => (t?.hours ?? 0) * 60 + (t?.minutes ?? 0);

/** A period as minutes from Monday 0:00 (start) and its end after it; null for a day Google does not name. */
function span(period: GbpTimePeriod): { start: number; end: number } | null {
  const openDay = DAYS.indexOf(period.openDay?.toUpperCase() as (typeof DAYS)[number]);
  const closeDay = DAYS.indexOf(period.closeDay?.toUpperCase() as (typeof DAYS)[number]);
  if (openDay < 0 || closeDay < 0) return null;
  const start = openDay * DAY_MINUTES + minutesOf(period.openTime);
  let end = closeDay * DAY_MINUTES + minutesOf(period.closeTime);
  if (end === start) end = start + DAY_MINUTES; // opening and closing at the same time: round the clock
  else if (end < start) end += WEEK_MINUTES; // Sunday night into Monday
  return { start, end };
}

function clock(minutes: number): string {
  const m = ((minutes % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  const hours = Math.floor(m / 60);
  return `${hours % 12 || 12}:${String(m % 60).padStart(2, "0")} ${hours < 12 ? "AM" : "PM"}`;
}

/** "Mon–Fri 8:00 AM–5:00 PM; Sat 9:00 AM–1:00 PM": days with the same hours together, closed days left out. */
function hoursText(periods: readonly GbpTimePeriod[]): string {
  const byDay: { open: number; text: string }[][] = DAYS.map(() => []);
  for (const period of periods) {
    const s = span(period);
    if (!s) continue;
    const day = Math.floor(s.start / DAY_MINUTES);
    const open = s.start - day * DAY_MINUTES;
    if (s.end - s.start <= DAY_MINUTES) {
      const allDay = open === 0 && s.end - s.start === DAY_MINUTES;
      byDay[day]!.push({ open, text: allDay ? "open 24 hours" : `${clock(open)}–${clock(s.end)}` });
      continue;
    }
    // Longer than a day (open Friday morning to Sunday night): each day it covers, on its own.
    for (let from = s.start; from < s.end; from = (Math.floor(from / DAY_MINUTES) + 1) * DAY_MINUTES) {
      const d = Math.floor(from / DAY_MINUTES);
      const to = Math.min(s.end, (d + 1) * DAY_MINUTES);
      const o = from - d * DAY_MINUTES;
      byDay[d % 7]!.push({ open: o, text: o === 0 && to - from === DAY_MINUTES ? "open 24 hours" : `${clock(from)}–${clock(to)}` });
    }
  }
  const groups = new Map<string, number[]>();
  byDay.forEach((spans, day) => {
    if (!spans.length) return;
    const text = [...spans].sort((x, y) => x.open - y.open).map((x) => x.text).join(", ");
    groups.set(text, [...(groups.get(text) ?? []), day]);
  });
  return [...groups].map(([text, days]) => `${dayRuns(days)} ${text}`).join("; ");
}

/** [0,1,2,3,4] → "Mon–Fri"; [0,2,4] → "Mon, Wed, Fri"; [5,6] → "Sat, Sun". */
function dayRuns(days: number[]): string {
  const runs: number[][] = [];
  for (const day of days) {
    const last = runs[runs.length - 1];
    if (last && last[last.length - 1] === day - 1) last.push(day);
    else runs.push([day]);
  }
  return runs
    .map((run) => (run.length >= 3 ? `${DAY_SHORT[run[0]!]}–${DAY_SHORT[run[run.length - 1]!]}` : run.map((d) => DAY_SHORT[d]).join(", ")))
    .join(", ");
}

// ---- comparing ----

const squash = (text: string | undefined) => (text ?? "").trim().replace(/\s+/g, " ");

const phoneKey = (phone: string) => normalizePhone(phone) ?? phone.replace(/\D/g, "");

/** Scheme and host in lower case, no trailing slash on the path: "HTTPS://Ridge.example/" is "https://ridge.example". */
function websiteKey(url: string | undefined): string {
  const text = (url ?? "").trim();
  const match = /^([a-z][a-z0-9+.-]*:\/\/)?([^/?#]*)([^?#]*)(.*)$/i.exec(text);
  if (!match) return text;
  const [, scheme = "", host = "", path = "", rest = ""] = match;
  return `${scheme.toLowerCase()}${host.toLowerCase()}${path.replace(/\/+$/, "")}${rest}`;
}

// A unit word (or "#") and its number, as nap.ts reads it: the suite is kept apart, so "Suite 300" is "#300" but not "Suite 400".
const UNIT = /(?:\b(?:suite|ste|unit|apt|apartment|room|rm|floor|fl|bldg|building|office|ofc)\b\.?\s*#?\s*|#\s*)([a-z]{0,2}-?\d[a-z0-9-]*|[a-z])\b/gi;

function addressKey(address: GbpPostalAddress | undefined): string {
  const text = addressText(address);
  if (!text) return "";
  const units = [...text.matchAll(UNIT)].map((m) => m[1]!.toLowerCase().replace(/-/g, "")).sort();
  return `${normalizeAddress(text)}|${units.join(",")}|${(address?.regionCode ?? "").trim().toUpperCase()}`;
}

/** The periods as sorted spans, so their order and "24:00 Monday" vs "0:00 Tuesday" do not matter. */
function hoursKey(periods: readonly GbpTimePeriod[] | undefined): string {
  return (periods ?? [])
    .map(span)
    .filter((s): s is { start: number; end: number } => s !== null)
    .map((s) => `${s.start}-${s.end}`)
    .sort()
    .join(",");
}

function fieldKey(field: GuardedField, fields: GbpLocationFields): string {
  switch (field) {
    case "title":
      return squash(fields.title);
    case "phoneNumbers": {
      const primary = fields.phoneNumbers?.primaryPhone?.trim() ? phoneKey(fields.phoneNumbers.primaryPhone) : "";
      const more = (fields.phoneNumbers?.additionalPhones ?? []).filter((p) => p.trim()).map(phoneKey).sort();
      return `${primary}|${more.join(",")}`;
    }
    case "websiteUri":
      return websiteKey(fields.websiteUri);
    case "storefrontAddress":
      return addressKey(fields.storefrontAddress);
    case "regularHours":
      return hoursKey(fields.regularHours?.periods);
    case "categories": {
      const primary = fields.categories?.primaryCategory?.name?.trim() ?? "";
      const more = (fields.categories?.additionalCategories ?? []).map((c) => c.name.trim()).filter(Boolean).sort();
      return `${primary}|${[...new Set(more)].join(",")}`;
    }
    case "profile":
      return squash(fields.profile?.description);
  }
}
