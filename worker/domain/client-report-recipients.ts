// The monthly report's recipients as a person types them (issue 30): addresses separated by commas, semicolons, spaces or
// new lines; each checked, duplicates dropped, at most CLIENT_REPORT_MAX_RECIPIENTS. Empty means the account's address.
// Pure, shared by the screens (checked before the PUT) and anything on the server that reads typed addresses.
import { z } from "zod";
import { CLIENT_REPORT_MAX_RECIPIENTS } from "./client-report";

export type RecipientsParse = { ok: true; recipients: string[] } | { ok: false; message: string };

export function parseRecipients(text: string): RecipientsParse {
  const seen = new Set<string>();
  const recipients: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const address = part.trim();
    if (!address) continue;
    if (!z.email().safeParse(address).success) return { ok: false, message: `"${address}" is not a valid email address.` };
    const key = address.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    recipients.push(address);
  }
  if (recipients.length > CLIENT_REPORT_MAX_RECIPIENTS) {
    return { ok: false, message: `At most ${CLIENT_REPORT_MAX_RECIPIENTS} addresses: remove ${recipients.length - CLIENT_REPORT_MAX_RECIPIENTS}.` };
  }
  return { ok: true, recipients };
}
