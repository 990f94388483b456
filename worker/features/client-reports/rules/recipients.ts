// The monthly report's recipients (issue 30), checked by one rule wherever they arrive: each address trimmed,
// lower-cased and checked, duplicates dropped, at most CLIENT_REPORT_MAX_RECIPIENTS; empty means the account's address.
// `RecipientList` is the API's (PUT /api/client-reports/settings/:userId); `parseRecipients` reads the same list as a
// person types it on the screens (commas, semicolons, spaces or new lines), checked before the PUT, with messages
// that name the address at fault.
import { z } from "zod";
import { CLIENT_REPORT_MAX_RECIPIENTS } from "./client-report";

export const RecipientAddress = z.string().trim().toLowerCase().max(254).pipe(z.email("Enter a valid email address"));

export const RecipientList = z
  .array(RecipientAddress)
  .transform((list) => [...new Set(list)])
  .pipe(z.array(z.string()).max(CLIENT_REPORT_MAX_RECIPIENTS, `At most ${CLIENT_REPORT_MAX_RECIPIENTS} recipients`));

export type RecipientsParse = { ok: true; recipients: string[] } | { ok: false; message: string };

export function parseRecipients(text: string): RecipientsParse {
  const typed = text.split(/[\s,;]+/).filter((part) => part.length > 0);
  const parsed = RecipientList.safeParse(typed);
  if (parsed.success) return { ok: true, recipients: parsed.data };
  // An address's issue has its index as path; the list's (too many, once duplicates are dropped) has none.
  const at = parsed.error.issues[0]!.path[0];
  if (typeof at !== "number") {
    const distinct = new Set(typed.map((a) => a.toLowerCase())).size;
    return { ok: false, message: `At most ${CLIENT_REPORT_MAX_RECIPIENTS} addresses: remove ${distinct - CLIENT_REPORT_MAX_RECIPIENTS}.` };
  }
  return { ok: false, message: `"${typed[at]}" is not a valid email address.` };
}
