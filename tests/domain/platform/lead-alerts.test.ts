// The lead loop's pure rules (issue 21): open alerts, the read-most threshold, mail modes, the digest interval, the
// webhook backoff and pause, and the endpoint URL rule.
import { describe, expect, it } from "vitest";
import { itReturns } from "../each";
import {
  checkWebhookUrl,
  dailyDigestDue,
  digestDue,
  mailMode,
  openAlert,
  shouldPauseEndpoint,
  webhookRetryDelaySeconds,
} from "../../../worker/platform/notifications/rules/lead-alerts";
import { READ_MOST_SECTIONS, readMostReached, TRACKED_SECTIONS } from "../../../worker/features/reports/rules/events";

const T = "2026-11-25T12:00:00.000Z";
const ago = (ms: number) => new Date(Date.parse(T) - ms).toISOString();
const DAY = 86_400_000;
const HOUR = 3_600_000;

describe("openAlert", () => {
  itReturns("previous open %s → %s", (previous) => openAlert(previous, T), [
    [null, "report_opened"],
    [ago(60_000), null],
    [ago(6 * DAY), null],
    [ago(7 * DAY - 1), null],
    [ago(7 * DAY), "report_reopened"],
    [ago(30 * DAY), "report_reopened"],
    ["not a date", null],
  ] as const);
});

describe("readMostReached", () => {
  it("fires exactly at the threshold (most of the tracked sections), once per visit", () => {
    expect(READ_MOST_SECTIONS).toBeGreaterThan(TRACKED_SECTIONS.length / 2);
    expect(READ_MOST_SECTIONS).toBeLessThanOrEqual(TRACKED_SECTIONS.length);
    const fired = Array.from({ length: TRACKED_SECTIONS.length + 1 }, (_, n) => readMostReached(n));
    expect(fired.filter(Boolean)).toHaveLength(1);
    expect(fired[READ_MOST_SECTIONS]).toBe(true);
  });
});

describe("mailMode", () => {
  it.each([
    ["chat_lead", { inApp: true, byMail: true }, true, "now"],
    ["widget_lead", { inApp: false, byMail: true }, true, "now"],
    ["webhook_paused", { inApp: true, byMail: true }, true, "now"],
    ["report_opened", { inApp: true, byMail: true }, true, "digest"],
    ["report_printed", { inApp: true, byMail: true }, true, "digest"],
    ["chat_lead", { inApp: true, byMail: false }, true, "none"],
    ["chat_lead", { inApp: true, byMail: true }, false, "none"],
  ] as const)("%s %o mail configured %s → %s", (kind, channels, configured, expected) => {
    expect(mailMode(kind, channels, configured)).toBe(expected);
  });
});

describe("digestDue: at most one an hour", () => {
  itReturns("last digest %s → %s", (last) => digestDue(last, new Date(T)), [
    [null, true],
    [ago(59 * 60_000), false],
    [ago(HOUR), true],
    [ago(3 * HOUR), true],
  ] as const);
});

describe("webhook retries and pause", () => {
  itReturns("attempt %i waits %i s", webhookRetryDelaySeconds, [
    [1, 30],
    [2, 60],
    [5, 480],
    [11, 30_720],
    [12, 43_200],
    [40, 43_200],
  ]);
  itReturns("failing since %s → paused %s", (since) => shouldPauseEndpoint(since, new Date(T)), [
    [null, false],
    [ago(23 * HOUR), false],
    [ago(DAY), true],
    [ago(2 * DAY), true],
  ] as const);
});

describe("checkWebhookUrl", () => {
  it.each([
    ["https://hooks.example.com/porchlight", false, true],
    ["http://hooks.example.com/porchlight", false, false],
    ["https://hooks.example.com:8443/x", false, false],
    ["https://10.1.2.3/x", false, false],
    ["https://[::1]/x", false, false],
    ["https://metadata.google.internal/x", false, false],
    ["http://127.0.0.1:9999/hooks/x", false, false],
    ["http://127.0.0.1:9999/hooks/x", true, true],
    ["http://localhost:9999/hooks/x", true, true],
    ["http://192.168.1.2/x", true, false],
    ["http://hooks.example.com/x", true, false],
    ["https://user:pw@hooks.example.com/x", false, false],
  ] as const)("%s (loopback allowed: %s) → %s", (url, loopback, ok) => {
    expect(checkWebhookUrl(url, loopback).ok).toBe(ok);
  });
});

describe("dailyDigestDue: the attention queue's digest, once a local day from 8 in the morning", () => {
  // 2026-11-29 14:30 UTC is 08:30 in Chicago; 13:30 UTC is 07:30.
  const zone = "America/Chicago";
  itReturns("last digest, now: %o → %s", ([last, now]) => dailyDigestDue(last, new Date(now), zone), [
    [[null, "2026-11-29T13:30:00Z"], false],
    [[null, "2026-11-29T14:30:00Z"], true],
    [["2026-11-29T14:05:00Z", "2026-11-29T20:00:00Z"], false],
    // 23:00 UTC on the 28th is 17:00 in Chicago on the 28th: an earlier local day.
    [["2026-11-28T23:00:00Z", "2026-11-29T14:30:00Z"], true],
    // 03:00 UTC on the 29th is still the 28th in Chicago (21:00): due again after 8 on the 29th.
    [["2026-11-29T03:00:00Z", "2026-11-29T14:30:00Z"], true],
    [["not a date", "2026-11-29T14:30:00Z"], true],
  ] as const);
});
