// The two-factor code form: one 6-digit field, checked by auth-js's mfa.challengeAndVerify; sign-in, password reset and
// enrolment use it. Where the person may have lost the phone (sign-in, reset) it offers a one-time recovery code instead.
import { useState, type ChangeEvent, type FormEvent, type ReactNode } from "react";
import { RecoveryCode, TotpCode } from "../../../worker/features/accounts/rules/account";
import { getAuthClient } from "../../lib/auth-client";
import { RECOVERY_PROMPT, TOTP_PROMPT, recoveryErrorMessage, totpErrorMessage } from "./auth-messages";
import { verifyRecoveryCode } from "./queries";
import { Alert } from "../../design/alert";
import { Button } from "../../design/button";
import { TextField } from "../../design/text-field";
import "./account.css";
import { checkField } from "../../lib/check-field";

type Props = {
  /** The factor to verify; by default the account's first verified TOTP factor. */
  factorId?: string;
  submitLabel?: string;
  busyLabel?: string;
  /** Called once the code is accepted (the session is aal2 now); the form stays busy until it settles. */
  onVerified: (how: { recoveryCode: boolean }) => void | Promise<void>;
  /** Offer "Use a recovery code" (sign-in and password reset: where a lost phone leaves no other way in). */
  allowRecoveryCode?: boolean;
  /** Extra actions beside the submit button (e.g. Cancel). */
  children?: ReactNode;
  block?: boolean;
  /** False where the page already says what to enter (the sign-in step's subtitle). */
  showHint?: boolean;
};

export function TotpCodeForm({
  factorId,
  submitLabel = "Verify",
  busyLabel = "Verifying...",
  onVerified,
  children,
  block = false,
  showHint = true,
  allowRecoveryCode = false,
}: Props) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    if (recovery) return submitRecovery();
    const totp = checkField(TotpCode, code, setFieldError, TOTP_PROMPT);
    if (totp === null) return;
    setBusy(true);
    try {
      const client = getAuthClient();
      let id = factorId;
      if (!id) {
        const { data, error: listError } = await client.mfa.listFactors();
        if (listError) throw listError;
        id = data.totp[0]?.id;
      }
      if (!id) {
        setError("This account has no authenticator app set up.");
        return;
      }
      const { error: verifyError } = await client.mfa.challengeAndVerify({ factorId: id, code: totp });
      if (verifyError) {
        setError(totpErrorMessage(verifyError));
        setCode("");
        return;
      }
      await onVerified({ recoveryCode: false });
    } catch (err) {
      setError(totpErrorMessage(err as { message?: string; status?: number }));
    } finally {
      setBusy(false);
    }
  }

  async function submitRecovery() {
    const recoveryCode = checkField(RecoveryCode, code, setFieldError, RECOVERY_PROMPT);
    if (recoveryCode === null) return;
    setBusy(true);
    try {
      await verifyRecoveryCode(recoveryCode);
      await onVerified({ recoveryCode: true });
    } catch (err) {
      setError(recoveryErrorMessage(err as { code?: string; status?: number; message?: string }));
      setCode("");
    } finally {
      setBusy(false);
    }
  }

  function switchTo(next: boolean) {
    setRecovery(next);
    setCode("");
    setError(null);
    setFieldError(null);
  }

  // What the two code fields (an app's code, a recovery code) have in common.
  const codeField = { required: true, autoFocus: true, value: code, onChange: (e: ChangeEvent<HTMLInputElement>) => setCode(e.target.value), error: fieldError };
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Two-factor code">
      {error ? <Alert tone="error">{error}</Alert> : null}
      {recovery ? (
        <TextField
          key="recovery"
          label="Recovery code"
          name="recovery-code"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={20}
          placeholder="ABCDE-12345"
          {...codeField}
          hint={fieldError ? undefined : `${RECOVERY_PROMPT}.`}
        />
      ) : (
        <TextField
          key="totp"
          label="Authentication code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={7}
          placeholder="123456"
          {...codeField}
          hint={fieldError || !showHint ? undefined : `${TOTP_PROMPT}.`}
        />
      )}
      <div className={block ? undefined : "form-actions"}>
        <Button type="submit" variant="primary" size={block ? "lg" : "md"} block={block} busy={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
        {children}
      </div>
      {allowRecoveryCode ? (
        <p className="auth-alt">
          <Button variant="ghost" size="sm" onClick={() => switchTo(!recovery)}>
            {recovery ? "Use the code from your authenticator app" : "Lost your phone? Use a recovery code"}
          </Button>
        </p>
      ) : null}
    </form>
  );
}
