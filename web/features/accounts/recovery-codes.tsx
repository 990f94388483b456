// Two-factor recovery codes on the Account page: how many are left, a new set (shown once, with copy and download), and
// the warning when few remain. The codes live only in this component's state until "I saved them".
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { RECOVERY_CODE_COUNT } from "../../../worker/features/accounts/rules/account";
import { copyText, COPIED_MS } from "../../lib/copy-buttons";
import { downloadText } from "../../lib/download";
import { formatCreated } from "../../lib/format-date";
import { recoveryCodesQuery, useCreateRecoveryCodes, type RecoveryCodeSet } from "./queries";
import { Alert, RetryAlert } from "../../design/alert";
import { Button } from "../../design/button";
import { CheckIcon, CopyIcon, DownloadIcon } from "../../design/icons";
import "./account.css";
import { useFlag } from "../reports";
import { useBrand } from "../brand";

/** Few enough left that the panel says to make new ones. */
const LOW = 3;

const reason = (error: unknown) => (error as { message?: string } | null)?.message || "Something went wrong. Please try again.";

/** The set just made, shown once: copy, download, then gone. */
export function NewRecoveryCodes({ set, email, onDone }: { set: RecoveryCodeSet; email: string; onDone: () => void }) {
  const brandName = useBrand().name;
  const [copied, flashCopied] = useFlag(COPIED_MS);
  const text = set.codes.join("\n");
  return (
    <div className="recovery-new" role="group" aria-label="Your new recovery codes">
      <Alert tone="warning" title="Save these codes now">
        They are shown only this once. Each code works once, in place of the 6-digit code, if you lose your phone. Keep
        them somewhere safe, away from your password.
      </Alert>
      <ol className="recovery-list" data-testid="recovery-codes">
        {set.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="form-actions">
        <Button onClick={() => void copyText(text).then((ok) => ok && flashCopied())}>
          {copied ? <CheckIcon size="sm" /> : <CopyIcon size="sm" />} {copied ? "Copied" : "Copy"}
        </Button>
        <Button
          onClick={() =>
            downloadText(
              `${brandName} recovery codes for ${email}\nMade ${formatCreated(set.created_at)}. Each code works once.\n\n${text}\n`,
              "porchlight-recovery-codes.txt",
              "text/plain;charset=utf-8",
            )
          }
        >
          <DownloadIcon size="sm" /> Download
        </Button>
        <Button variant="primary" onClick={onDone}>
          I saved them
        </Button>
      </div>
    </div>
  );
}

export function RecoveryCodesPanel({ email, fresh, onFresh }: { email: string; fresh: RecoveryCodeSet | null; onFresh: (set: RecoveryCodeSet | null) => void }) {
  const status = useQuery(recoveryCodesQuery());
  const create = useCreateRecoveryCodes();
  const [confirming, setConfirming] = useState(false);

  async function make() {
    setConfirming(false);
    try {
      onFresh(await create.mutateAsync());
    } catch {
      /* shown below from create.error */
    }
  }

  let body;
  if (fresh) body = <NewRecoveryCodes set={fresh} email={email} onDone={() => onFresh(null)} />;
  else if (status.isPending) {
    body = (
      <p className="field-hint" role="status">
        <span className="spinner" aria-hidden="true" /> Loading your recovery codes...
      </p>
    );
  } else if (status.isError) {
    body = <RetryAlert message={`Failed to load your recovery codes: ${reason(status.error)}`} onRetry={() => void status.refetch()} />;
  } else {
    const { total, remaining, created_at: createdAt } = status.data;
    body = (
      <>
        {total === 0 ? (
          <p className="field-hint">No recovery codes yet. If you lose your phone, a recovery code is the only way back in.</p>
        ) : remaining <= LOW ? (
          <Alert tone="warning" title={remaining === 0 ? "No recovery codes left" : `Only ${remaining} recovery ${remaining === 1 ? "code" : "codes"} left`}>
            Make a new set so you can still sign in if you lose your phone.
          </Alert>
        ) : (
          <p className="field-hint">
            {remaining} of {total} recovery codes left{createdAt ? `, made ${formatCreated(createdAt)}` : ""}.
          </p>
        )}
        {create.isError ? <Alert tone="error">{reason(create.error)}</Alert> : null}
        {confirming ? (
          <Alert tone="warning" title="Make a new set?">
            <p>The codes you have now stop working at once.</p>
            <p className="banner-actions">
              <Button size="sm" variant="primary" busy={create.isPending} onClick={() => void make()}>
                Make new codes
              </Button>
              <Button size="sm" onClick={() => setConfirming(false)}>
                Keep my codes
              </Button>
            </p>
          </Alert>
        ) : (
          <div className="form-actions">
            <Button variant={total === 0 ? "primary" : "secondary"} busy={create.isPending} onClick={() => (total === 0 ? void make() : setConfirming(true))}>
              {create.isPending ? "Making codes..." : total === 0 ? `Create ${RECOVERY_CODE_COUNT} recovery codes` : "Make new recovery codes"}
            </Button>
          </div>
        )}
      </>
    );
  }
  return (
    <div className="recovery-panel" aria-label="Recovery codes" role="group">
      <h3 className="recovery-title">Recovery codes</h3>
      {body}
    </div>
  );
}
