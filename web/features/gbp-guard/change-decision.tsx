// One change the guard found: the two values side by side (the owner's and Google's, or before and after an outside
// edit), Accept and Reject; a value the risk check warns about is sent only after the person reads why and confirms.
import { useState } from "react";
import type { EditRisk } from "../../../worker/features/gbp-guard/rules/risk";
import { Alert } from "../../design/alert";
import { Button } from "../../design/button";
import { AlertTriangleIcon } from "../../design/icons";
import { ConfirmModal } from "../../design/modal";
import { ApiError } from "../../lib/api";
import { useGuardDecision } from "./queries";
import "./gbp-guard.css";

export type DecidableChange = { changeId: string; beforeText: string; afterText: string; source: string };

export function ChangeDecision({ change, readOnly, onDecided }: { change: DecidableChange; readOnly: boolean; onDecided?: () => unknown }) {
  const decide = useGuardDecision(onDecided);
  const [risky, setRisky] = useState<{ decision: "accept" | "reject"; risks: EditRisk[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const outside = change.source === "outside";
  const send = (decision: "accept" | "reject", confirmRisks = false) => {
    setError(null);
    decide.mutate(
      { changeId: change.changeId, decision, confirmRisks },
      {
        onSuccess: () => setRisky(null),
        onError: (e) => {
          if (e instanceof ApiError && e.code === "edit_risky") setRisky({ decision, risks: (e.details.risks as EditRisk[] | undefined) ?? [] });
          else setError(e.message);
        },
      },
    );
  };
  return (
    <div className="guard-change">
      <dl className="guard-sides">
        <div>
          <dt>{outside ? "Before" : "Your value"}</dt>
          <dd>{change.beforeText || "(none)"}</dd>
        </div>
        <div>
          <dt>{outside ? "Changed to" : "Google's value"}</dt>
          <dd>{change.afterText || "(none)"}</dd>
        </div>
      </dl>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {readOnly ? null : (
        <div className="guard-actions">
          <Button size="sm" variant="secondary" busy={decide.isPending} onClick={() => send("accept")}>
            {outside ? "Keep the change" : "Accept Google's value"}
          </Button>
          <Button size="sm" variant="primary" busy={decide.isPending} onClick={() => send("reject")}>
            {outside ? "Put it back" : "Reject: keep yours"}
          </Button>
        </div>
      )}
      {risky ? (
        <ConfirmModal
          title="This edit could get the profile suspended"
          icon={<AlertTriangleIcon />}
          confirmLabel="Send it anyway"
          busy={decide.isPending}
          onClose={() => setRisky(null)}
          onConfirm={() => send(risky.decision, true)}
        >
          <ul className="guard-risks">
            {risky.risks.map((r) => (
              <li key={r.code}>{r.message}</li>
            ))}
          </ul>
        </ConfirmModal>
      ) : null}
    </div>
  );
}
