// Sending mail from the app: with a provider configured, stored and put on the mail-out queue; without one, kept in the outbox as before.
import { loadBrand } from "../brand/load";
import type { Db } from "../db/client";
import { keepMail, queueMail, recordMailError, type StoredMail } from "./outbox";
import type { Env } from "../env";
import { log } from "../log";
import { mailConfig } from "../providers/mail";
import { relativeMailLinks, RelativeMailLinkError } from "./links";
import { renderMail, type MailInput, type MailKind } from "./templates";

export interface SendOptions {
  /** Local development on a loopback host: kept mail keeps its links readable (GET /auth/v1/outbox). */
  readable: boolean;
}

/**
 * Sends one message of `kind`. With MAIL_PROVIDER the message is stored (`queued`) and its id goes on
 * mail-out, whose consumer delivers it once; without, it is kept in the outbox as local development
 * and operators without mail have it. Logs name the kind, never the link. The message carries the agency's brand.
 */
export async function sendAppMail(env: Env, db: Db, kind: MailKind, input: MailInput, opts: SendOptions & { dedupeKey?: string; headers?: Record<string, string> }): Promise<void> {
  const rendered = renderMail(kind, input, await loadBrand(db));
  await sendStoredMail(env, db, { to: input.to, subject: rendered.subject, text: rendered.text, html: rendered.html, kind, dedupeKey: opts.dedupeKey, headers: opts.headers }, opts);
}

/** The same for a message rendered by its caller (a business's own review request): kept, or stored and queued. */
export async function sendStoredMail(env: Env, db: Db, mail: StoredMail, opts: SendOptions): Promise<void> {
  const kind = mail.kind;
  // A relative link is the caller's bug (its origin was ""): refused here, so no kind of mail can carry one.
  const relative = relativeMailLinks(mail);
  if (relative.length > 0) throw new RelativeMailLinkError(kind, relative);
  if (!mailConfig(env)) {
    if (await keepMail(db, mail, opts)) log.info("mail kept in the outbox", { kind });
    else log.info("mail stored before under its key: not kept again", { kind });
    return;
  }
  const mailId = await queueMail(db, mail);
  if (!mailId) {
    log.info("mail stored before under its key: not sent again", { kind });
    return;
  }
  try {
    await env.MAIL_OUT.send({ mailId });
    log.info("mail queued", { kind, mailId });
  } catch (e) {
    // The row stays queued with the reason, for the operator (GET /api/admin/outbox); the request itself goes on.
    log.error("mail could not be queued", { kind, mailId }, e);
    await recordMailError(db, mailId, `not queued: ${String(e)}`);
  }
}
