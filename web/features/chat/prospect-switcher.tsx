// The admin chat's side list of every prospect's report, searchable on the server, newest first.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useDebounced } from "../../lib/use-timed-message";
import { chatSwitcherQuery } from "./queries";
import { RetryAlert } from "../../design/alert";
import { SearchField } from "../../design/search-field";
import "./chat.css";

export function ProspectSwitcher({ currentId, onPick }: { currentId: string; onPick: (reportId: string) => void }) {
  const [q, setQ] = useState("");
  const settled = useDebounced(q.trim());
  const query = useQuery({ ...chatSwitcherQuery(settled), placeholderData: keepPreviousData });
  const withReports = (query.data?.prospects ?? []).filter((p) => p.report);
  return (
    <aside className="chat-side" aria-label="Switch prospect">
      <h2 className="chat-side-title">Switch prospect</h2>
      <SearchField value={q} onChange={setQ} label="Search prospects" placeholder="Search prospects..." />
      {query.isError ? <RetryAlert message={query.error.message} onRetry={() => void query.refetch()} /> : null}
      {query.isPending ? <p className="chat-side-empty">Loading...</p> : null}
      {query.isSuccess && withReports.length === 0 ? (
        <p className="chat-side-empty">{settled ? `No results found for "${settled}".` : "No prospects have been created yet."}</p>
      ) : null}
      <ul className="chat-side-list">
        {withReports.map((p) => (
          <li key={p.id}>
            <button
              type="button"
              className="chat-side-item"
              aria-current={p.report!.id === currentId || undefined}
              onClick={() => onPick(p.report!.id)}
            >
              <span className="chat-side-name">{p.name}</span>
              <span className="chat-side-meta">{[p.keyword, p.area].filter(Boolean).join(" · ")}</span>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
