// The clients view's health mark (issue 41): what to act on now (a lost verification, Google's edits, low reviews the
// attention queue holds, a connection to renew), what to watch (newer low reviews, failed posts, a ranking fall, wrong
// listings, AI visibility down, a report unopened, the allowance nearly used), each in words, most weighty first.
import { describe, expect, it } from "vitest";
import { clientHealth, type HealthInput } from "../../../worker/features/command-center/rules/health";

const base: HealthInput = { google: "connected", attention: {}, googleChanges: [], reviews: null, rank: null, citations: null, ai: null, posts: null, report: null, usage: null };

describe("clientHealth", () => {
  it("is fine with nothing to say", () => {
    expect(clientHealth(base)).toEqual({ level: "fine", score: 0, reasons: [] });
  });

  it("acts on low reviews the queue holds (a day old) and watches the newer ones", () => {
    const h = clientHealth({ ...base, attention: { low_review: 1 }, reviews: { lowUnanswered: 3, unanswered: 5 } as HealthInput["reviews"] });
    expect(h.level).toBe("act");
    expect(h.reasons).toEqual(["1 low review unanswered", "2 new low reviews to answer"]);
  });

  it("puts a lost verification first and Google's edits in words", () => {
    const h = clientHealth({ ...base, attention: { verification_lost: 1 }, googleChanges: ["phone"], google: "needs_reconnect" });
    expect(h.reasons).toEqual(["The Google profile lost its verification", "Google changed the phone", "Google needs reconnecting"]);
  });

  it("watches a ranking fall, wrong listings and a report unopened for a week", () => {
    const sent = new Date(Date.now() - 8 * 86_400_000).toISOString();
    const h = clientHealth({
      ...base,
      rank: { solvChange: -12 } as HealthInput["rank"],
      citations: { wrong: 2 } as HealthInput["citations"],
      report: { sentAt: sent, openedAt: null } as HealthInput["report"],
    });
    expect(h.level).toBe("watch");
    expect(h.reasons).toEqual(["Map ranking fell 12 points", "2 wrong listings", "Monthly report not opened after 7 days"]);
  });
});
