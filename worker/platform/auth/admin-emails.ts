// ADMIN_EMAILS: the addresses that become admin once confirmed by their emailed link (never at sign-up).
import { normalizeEmail } from "./users";
import type { Env } from "../env";

export function adminEmails(env: Env): Set<string> {
  return new Set(
    (env.ADMIN_EMAILS ?? "")
      .split(",")
      .map((e) => normalizeEmail(e))
      .filter(Boolean),
  );
}
