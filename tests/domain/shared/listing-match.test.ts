// Tests how the audit picks the business's Google Maps listing: by name and phone/address, never by position alone.
import { describe, it, expect } from "vitest";
import { nameSimilarity, pickListing } from "../../../worker/domain/listing-match";

const smith = { name: "Smith Plumbing LLC", phone: "(555) 123-4567", address: "123 Main St, Suite 200, Springfield, IL" };

describe("nameSimilarity", () => {
  it.each([
    ["Smith Plumbing LLC", "The Smith Plumbing Co.", 1],
    ["Joe's Plumbing", "Smith Holdings dba Joe's Plumbing", 1],
    ["Smith Plumbing", "Smith Plumbing and Drain", 0.5],
    ["Smith Plumbing", "Acme Roofing", 0],
  ])("%s ~ %s = %d", (a, b, score) => {
    expect(nameSimilarity(a, b)).toBeCloseTo(score);
  });
});

describe("pickListing", () => {
  it("picks the matching listing even when it is not first", () => {
    const candidates = [
      { name: "Acme Plumbing", phone: "555-000-0000", address: "9 Oak Ave, Springfield, IL" },
      { name: "Smith Plumbing", phone: "+1 555 123 4567", address: "123 Main Street, Springfield, IL 62701" },
    ];
    expect(pickListing(smith, candidates).match).toBe(1);
  });

  it("picks a listing whose name is close and whose phone agrees", () => {
    expect(pickListing(smith, [{ name: "Smith Plumbing & Drain", phone: "5551234567" }]).match).toBe(0);
  });

  it("picks the same name when nothing known disagrees", () => {
    expect(pickListing({ name: "Smith Plumbing" }, [{ name: "Smith Plumbing LLC" }]).match).toBe(0);
  });

  it.each([
    ["a first result with another name", [{ name: "Acme Plumbing", phone: "555-000-0000" }]],
    ["the same name at another address", [{ name: "Smith Plumbing", address: "900 Elm St, Chicago, IL" }]],
    ["two equally good candidates", [{ name: "Smith Plumbing" }, { name: "Smith Plumbing Inc" }]],
    ["no candidates", []],
  ])("is not confident with %s", (_label, candidates) => {
    expect(pickListing(smith, candidates).match).toBeNull();
  });

  it("scores every candidate so the admin can choose", () => {
    const { scored } = pickListing(smith, [{ name: "Acme" }, { name: "Smith Plumbing", phone: "555-123-4567" }]);
    expect(scored.map((s) => s.confident)).toEqual([false, true]);
    expect(scored[1]).toMatchObject({ nameScore: 1, phoneAgrees: true, addressAgrees: null });
  });
});
