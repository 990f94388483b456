// The outbox table: every message the app sends, its delivery state, and its one-time links redacted once they need not be read.
import { and, desc, eq } from "drizzle-orm";
import { firstRow, type Db } from "../db/client";
import { defineJob } from "../jobs/claim";
import { outbox } from "./tables";

const LINK_TOKEN = /([?&](?:amp;)?(?:token|token_hash)=)[^&\s#"<]+/g;

/** A mail body (text or HTML) with the secrets of its links (recovery, confirmation) replaced. */
export function redactMail(body: string): string {
  return body.replace(LINK_TOKEN, "$1[redacted]");
}

export interface StoredMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  kind: string;
  /** At most one message per key (a send retried after a crash skips what it stored before). */
  dedupeKey?: string;
  /** Extra headers for the provider (List-Unsubscribe on report mail). */
  headers?: Record<string, string>;
}

const headersJson = (mail: StoredMail) => (mail.headers && Object.keys(mail.headers).length > 0 ? JSON.stringify(mail.headers) : null);

/** The stored headers of an outbox row (unreadable: none). */
export function mailHeaders(json: string | null | undefined): Record<string, string> | undefined {
  if (!json) return undefined;
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === "object" ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string")) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps a message no provider will deliver (status `kept`). Its links stay readable only for local
 * development on a loopback host (`readable`), where the developer is the only recipient.
 */
export async function keepMail(db: Db, mail: StoredMail, opts: { readable: boolean }): Promise<boolean> {
  const redact = (s: string) => (opts.readable ? s : redactMail(s));
  const rows = await db
    .insert(outbox)
    .values({
      id: crypto.randomUUID(),
      toEmail: mail.to,
      subject: mail.subject,
      body: redact(mail.text),
      html: redact(mail.html),
      kind: mail.kind,
      status: "kept",
      dedupeKey: mail.dedupeKey ?? null,
      headers: headersJson(mail),
    })
    .onConflictDoNothing()
    .returning({ id: outbox.id });
  return rows.length > 0;
}

/** Stores a message for the mail-out queue (status `queued`, links intact until it has left); its id, or null when its key was stored before. */
export async function queueMail(db: Db, mail: StoredMail): Promise<string | null> {
  const id = crypto.randomUUID();
  const rows = await db
    .insert(outbox)
    .values({ id, toEmail: mail.to, subject: mail.subject, body: mail.text, html: mail.html, kind: mail.kind, status: "queued", dedupeKey: mail.dedupeKey ?? null, headers: headersJson(mail) })
    .onConflictDoNothing()
    .returning({ id: outbox.id });
  return rows.length > 0 ? id : null;
}

export async function findMail(db: Db, id: string) {
  return firstRow(db, outbox, eq(outbox.id, id));
}

/**
 * A queued message as a job: one delivery attempt is claimed by compare-and-set on its attempt count, so of two
 * deliveries of the same queue message at once only one calls the provider. Nothing is won when the message is no
 * longer queued or another delivery claimed this attempt.
 */
export const mailJob = defineJob({
  table: outbox,
  rows: (id: string, seenAttempts: number) => and(eq(outbox.id, id), eq(outbox.attempts, seenAttempts)),
  status: { column: outbox.status, from: ["queued"] },
  attempts: outbox.attempts,
});

/** Records why a delivery attempt failed (the message stays queued for the next try). */
export async function recordMailError(db: Db, id: string, error: string) {
  await db.update(outbox).set({ lastError: error.slice(0, 500) }).where(and(eq(outbox.id, id), eq(outbox.status, "queued")));
}

/**
 * Ends a queued message: `sent` (with the provider's id) or `failed` (a permanent refusal, with its
 * reason). Its links are redacted at the same time: nobody needs to read them from here again.
 * Returns false when the message was no longer queued (another delivery ended it first).
 */
export async function finishMail(
  db: Db,
  row: { id: string; body: string; html: string | null },
  outcome: { status: "sent"; providerMessageId: string | null } | { status: "failed"; reason: string },
): Promise<boolean> {
  const now = new Date().toISOString();
  const done = await db
    .update(outbox)
    .set({
      status: outcome.status,
      body: redactMail(row.body),
      html: row.html === null ? null : redactMail(row.html),
      ...(outcome.status === "sent"
        ? { providerMessageId: outcome.providerMessageId, sentAt: now, lastError: null }
        : { lastError: outcome.reason }),
    })
    .where(and(eq(outbox.id, row.id), eq(outbox.status, "queued")))
    .returning({ id: outbox.id });
  return done.length > 0;
}

export async function listOutbox(db: Db, to?: string, limit = 50) {
  return db
    .select()
    .from(outbox)
    .where(to ? eq(outbox.toEmail, to) : undefined)
    .orderBy(desc(outbox.createdAt))
    .limit(limit);
}

