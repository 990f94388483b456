// One kept result in a generator's 'Recent' list (the Facebook posts and the content suite's): title, when and how
// it was written, and Open / Copy (2-second feedback) / Delete.
import type { ReactNode } from "react";
import { Badge } from "../../design/badge";
import { Button } from "../../design/button";
import { TrashIcon } from "../../design/icons";
import "./content.css";
import { CopyButton } from "../reports";

type Props = {
  title: string;
  /** Shown under the title (when, and the kind of post). */
  meta: ReactNode;
  template: boolean;
  open: boolean;
  copyText: string;
  readOnly: boolean;
  deleting: boolean;
  onOpen: () => void;
  onDelete: () => void;
};

export function RecentItem({ title, meta, template, open, copyText, readOnly, deleting, onOpen, onDelete }: Props) {
  return (
    <li className={open ? "card recent-post is-open" : "card recent-post"}>
      <div className="recent-post-text">
        <p className="recent-post-title">{title}</p>
        <p className="post-meta">
          {meta} {template ? <Badge tone="soon">Template</Badge> : null}
        </p>
      </div>
      <div className="recent-post-actions">
        <Button size="sm" variant="ghost" onClick={onOpen} aria-label={`Open ${title}`}>
          Open
        </Button>
        <CopyButton text={copyText} label="Copy" copiedLabel="Copied" variant="ghost" />
        {readOnly ? null : (
          <Button size="sm" variant="ghost" aria-label={`Delete ${title}`} busy={deleting} onClick={onDelete}>
            <TrashIcon size="sm" />
          </Button>
        )}
      </div>
    </li>
  );
}
