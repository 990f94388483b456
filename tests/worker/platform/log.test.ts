// Structured logs: one JSON line per event with the request id, no personal data; every error body names its request.
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import app from "../../../worker/app";
import { log, logLine, redact, withRequestId } from "../../../worker/platform/log";
import { api, BASE, signUp } from "../helpers";
import { deliver } from "../reports/reports-fixtures";

describe("log lines", () => {
  it("are one JSON object with level, message, the current request id and the fields", async () => {
    const line = await withRequestId("req-123", async () => {
      await Promise.resolve();
      return logLine("warn", "something happened", { reportId: "r-1", attempt: 2, skipped: undefined });
    });
    expect(line).not.toContain("\n");
    const entry = JSON.parse(line);
    expect(entry).toMatchObject({ level: "warn", message: "something happened", requestId: "req-123", reportId: "r-1", attempt: 2 });
    expect(entry).not.toHaveProperty("skipped");
    expect(JSON.parse(logLine("info", "outside any request")).requestId).toBeNull();
  });

  it("keep emails and phone numbers out, and ids in", () => {
    const id = "123e4567-e89b-12d3-a456-426614174000";
    expect(redact(`mail to jane.doe+x@example.co.uk failed for ${id}`)).toBe(`mail to [email] failed for ${id}`);
    expect(redact("call (512) 555-0142 or 512.555.0142 or +44 20 7946 0958")).toBe("call [phone] or [phone] or [phone]");
    const entry = JSON.parse(logLine("error", "insert failed", { to: "bob@example.test" }, new Error("UNIQUE failed for bob@example.test")));
    expect(JSON.stringify(entry)).not.toContain("bob@example.test");
    expect(entry.error).toBe("Error: UNIQUE failed for [email]");
  });

  it("cap long texts", () => {
    expect(redact("x".repeat(5000)).length).toBeLessThanOrEqual(300);
  });
});

describe("error bodies and the logs of a request", () => {
  it("a 4xx body carries the request id the response header names", async () => {
    const res = await api("/api/reports/jobs");
    expect(res.status).toBe(401);
    expect(res.body.error.requestId).toBe(res.headers.get("X-Request-Id"));
  });

  it("a 500 says nothing of the cause, and its one log line carries the same request id", async () => {
    const { session } = await signUp();
    const broken = {
      ...env,
      DB: {
        prepare() {
          throw new Error("D1_ERROR: no such table for owner@example.test");
        },
        batch() {
          throw new Error("D1_ERROR: no such table");
        },
      } as unknown as D1Database,
    };
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await app.request(`${BASE}/api/reports/jobs`, { headers: { Authorization: `Bearer ${session.access_token}` } }, broken);
    const body = (await res.json()) as { error: { code: string; message: string; requestId: string } };
    expect(res.status).toBe(500);
    expect(body.error).toEqual({
      code: "internal_error",
      message: "Something went wrong on our side. Please try again.",
      requestId: res.headers.get("X-Request-Id"),
    });
    expect(JSON.stringify(body)).not.toContain("D1_ERROR");
    const lines = errors.mock.calls.map((call) => JSON.parse(String(call[0])));
    errors.mockRestore();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error", message: "unhandled error", requestId: body.error.requestId, path: "/api/reports/jobs" });
    expect(lines[0].error).toContain("[email]");
  });

  it("a queue consumer's lines carry the message id as their request id", async () => {
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { ids } = await deliver("report-jobs", [{ body: { nope: true } }], env);
    const lines = warnings.mock.calls.map((call) => JSON.parse(String(call[0])));
    warnings.mockRestore();
    expect(lines).toEqual([expect.objectContaining({ level: "warn", requestId: ids[0], message: "report-jobs: dropping a malformed message" })]);
  });

  it("log.info writes through console.log", () => {
    const out = vi.spyOn(console, "log").mockImplementation(() => undefined);
    log.info("hello", { n: 1 });
    expect(JSON.parse(String(out.mock.calls[0]![0]))).toMatchObject({ level: "info", message: "hello", n: 1 });
    out.mockRestore();
  });
});
