// /reset-password: where the emailed recovery link lands; after PASSWORD_RECOVERY the user sets a new password.
import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { Alert } from "../components/alert";
import { AuthLayout } from "../components/auth-layout";
import { Button } from "../components/button";
import { LoadingScreen } from "../components/route-guards";
import { TextField } from "../components/text-field";
import { useAuth } from "../lib/auth";
import { getAuthClient, linkError, openedFromRecoveryLink } from "../lib/auth-client";
import { MIN_PASSWORD_LENGTH, PASSWORD_HINT } from "../lib/auth-messages";

export default function ResetPasswordPage() {
  const { loading, session, passwordRecovery } = useAuth();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<{ password?: string; confirm?: string }>({});

  if (loading) return <LoadingScreen fullscreen />;

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

  async function handleSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const problems: typeof fieldError = {};
    if (password.length < MIN_PASSWORD_LENGTH) problems.password = PASSWORD_HINT;
    else if (password !== confirm) problems.confirm = "Passwords do not match";
    setFieldError(problems);
    if (problems.password || problems.confirm) return;
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
        <TextField
          label="New password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint={fieldError.password ? undefined : PASSWORD_HINT}
          error={fieldError.password}
        />
        <TextField
          label="Confirm new password"
          type="password"
          name="confirm"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={fieldError.confirm}
        />
        <Button type="submit" variant="primary" size="lg" block busy={busy}>
          {busy ? "Saving..." : "Update password"}
        </Button>
      </form>
    </AuthLayout>
  );
}
