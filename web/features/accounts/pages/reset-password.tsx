// /reset-password: where the emailed recovery link lands; after PASSWORD_RECOVERY the user sets a new password
// (first the two-factor code when the account has one: the server changes a password only in an aal2 session).
import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { Alert } from "../../../design/alert";
import { AuthLayout } from "../auth-layout";
import { Button } from "../../../design/button";
import { AuthLoadingScreen } from "../../../app/route-guards";
import { NewPasswordFields, useNewPassword } from "../new-password-fields";
import { TotpCodeForm } from "../totp-code-form";
import { useAuth } from "../../../lib/auth";
import { getAuthClient, linkError, openedFromRecoveryLink } from "../../../lib/auth-client";
import { TOTP_PROMPT } from "../auth-messages";
import "../account.css";

export default function ResetPasswordPage() {
  const { loading, session, passwordRecovery, needsCode } = useAuth();
  const navigate = useNavigate();
  const newPassword = useNewPassword();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (loading) return <AuthLoadingScreen />;

  const recovering = Boolean(session) && (passwordRecovery || openedFromRecoveryLink());
  if (!recovering) {
    return (
      <AuthLayout title="Reset link expired">
        <Alert tone="error" title={linkError() ?? "This password reset link is invalid or has expired."}>
          Request a new link to reset your password.
        </Alert>
        <Link to="/forgot-password" className="btn btn-primary btn-lg btn-block">
          Request a new link
        </Link>
        <p className="auth-alt">
          <Link to="/login">Back to sign in</Link>
        </p>
      </AuthLayout>
    );
  }

  if (needsCode) {
    return (
      <AuthLayout title="Two-factor sign-in" subtitle={`${TOTP_PROMPT} to choose a new password.`}>
        {/* Verifying raises this session to aal2; the auth state then shows the password form. */}
        <TotpCodeForm showHint={false} submitLabel="Continue" block allowRecoveryCode onVerified={() => undefined} />
      </AuthLayout>
    );
  }

  async function handleSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const password = newPassword.check();
    if (password === null) return;
    setBusy(true);
    setError(null);
    const { error: updateError } = await getAuthClient().updateUser({ password });
    if (updateError) {
      setError(updateError.message || "Could not update the password. Please try again.");
      setBusy(false);
      return;
    }
    navigate("/dashboard", { replace: true });
  }

  return (
    <AuthLayout title="Choose a new password" subtitle={session?.user.email ? `For ${session.user.email}` : undefined}>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <form className="form" onSubmit={handleSubmit}>
        <NewPasswordFields state={newPassword} />
        <Button type="submit" variant="primary" size="lg" block busy={busy}>
          {busy ? "Saving..." : "Update password"}
        </Button>
      </form>
    </AuthLayout>
  );
}
