// A business's wall-clock times and UTC (issue 26): Austin's 9:30 AM on Dec 2 is 15:30 UTC, and back again.
import { describe, expect, it } from "vitest";
import { utcToZoned, validTimeZone, zonedToUtc } from "../../../worker/domain/time-zone";

describe("time zones", () => {
  it.each([
    ["2026-12-02", "09:30", "America/Chicago", "2026-12-02T15:30:00.000Z"],
    ["2026-07-02", "09:30", "America/Chicago", "2026-07-02T14:30:00.000Z"],
    ["2026-12-02", "00:15", "Asia/Kolkata", "2026-12-01T18:45:00.000Z"],
    ["2026-12-02", "09:30", "UTC", "2026-12-02T09:30:00.000Z"],
  ])("%s %s in %s is %s", (date, time, zone, utc) => {
    expect(zonedToUtc(date, time, zone)?.toISOString()).toBe(utc);
    expect(utcToZoned(utc, zone)).toEqual({ date, time });
  });

  it("refuses what is not a date and a time, and knows IANA names", () => {
    expect(zonedToUtc("", "09:30", "UTC")).toBeNull();
    expect(zonedToUtc("2026-12-02", "9am", "UTC")).toBeNull();
    expect(validTimeZone("America/Chicago")).toBe(true);
    expect(validTimeZone("Mars/Olympus_Mons")).toBe(false);
  });
});
