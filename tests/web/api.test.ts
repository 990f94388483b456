// apiFetch: bearer token, X-View-As while viewing, ApiError from `{error:{code,message}}`, the 10-second timeout.
import { describe, expect, it, vi } from "vitest";
import { ApiError, apiFetch, TIMEOUT_MESSAGE } from "../../web/lib/api";
import { startViewAs } from "../../web/lib/view-as";
import { hangingResponse, json, stubFetch } from "./helpers";

describe("apiFetch", () => {
  it("sends the bearer token and parses JSON", async () => {
    const fetch = stubFetch(() => json({ ok: true }));
    await expect(apiFetch("/api/health", { accessToken: "tok" })).resolves.toEqual({ ok: true });
    const headers = new Headers((fetch.mock.calls[0][1] as RequestInit).headers);
    expect(headers.get("Authorization")).toBe("Bearer tok");
    expect(headers.get("X-View-As")).toBeNull();
  });

  it("adds X-View-As while a view is active, unless told not to", async () => {
    const fetch = stubFetch(() => json({}));
    startViewAs({ viewingUserId: "user-9", viewingUserEmail: "a@b.c", viewingUserDetails: {} });
    await apiFetch("/api/profile", { accessToken: "tok" });
    await apiFetch("/api/profile", { accessToken: "tok", viewAs: false });
    expect(new Headers((fetch.mock.calls[0][1] as RequestInit).headers).get("X-View-As")).toBe("user-9");
    expect(new Headers((fetch.mock.calls[1][1] as RequestInit).headers).get("X-View-As")).toBeNull();
  });

  it("sends JSON bodies", async () => {
    const fetch = stubFetch(() => new Response(null, { status: 204 }));
    await expect(apiFetch("/api/x", { method: "PUT", json: { a: 1 }, accessToken: null })).resolves.toBeUndefined();
    const init = fetch.mock.calls[0][1] as RequestInit;
    expect(init.body).toBe('{"a":1}');
    expect(new Headers(init.headers).get("Content-Type")).toBe("application/json");
    expect(new Headers(init.headers).get("Authorization")).toBeNull();
  });

  it("throws ApiError with the server's code and message", async () => {
    stubFetch(() => json({ error: { code: "view_as_read_only", message: "Read-only view." } }, 403));
    const err = await apiFetch("/api/profile", { method: "PUT", accessToken: "t" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 403, code: "view_as_read_only", message: "Read-only view." });
  });

  it("falls back to the status when the body is not the error shape", async () => {
    stubFetch(() => new Response("<html>bad gateway</html>", { status: 502, statusText: "Bad Gateway" }));
    await expect(apiFetch("/api/x", { accessToken: "t" })).rejects.toMatchObject({ status: 502, code: "http_502" });
  });

  it("times out with the spec's message", async () => {
    vi.useFakeTimers();
    stubFetch((_url, init) => hangingResponse(init));
    const pending = apiFetch("/api/profile", { accessToken: "t", timeoutMs: 10_000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10_000);
    const err = await pending;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: "timeout", message: TIMEOUT_MESSAGE });
    expect(TIMEOUT_MESSAGE).toBe("Request timed out. Please check your connection and try again.");
  });

  it("reports a network failure as an ApiError", async () => {
    stubFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    await expect(apiFetch("/api/x", { accessToken: "t" })).rejects.toMatchObject({ code: "network" });
  });
});

describe("binary answers", () => {
  it("keep their bytes: the QR code's PNG download starts with the PNG signature (issue 39)", async () => {
    const { fetchQr } = await import("../../web/features/review-requests/queries");
    const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    const png = new Uint8Array([...signature, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0xff, 0xfe, 0x80]);
    stubFetch(() => new Response(png, { status: 200, headers: { "Content-Type": "image/png" } }));
    const blob = await fetchQr("png");
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([...png]);
  });
});
