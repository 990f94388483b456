// 'Recent' under each content tool: the tool's kept results, newest first, to reopen, copy (2-second feedback) or delete.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { ContentItem, ContentTool } from "../../../worker/features/content/rules/content";
import { formatDateTime } from "../../lib/format-date";
import { contentListQuery, useDeleteContent } from "./queries";
import { Alert, RetryAlert } from "../../design/alert";
import { RecentItem } from "./recent-item";
import "./content.css";
import { PageSection } from "../../design/page-section";

type Props = {
  tool: ContentTool;
  viewAsId: string | null;
  readOnly: boolean;
  openId: string | null;
  onOpen: (item: ContentItem) => void;
  onDeleted: (id: string) => void;
  copyText: (item: ContentItem) => string;
};

export function ContentRecent({ tool, viewAsId, readOnly, openId, onOpen, onDeleted, copyText }: Props) {
  const items = useQuery(contentListQuery(tool, viewAsId));
  const remove = useDeleteContent();
  const [error, setError] = useState<string | null>(null);
  const list = items.data?.items ?? [];
  return (
    <PageSection title={<>Recent {items.data ? <span className="section-count">{list.length}</span> : null}</>}>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {items.isPending ? (
        <p className="muted" role="status">
          Loading your recent results...
        </p>
      ) : items.isError ? (
        <RetryAlert message={`Failed to load your recent results: ${items.error.message}`} onRetry={() => void items.refetch()} />
      ) : list.length === 0 ? (
        <p className="card card-pad muted">What you generate is kept here, to reopen, copy or delete later.</p>
      ) : (
        <ul className="recent-posts">
          {list.map((item) => (
            <RecentItem
              key={item.id}
              title={item.title}
              meta={formatDateTime(item.created_at)}
              template={item.source === "template"}
              open={item.id === openId}
              copyText={copyText(item)}
              readOnly={readOnly}
              deleting={remove.isPending && remove.variables === item.id}
              onOpen={() => onOpen(item)}
              onDelete={async () => {
                setError(null);
                try {
                  await remove.mutateAsync(item.id);
                  onDeleted(item.id);
                } catch (err) {
                  setError(`Failed to delete: ${err instanceof Error ? err.message : "Unknown error"}`);
                }
              }}
            />
          ))}
        </ul>
      )}
    </PageSection>
  );
}
