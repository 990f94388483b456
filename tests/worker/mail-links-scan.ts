// After each worker test file: every mail the outbox got in it (kept, queued or sent) is scanned, and a relative link
// fails the file (issue 39 item 18: "/shared/client-reports/…" in a mail opens nothing from a mail client). The check
// in the app (worker/platform/mail/send.ts) refuses such mail; this catches any path around it. A file empties the outbox
// before it starts (apply-migrations.ts), so each file answers for its own mail.
import { env } from "cloudflare:test";
import { afterAll, expect } from "vitest";
import { relativeMailLinks } from "../../worker/platform/mail/links";

afterAll(async () => {
  const { results } = await env.DB.prepare("select kind, subject, body, html from outbox").all<{ kind: string | null; subject: string; body: string; html: string | null }>();
  const relative = results.flatMap((m) => relativeMailLinks({ html: m.html, text: m.body }).map((link) => `${m.kind ?? "mail"} "${m.subject}": ${link}`));
  expect(relative, "every link in every mail is absolute").toEqual([]);
});
