// Bodies are size-limited before they are read, on every route; user_metadata has its own cap.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DEFAULT_BODY_LIMIT_BYTES } from "../../../worker/app";
import { MAX_USER_METADATA_CHARS } from "../../../worker/platform/auth/requests";
import { api, authClient, GOOD_PASSWORD, signUpAdmin, uniqueEmail } from "../helpers";

const big = (bytes: number) => JSON.stringify({ email: "a@b.test", password: "x".repeat(bytes) });

describe("body limits", () => {
  it.each(["/auth/v1/signup", "/auth/v1/token?grant_type=password", "/api/reports", "/api/prospects/import", "/api/nowhere"])(
    "POST %s refuses an oversized body with 413 and the stable error body",
    async (path) => {
      const size = path === "/api/prospects/import" ? 3 * 1024 * 1024 : DEFAULT_BODY_LIMIT_BYTES + 1;
      const res = await SELF.fetch(`http://localhost${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: big(size) });
      expect(res.status).toBe(413);
      const body = (await res.json()) as any;
      // GoTrue's clients read GoTrue's error shape on /auth/v1; the API answers its own.
      if (path.startsWith("/auth/v1/")) expect(body).toMatchObject({ code: 413, error_code: "payload_too_large", msg: expect.any(String) });
      else expect(body.error).toMatchObject({ code: "payload_too_large", requestId: expect.any(String) });
    },
  );

  it("lets an import body up to 2 MB through to the route", async () => {
    const { session } = await signUpAdmin();
    const res = await api("/api/prospects/import", {
      method: "POST",
      token: session.access_token,
      body: JSON.stringify({ text: "x".repeat(DEFAULT_BODY_LIMIT_BYTES * 2), startRow: 1, allowDuplicates: false }),
    });
    expect(res.status).not.toBe(413);
    expect(res.status).toBeLessThan(500);
  });

  it("caps user_metadata at sign-up and on update", async () => {
    const data = { note: "x".repeat(MAX_USER_METADATA_CHARS) };
    const { error } = await authClient().signUp({ email: uniqueEmail(), password: GOOD_PASSWORD, options: { data } });
    expect(error?.status).toBe(400);
    const client = authClient();
    const ok = await client.signUp({ email: uniqueEmail(), password: GOOD_PASSWORD, options: { data: { note: "short" } } });
    expect(ok.error).toBeNull();
    const upd = await client.updateUser({ data });
    expect(upd.error?.status).toBe(400);
  });
});
