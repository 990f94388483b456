// The deploy check's verdict on the worker bundle's size.
import { describe, expect, it } from "vitest";
import { bundleVerdict, WORKER_GZIP_LIMIT_BYTES } from "../../scripts/check-bundle";

describe("bundleVerdict", () => {
  it("passes a bundle under the 3 MiB gzip limit and reports its sizes", () => {
    const v = bundleVerdict(1_600_000, 290_000);
    expect(v.ok).toBe(true);
    expect(v.line).toBe("worker bundle 1562.5 KiB, gzip 283.2 KiB of the 3072.0 KiB Workers limit (9.2%)");
  });

  it("fails a bundle whose gzip size is over the limit, whatever its raw size", () => {
    expect(bundleVerdict(1, WORKER_GZIP_LIMIT_BYTES).ok).toBe(true);
    const v = bundleVerdict(9_000_000, WORKER_GZIP_LIMIT_BYTES + 1);
    expect(v.ok).toBe(false);
    expect(v.line).toMatch(/too large to deploy$/);
  });
});
