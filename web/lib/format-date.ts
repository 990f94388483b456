// Dates as the admin screens show them: "Nov 21, 2026".
const DATE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" });

export function formatCreated(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE.format(date);
}

const DATE_TIME_OPTIONS: Intl.DateTimeFormatOptions = { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" };
const DATE_TIME = new Intl.DateTimeFormat("en-US", DATE_TIME_OPTIONS);

/** The browser's IANA time zone, the default of a business's own (Business Settings). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/**
 * "Nov 21, 2026, 3:04 PM": when a thing happened, to the minute; in the business's time zone when one is given
 * (useBusinessTimeZone), else the browser's.
 */
export function formatDateTime(iso: string, timeZone?: string | null): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return timeZone ? new Intl.DateTimeFormat("en-US", { ...DATE_TIME_OPTIONS, timeZone }).format(date) : DATE_TIME.format(date);
}

/** "Dec 1, 2026, 3:00 PM CST": a scheduled time, with the zone named so nobody wonders whose clock it is. */
export function formatScheduled(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat("en-US", { ...DATE_TIME_OPTIONS, timeZone, timeZoneName: "short" }).format(date);
}

const DAY = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** "Dec 1, 2026" for a calendar day (yyyy-mm-dd), the same day in every time zone. */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : DAY.format(date);
}
