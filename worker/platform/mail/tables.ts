// The mail's table: every message the app sends (the outbox).
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { attemptsColumn } from "../jobs/columns";
import { id, createdAt } from "../db/columns";

export const MAIL_STATUSES = ["kept", "queued", "sent", "failed"] as const;
/**
 * Every message the app sends. Without a mail provider it stays here ("kept"); with one it is
 * "queued" on mail-out and ends "sent" or "failed" (a permanent refusal, with its reason). Its
 * one-time links are redacted once it has left (or at once outside local development when kept).
 */
export const outbox = sqliteTable(
  "outbox",
  {
    id: id(),
    toEmail: text("to_email").notNull(),
    subject: text("subject").notNull(),
    /** The plain-text part. */
    body: text("body").notNull(),
    /** The HTML part (null for mail kept before it existed). */
    html: text("html"),
    /** The template: confirm_signup, reset_password, email_change … */
    kind: text("kind"),
    status: text("status", { enum: MAIL_STATUSES }).notNull().default("kept"),
    attempts: attemptsColumn(),
    lastError: text("last_error"),
    providerMessageId: text("provider_message_id"),
    sentAt: text("sent_at"),
    /** One message per key at most: a send retried after a crash skips the recipients it reached (null: no key). */
    dedupeKey: text("dedupe_key"),
    /** Extra message headers as JSON (List-Unsubscribe on report mail); null: none. */
    headers: text("headers"),
    createdAt: createdAt(),
  },
  (t) => [
    index("outbox_to_idx").on(t.toEmail, t.createdAt),
    index("outbox_status_idx").on(t.status, t.createdAt),
    uniqueIndex("outbox_dedupe_key_idx").on(t.dedupeKey),
  ],
);
