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
  return (
    <RecentList
      title="Recent"
      query={items}
      items={items.data?.items}
      remove={remove}
      texts={{
        loading: "Loading your recent results...",
        failed: "Failed to load your recent results: ",
        empty: "What you generate is kept here, to reopen, copy or delete later.",
        deleteFailed: "Failed to delete: ",
      }}
      meta={(item) => formatDateTime(item.created_at)}
      copyText={copyText}
      openId={openId}
      readOnly={readOnly}
      onOpen={onOpen}
      onDeleted={onDeleted}
    />
  );
}

type Kept = { id: string; title: string; created_at: string; source: string };

/** A list of kept results (a content tool's, the Facebook posts): loading, failure, empty, then one RecentItem each. */
export function RecentList<T extends Kept>({
  title,
  query,
  items,
  remove,
  texts,
  meta,
  copyText,
  openId,
  readOnly,
  onOpen,
  onDeleted,
}: {
  title: string;
  query: { isPending: boolean; isError: boolean; error: Error | null; refetch: () => unknown };
  items: readonly T[] | undefined;
  remove: { isPending: boolean; variables: unknown; mutateAsync: (id: string) => Promise<unknown> };
  /** `failed` and `deleteFailed` stand before the error's message. */
  texts: { loading: string; failed: string; empty: string; deleteFailed: string };
  meta: (item: T) => string;
  copyText: (item: T) => string;
  openId: string | null;
  readOnly: boolean;
  onOpen: (item: T) => void;
  onDeleted: (id: string) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  return (
    <PageSection title={<>{title} {items ? <span className="section-count">{items.length}</span> : null}</>}>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {query.isPending ? (
        <p className="muted" role="status">
          {texts.loading}
        </p>
      ) : query.isError || !items ? (
        <RetryAlert message={`${texts.failed}${query.error?.message ?? ""}`} onRetry={() => void query.refetch()} />
      ) : items.length === 0 ? (
        <p className="card card-pad muted">{texts.empty}</p>
      ) : (
        <ul className="recent-posts">
          {items.map((item) => (
            <RecentItem
              key={item.id}
              title={item.title}
              meta={meta(item)}
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
                  setError(`${texts.deleteFailed}${err instanceof Error ? err.message : "Unknown error"}`);
                }
              }}
            />
          ))}
        </ul>
      )}
    </PageSection>
  );
}
