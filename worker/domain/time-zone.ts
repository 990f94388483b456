// Time zones (issue 26): a business's times show in its own IANA zone, stored times stay UTC. Pure Intl, shared by
// the worker's schemas and the web's formatter (web/lib/format-date.ts).

/** True for a zone Intl knows ("America/Chicago", "UTC"). */
export function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock parts of an instant in a zone. */
function partsIn(date: Date, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour"), minute: get("minute"), second: get("second") };
}

/** The zone's offset from UTC at an instant, in milliseconds (Chicago in winter: -6 h). */
function offsetMs(date: Date, timeZone: string): number {
  const p = partsIn(date, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(date.getTime() / 1000) * 1000;
}

/**
 * The UTC instant of a wall-clock date ("2026-12-01") and time ("15:00") in a zone; null when they are not a date
 * and time. A time the clocks skip (spring forward) lands an hour later, as a person's clock would show it.
 */
export function zonedToUtc(date: string, time: string, timeZone: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!m || !t) return null;
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(t[1]), Number(t[2]));
  if (Number.isNaN(asUtc)) return null;
  // Two passes settle the offset on either side of a change of clocks.
  let guess = asUtc - offsetMs(new Date(asUtc), timeZone);
  guess = asUtc - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

/** The wall-clock date ("2026-12-01") and time ("15:00") of an instant in a zone. */
export function utcToZoned(iso: string | Date, timeZone: string): { date: string; time: string } {
  const p = partsIn(new Date(iso), timeZone);
  const two = (n: number) => String(n).padStart(2, "0");
  return { date: `${p.year}-${two(p.month)}-${two(p.day)}`, time: `${two(p.hour)}:${two(p.minute)}` };
}

/** The zone to read times in: a stored zone Intl knows, else UTC. */
export function zoneOf(timeZone: string | null | undefined): string {
  return timeZone && validTimeZone(timeZone) ? timeZone : "UTC";
}
