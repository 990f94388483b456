// The mail sender: every message is kept in the outbox table, with its one-time links redacted except in local development.
import { desc, eq } from "drizzle-orm";
import type { Db } from "./client";
import { log } from "../log";
import { outbox } from "./schema";

const LINK_TOKEN = /([?&](?:token|token_hash)=)[^&\s#]+/g;

/** A mail body with the secrets of its links (recovery, confirmation) replaced. */
export function redactMail(body: string): string {
  return body.replace(LINK_TOKEN, "$1[redacted]");
}

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

export interface MailSender {
  send(mail: Mail): Promise<void>;
}

/**
 * Default sender: no mail provider is configured, so mail is stored for the operator. Its links are
 * kept readable only for local development on a loopback host (`readable`), where the developer is
 * the only recipient; anywhere else they are redacted before they are stored. Logs name the subject only.
 */
export function outboxSender(db: Db, opts: { readable: boolean }): MailSender {
  return {
    async send(mail) {
      await db.insert(outbox).values({
        id: crypto.randomUUID(),
        toEmail: mail.to,
        subject: mail.subject,
        body: opts.readable ? mail.body : redactMail(mail.body),
      });
      log.info("mail kept in the outbox", { subject: mail.subject });
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
