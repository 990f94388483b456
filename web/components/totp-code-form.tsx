// The two-factor code form: one 6-digit field, checked by auth-js's mfa.challengeAndVerify; sign-in, password reset, enrolment and the admin gate use it.
import { useState, type FormEvent, type ReactNode } from "react";
import { TotpCode } from "../../worker/domain/account";
import { getAuthClient } from "../lib/auth-client";
import { TOTP_PROMPT, totpErrorMessage } from "../lib/auth-messages";
import { Alert } from "./alert";
import { Button } from "./button";
import { TextField } from "./text-field";

type Props = {
  /** The factor to verify; by default the account's first verified TOTP factor. */
  factorId?: string;
  submitLabel?: string;
  busyLabel?: string;
  /** Called once the code is accepted (the session is aal2 now); the form stays busy until it settles. */
  onVerified: () => void | Promise<void>;
  /** Extra actions beside the submit button (e.g. Cancel). */
  children?: ReactNode;
  block?: boolean;
  /** False where the page already says what to enter (the sign-in step's subtitle). */
  showHint?: boolean;
};

export function TotpCodeForm({ factorId, submitLabel = "Verify", busyLabel = "Verifying...", onVerified, children, block = false, showHint = true }: Props) {
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    const parsed = TotpCode.safeParse(code);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? TOTP_PROMPT);
      return;
    }
    setFieldError(null);
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
      const { error: verifyError } = await client.mfa.challengeAndVerify({ factorId: id, code: parsed.data });
      if (verifyError) {
        setError(totpErrorMessage(verifyError));
        setCode("");
        return;
      }
      await onVerified();
    } catch (err) {
      setError(totpErrorMessage(err as { message?: string; status?: number }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Two-factor code">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <TextField
        label="Authentication code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={7}
        placeholder="123456"
        required
        autoFocus
        value={code}
        onChange={(e) => setCode(e.target.value)}
        hint={fieldError || !showHint ? undefined : `${TOTP_PROMPT}.`}
        error={fieldError}
      />
      <div className={block ? undefined : "form-actions"}>
        <Button type="submit" variant="primary" size={block ? "lg" : "md"} block={block} busy={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
        {children}
      </div>
    </form>
  );
}
