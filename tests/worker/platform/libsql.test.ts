// The worker on libSQL: with LIBSQL_URL set it stores everything through `@libsql/client/web` (HTTP, in workerd) in
// a libSQL server on loopback (tests/fakes/libsql-server.ts), and D1 stays untouched. The shared data-layer body
// runs here a third time, over that HTTP client.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import app from "../../../worker/app";
import { getDb } from "../../../worker/platform/db/client";
import { users } from "../../../worker/platform/auth/tables";
import { dataLayerSuite } from "./data-layer";

const libsqlEnv = { ...env, LIBSQL_URL: env.TEST_LIBSQL_URL, LIBSQL_AUTH_TOKEN: "test-token" };

async function call(path: string, init?: RequestInit) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://localhost:8787${path}`, init), libsqlEnv, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

dataLayerSuite("libSQL over HTTP (workerd)", () => getDb(libsqlEnv));

describe("the worker with LIBSQL_URL", () => {
  it("answers health from libSQL", async () => {
    const res = await call("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, db: true });
  });

  it("signs a user up into libSQL, not D1, and signs them in from there", async () => {
    const email = `libsql-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const body = JSON.stringify({ email, password: "correct horse battery staple" });
    const headers = { "content-type": "application/json" };
    const signup = await call("/auth/v1/signup", { method: "POST", headers, body });
    expect(signup.status).toBe(200);
    const stored = await getDb(libsqlEnv).select({ id: users.id }).from(users).where(eq(users.email, email));
    expect(stored).toHaveLength(1);
    expect(await env.DB.prepare("select id from users where email = ?").bind(email).first()).toBeNull();

    const signin = await call("/auth/v1/token?grant_type=password", { method: "POST", headers, body });
    expect(signin.status).toBe(200);
    const session = (await signin.json()) as { access_token: string; user: { id: string } };
    expect(session.user.id).toBe(stored[0]!.id);
    const profile = await call("/api/profile", { headers: { authorization: `Bearer ${session.access_token}` } });
    expect(profile.status).toBe(200);
  });
});
