// The chats' audit block (issue 18) without reading the audit on every message (issue 26): a finished audit's block is
// written once from its steps and stored (audit_chat_blocks); a message reads that one row in its first batch.
import { buildAuditView } from "../audits";
import { storeAuditChatBlock, type AuditRow } from "../audits";
import type { ChatAuditRead } from "./queries";
import type { Db } from "../../platform/db/client";
import { findingsChatBlock } from "../reports/rules/findings";
import { log } from "../../platform/log";
import { listingsChatText } from "../citations";
import { aiVisibilityChatText } from "../ai-visibility";

/** The block for the system prompt, and the finished audit it should be stored for (null: stored already, or unfinished). */
export type ChatAuditBlock = { text: string; store: { audit: AuditRow; text: string } | null };

/**
 * The block from what the chat's batch read. Written from the public view for both chats: the block takes nothing
 * the two views differ in (the prospect id, the listing candidates), and a field added to the admin's view later
 * would then reach the admin's chat a little less, never the public one.
 */
export function chatAuditBlock(read: ChatAuditRead, reportId: string): ChatAuditBlock {
  // The scan's "Listings" lines follow the audit's; the stored block stays the audit's alone (a scan changes apart from it).
  const block = auditBlockOf(read, reportId);
  // …and so do AI Visibility's lines (issue 29).
  const extra = [listingsChatText(read.listingChecks), aiVisibilityChatText(read.aiScan)].filter(Boolean).join("\n\n");
  return extra ? { ...block, text: block.text ? `${block.text}\n\n${extra}` : extra } : block;
}

function auditBlockOf(read: ChatAuditRead, reportId: string): ChatAuditBlock {
  if (!read.audit) return { text: findingsChatBlock(null), store: null };
  if (read.chatBlock !== null) return { text: read.chatBlock, store: null };
  try {
    const text = findingsChatBlock(buildAuditView(read.audit, read.steps, null, { publicView: true }));
    return { text, store: read.audit.status === "done" && read.audit.finishedAt ? { audit: read.audit, text } : null };
  } catch (error) {
    log.warn("chat: audit not loaded", { reportId }, error);
    return { text: "", store: null };
  }
}

/** Stores a freshly written block (after the answer; a failure only means the next message writes it again). */
export function storeChatAuditBlock(db: Db, block: ChatAuditBlock): Promise<void> {
  if (!block.store) return Promise.resolve();
  const { audit, text } = block.store;
  return storeAuditChatBlock(db, audit, text).catch((error: unknown) => log.warn("chat: audit block not stored", { auditId: audit.id }, error));
}
