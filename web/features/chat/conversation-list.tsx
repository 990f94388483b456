// What visitors asked on the shared chat link: those who left contact details pinned on top, then newest first, a
// page at a time; each opens in full with the lead's details on top.
import { useInfiniteQuery } from "@tanstack/react-query";
import type { ComponentType } from "react";
import { CHAT_TEXT } from "../../../worker/features/chat/rules/chat";
import { formatCreated } from "../../lib/format-date";
import { conversationsQuery } from "./queries";
import { RetryAlert } from "../../design/alert";
import { Badge } from "../../design/badge";
import { Button } from "../../design/button";
import { IconFact } from "../../design/icon-fact";
import { MailIcon, PhoneIcon, UsersIcon } from "../../design/icons";
import "./chat.css";

export function ConversationList({ reportId }: { reportId: string }) {
  const query = useInfiniteQuery(conversationsQuery(reportId));
  const list = query.data?.pages.flatMap((p) => p.conversations) ?? [];
  return (
    <aside className="chat-side" aria-label="Conversations">
      <h2 className="chat-side-title">Conversations</h2>
      <p className="chat-side-hint">What prospects asked on the shared chat link.</p>
      {query.isPending ? <p className="chat-side-empty">Loading...</p> : null}
      {query.isError ? <RetryAlert message={CHAT_TEXT.refreshFailed} onRetry={() => void query.refetch()} /> : null}
      {query.isSuccess && list.length === 0 ? (
        <p className="chat-side-empty">No conversations yet. Share the chat link and they will appear here.</p>
      ) : null}
      <ul className="chat-side-list">
        {list.map((c) => {
          const first = c.messages.find((m) => m.role === "user")?.content ?? "";
          return (
            <li key={c.id}>
              <details className="chat-convo">
                <summary>
                  <span className="chat-side-name">{first || "(no question)"}</span>
                  <span className="chat-side-meta">
                    {c.pinned ? <Badge tone="new">Lead</Badge> : null} {formatCreated(c.last_message_at)} · {c.message_count} messages
                  </span>
                </summary>
                {c.lead ? (
                  <dl className="chat-lead" aria-label="Lead">
                    <LeadRow icon={UsersIcon} label="Name" value={c.lead.name} />
                    <LeadRow icon={PhoneIcon} label="Phone" value={c.lead.phone} href={c.lead.phone ? `tel:${c.lead.phone.replace(/[^\d+]/g, "")}` : undefined} />
                    <LeadRow icon={MailIcon} label="Email" value={c.lead.email} href={c.lead.email ? `mailto:${c.lead.email}` : undefined} />
                  </dl>
                ) : null}
                <ol className="chat-transcript">
                  {c.messages.map((m, i) => (
                    <li key={i} className={`is-${m.role}`}>
                      <span className="chat-who">{m.role === "user" ? "Visitor" : "Assistant"}</span>
                      <p>{m.content}</p>
                    </li>
                  ))}
                </ol>
              </details>
            </li>
          );
        })}
      </ul>
      {query.hasNextPage ? (
        <Button size="sm" block busy={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
          Show more conversations
        </Button>
      ) : null}
    </aside>
  );
}

function LeadRow({ icon, label, value, href }: { icon: ComponentType<{ size?: "sm" }>; label: string; value: string | null; href?: string }) {
  if (!value) return null;
  return (
    <IconFact icon={icon} label={label}>
      {href ? <a href={href}>{value}</a> : value}
    </IconFact>
  );
}
