// The web app's zod setting (web/lib/zod-config.ts) reaches zod without importing it.
import { describe, expect, it } from "vitest";
import "../../web/lib/zod-config";
import { config } from "zod/v4/core";
import { z } from "zod";

describe("zod config", () => {
  it("is jitless, so zod never probes new Function under the CSP, and still validates", () => {
    expect(config().jitless).toBe(true);
    const schema = z.object({ name: z.string().min(1) });
    expect(schema.safeParse({ name: "Ridge Roofing" }).success).toBe(true);
    expect(schema.safeParse({ name: "" }).success).toBe(false);
  });
});
