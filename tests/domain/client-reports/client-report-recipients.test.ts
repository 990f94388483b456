// The monthly report's recipients as typed (issue 30): any separator, each address checked, duplicates dropped
// (case-insensitively; addresses are kept lower-cased, as the API stores them), at most five, empty meaning the
// account's address. The API's list is the same rule (RecipientList), so the screen and the server cannot disagree.
import { describe, expect, it } from "vitest";
import { CLIENT_REPORT_MAX_RECIPIENTS } from "../../../worker/features/client-reports/rules/client-report";
import { parseRecipients } from "../../../worker/features/client-reports/rules/recipients";

describe("parseRecipients", () => {
  it("reads addresses separated by commas, semicolons, spaces and new lines", () => {
    expect(parseRecipients(" gm@ridgeline.test,office@ridgeline.test;\nowner@ridgeline.test  ")).toEqual({
      ok: true,
      recipients: ["gm@ridgeline.test", "office@ridgeline.test", "owner@ridgeline.test"],
    });
  });

  it("keeps an empty list (the account's address) for nothing typed", () => {
    expect(parseRecipients("  , ; ")).toEqual({ ok: true, recipients: [] });
  });

  it("drops a repeated address, whatever its case", () => {
    expect(parseRecipients("GM@ridgeline.test, gm@ridgeline.test")).toEqual({ ok: true, recipients: ["gm@ridgeline.test"] });
  });

  it("names the first address that is not one", () => {
    expect(parseRecipients("gm@ridgeline.test, office@, x@y.test")).toEqual({ ok: false, message: '"office@" is not a valid email address.' });
  });

  it(`refuses more than ${CLIENT_REPORT_MAX_RECIPIENTS} distinct addresses, saying how many to remove`, () => {
    const five = ["a", "b", "c", "d", "e"].map((n) => `${n}@r.test`);
    expect(parseRecipients(five.join(","))).toEqual({ ok: true, recipients: five });
    expect(parseRecipients([...five, "A@r.test"].join(","))).toEqual({ ok: true, recipients: five });
    expect(parseRecipients([...five, "f@r.test", "g@r.test"].join(","))).toEqual({ ok: false, message: "At most 5 addresses: remove 2." });
  });
});
