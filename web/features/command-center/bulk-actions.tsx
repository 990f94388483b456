// The clients view's bulk actions (issue 41): with clients selected, an action is chosen; the dialog shows one estimate
// for the whole selection (each client's cost, or why it cannot run) before anything starts, refuses what the
// allowance or the day's limit cannot pay for, and after the run says what started beside each client.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatCost } from "../../../worker/domain/usage-cost";
import { BULK_ACTION_LABELS, BULK_ACTIONS, type BulkAction, type BulkEstimate, type BulkItem } from "../../../worker/features/command-center/rules/bulk";
import { Alert } from "../../design/alert";
import { Button } from "../../design/button";
import { Options, SelectField } from "../../design/form-fields";
import { Modal } from "../../design/modal";
import { ApiError } from "../../lib/api";
import { bulkEstimate, useBulkRun } from "./queries";

const STATUS_TEXT: Record<BulkItem["status"], string> = {
  ready: "Ready",
  over_allowance: "Not enough allowance",
  skipped: "Cannot run",
  started: "Started",
  failed: "Did not start",
};

export function BulkBar({ selected, onClear }: { selected: string[]; onClear: () => void }) {
  const [action, setAction] = useState<BulkAction>("sync_reviews");
  const [open, setOpen] = useState(false);
  if (selected.length === 0) return null;
  return (
    <div className="cl-bulk" role="region" aria-label="Bulk actions">
      <strong>{selected.length} selected</strong>
      <SelectField label="Action" value={action} wide={false} onChange={(v) => setAction(v as BulkAction)}>
        <Options values={BULK_ACTIONS} label={(a) => BULK_ACTION_LABELS[a]} />
      </SelectField>
      <Button variant="primary" onClick={() => setOpen(true)}>
        Review cost…
      </Button>
      <Button variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
      {open ? (
        <BulkDialog
          action={action}
          userIds={selected}
          onClose={(done) => {
            setOpen(false);
            if (done) onClear();
          }}
        />
      ) : null}
    </div>
  );
}

function BulkDialog({ action, userIds, onClose }: { action: BulkAction; userIds: string[]; onClose: (done: boolean) => void }) {
  const estimate = useQuery({ queryKey: ["agency-clients-bulk", action, userIds], queryFn: () => bulkEstimate({ action, userIds }), gcTime: 0, staleTime: 0 });
  const run = useBulkRun();
  const refused = run.error instanceof ApiError && run.error.status === 402 ? (run.error.details.estimate as BulkEstimate | undefined) : undefined;
  const shown = run.data?.items ?? refused?.items ?? estimate.data?.items;
  const est = refused ?? estimate.data;
  const done = Boolean(run.data);
  const title = BULK_ACTION_LABELS[action];

  const footer = done ? (
    <Button variant="primary" onClick={() => onClose(true)}>
      Done
    </Button>
  ) : (
    <>
      <Button variant="ghost" onClick={() => onClose(false)} disabled={run.isPending}>
        Cancel
      </Button>
      <Button variant="primary" busy={run.isPending} disabled={!est?.allowed || Boolean(refused)} onClick={() => run.mutate({ action, userIds })}>
        {est?.allowed ? `Start for ${est.ready} client${est.ready === 1 ? "" : "s"}` : "Start"}
      </Button>
    </>
  );

  return (
    <Modal title={title} footer={footer} onClose={() => onClose(done)} busy={run.isPending}>
      {estimate.isPending ? <p role="status">Working out the cost for {userIds.length} clients…</p> : null}
      {estimate.isError ? <Alert tone="error">{`Could not work out the cost: ${estimate.error.message}`}</Alert> : null}
      {run.data ? (
        <p role="status">
          Started for {run.data.started} client{run.data.started === 1 ? "" : "s"}
          {run.data.failed ? `; ${run.data.failed} did not start` : ""}
          {run.data.skipped ? `; ${run.data.skipped} could not run` : ""}.
        </p>
      ) : est ? (
        <p role="status">
          {est.ready} of {est.items.length} client{est.items.length === 1 ? "" : "s"} ready · {est.costUsd > 0 ? `about ${formatCost(est.costUsd)} in all, from each client's own allowance` : "nothing from their AI allowance"}
        </p>
      ) : null}
      {run.error ? <Alert tone="error">{run.error.message}</Alert> : est?.refusal && !done ? <Alert tone="warning">{est.refusal.message}</Alert> : null}
      {shown ? (
        <ul className="cl-bulk-items">
          {shown.map((i) => (
            <li key={i.userId}>
              <span>
                <strong>{i.name}</strong>
                {i.message ? <span className="muted"> · {i.message}</span> : null}
                {i.status === "over_allowance" ? <span className="muted"> · {i.allowanceLeftUsd === null ? "" : `${formatCost(i.allowanceLeftUsd)} left`}</span> : null}
              </span>
              <span className={`cl-bulk-${i.status}`}>
                {STATUS_TEXT[i.status]}
                {i.status === "ready" && i.costUsd > 0 ? ` · ${formatCost(i.costUsd)}` : ""}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </Modal>
  );
}

