// The mail sender: every message is kept in the outbox table (readable by admins) and logged.
import { desc, eq } from "drizzle-orm";
import type { Db } from "./client";
import { outbox } from "./schema";

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

export interface MailSender {
  send(mail: Mail): Promise<void>;
}

/** Default sender: no mail provider is configured, so mail is stored and logged for the operator. */
export function outboxSender(db: Db): MailSender {
  return {
    async send(mail) {
      await db.insert(outbox).values({
        id: crypto.randomUUID(),
        toEmail: mail.to,
        subject: mail.subject,
        body: mail.body,
      });
      console.log(`[mail] to=${mail.to} subject=${JSON.stringify(mail.subject)}\n${mail.body}`);
    },
  };
}

export async function listOutbox(db: Db, to?: string, limit = 50) {
  return db
    .select()
    .from(outbox)
    .where(to ? eq(outbox.toEmail, to) : undefined)
    .orderBy(desc(outbox.createdAt))
    .limit(limit);
}
