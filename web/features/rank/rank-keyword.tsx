// What the tracker's list and a keyword's page share (issue 19): the alert badges, when the next check runs, the
// pause/resume button and the delete confirmation.
import { useState } from "react";
import type { AlertReason } from "../../../worker/features/rank/rules/tracker";
import type { TrackedKeywordView } from "../../../worker/features/rank/rules/view";
import { formatDateTime } from "../../lib/format-date";
import { awaitingFirstCheck, useDeleteKeyword, useUpdateKeyword } from "./queries";
import { Alert } from "../../design/alert";
import { Badge } from "../../design/badge";
import { Button } from "../../design/button";
import { TrashIcon } from "../../design/icons";
import { ConfirmModal } from "../../design/modal";
import "./rank.css";

export const ALERT_LABELS: Record<AlertReason, string> = {
  dropped: "Dropped 3+ positions",
  left_top3: "Left the top 3",
};

export function AlertBadges({ alerts }: { alerts: readonly AlertReason[] }) {
  return alerts.map((a) => (
    <Badge key={a} tone="danger">
      {ALERT_LABELS[a]}
    </Badge>
  ));
}

export function nextCheckText(k: Pick<TrackedKeywordView, "paused" | "nextCheckAt" | "frequency" | "spark" | "map" | "organic">): string {
  if (k.paused) return "Not checked while paused";
  if (awaitingFirstCheck(k)) return "First check under way";
  return k.nextCheckAt ? `Next ${k.frequency} check ${formatDateTime(k.nextCheckAt)}` : `Checked ${k.frequency}`;
}

/** Pause/resume and delete (with its confirmation) for one keyword; `onDeleted` after the delete lands. */
export function KeywordActions({ keyword, readOnly, onDeleted }: { keyword: TrackedKeywordView; readOnly: boolean; onDeleted?: () => void }) {
  const update = useUpdateKeyword();
  const remove = useDeleteKeyword();
  const [confirming, setConfirming] = useState(false);
  const error = update.error ?? remove.error;
  return (
    <div className="rank-row-actions">
      <Button size="sm" variant="ghost" disabled={readOnly} busy={update.isPending} onClick={() => update.mutate({ id: keyword.id, paused: !keyword.paused })}>
        {keyword.paused ? "Resume" : "Pause"}
      </Button>
      <Button size="sm" variant="ghost" disabled={readOnly} onClick={() => setConfirming(true)} aria-label={`Delete ${keyword.keyword}`}>
        <TrashIcon size="sm" />
        Delete
      </Button>
      {error && !confirming ? <Alert tone="error">{error.message}</Alert> : null}
      {confirming ? (
        <ConfirmModal
          title="Delete keyword"
          tone="danger"
          icon={<TrashIcon />}
          busy={remove.isPending}
          onClose={() => setConfirming(false)}
          confirmLabel="Delete"
          onConfirm={() =>
            remove.mutate(keyword.id, {
              onSuccess: () => {
                setConfirming(false);
                onDeleted?.();
              },
            })
          }
        >
          <p>Stop tracking this keyword and delete its whole history? This cannot be undone.</p>
          <p className="modal-subject">{keyword.keyword}</p>
          {remove.error ? <Alert tone="error">{remove.error.message}</Alert> : null}
        </ConfirmModal>
      ) : null}
    </div>
  );
}
