// What visitors asked on the shared chat link, newest first; each opens in full with the lead's details on top.
import { useQuery } from "@tanstack/react-query";
import { formatCreated } from "../../lib/format-date";
import { conversationsQuery } from "../../queries/chat";
import { RetryAlert } from "../alert";
import { MailIcon, PhoneIcon, UsersIcon } from "../icons";

export function ConversationList({ reportId }: { reportId: string }) {
  const query = useQuery(conversationsQuery(reportId));
  const list = query.data?.conversations ?? [];
  return (
    <aside className="chat-side" aria-label="Conversations">
      <h2 className="chat-side-title">Conversations</h2>
      <p className="chat-side-hint">What prospects asked on the shared chat link.</p>
      {query.isPending ? <p className="chat-side-empty">Loading...</p> : null}
      {query.isError ? <RetryAlert message={query.error.message} onRetry={() => void query.refetch()} /> : null}
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
                    {formatCreated(c.last_message_at)} · {c.message_count} messages
                    {c.lead ? " · Lead" : ""}
                  </span>
                </summary>
                {c.lead ? (
                  <dl className="chat-lead" aria-label="Lead">
                    {c.lead.name ? (
                      <div>
                        <dt>
                          <UsersIcon size="sm" />
                          <span className="visually-hidden">Name</span>
                        </dt>
                        <dd>{c.lead.name}</dd>
                      </div>
                    ) : null}
                    {c.lead.phone ? (
                      <div>
                        <dt>
                          <PhoneIcon size="sm" />
                          <span className="visually-hidden">Phone</span>
                        </dt>
                        <dd>
                          <a href={`tel:${c.lead.phone.replace(/[^\d+]/g, "")}`}>{c.lead.phone}</a>
                        </dd>
                      </div>
                    ) : null}
                    {c.lead.email ? (
                      <div>
                        <dt>
                          <MailIcon size="sm" />
                          <span className="visually-hidden">Email</span>
                        </dt>
                        <dd>
                          <a href={`mailto:${c.lead.email}`}>{c.lead.email}</a>
                        </dd>
                      </div>
                    ) : null}
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
    </aside>
  );
}
