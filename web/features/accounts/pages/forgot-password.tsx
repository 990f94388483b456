// /forgot-password: asks the auth service to email a reset link that comes back to /reset-password.
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Alert } from "../../../design/alert";
import { AuthLayout } from "../auth-layout";
import { Button } from "../../../design/button";
import { EmailField } from "../../../design/text-field";
import { getAuthClient } from "../../../lib/auth-client";
import "../account.css";

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const address = email.trim();
    setBusy(true);
    setError(null);
    try {
      const { error: recoverError } = await getAuthClient().resetPasswordForEmail(address, {
        redirectTo: `${window.location.origin}/reset-password`,
      });
      if (recoverError) setError(recoverError.message || "Could not send the reset link. Please try again.");
      else setSentTo(address);
    } catch (err) {
      setError((err as Error).message || "Could not send the reset link. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  if (sentTo) {
    return (
      <AuthLayout title="Check your email">
        <Alert tone="success">If an account exists for {sentTo}, we sent a link to reset the password.</Alert>
        <p className="auth-alt">
          <Link to="/login">Back to sign in</Link>
        </p>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Reset your password" subtitle="Enter the email you signed up with and we'll send you a reset link.">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <form className="form" onSubmit={handleSubmit}>
        <EmailField value={email} onChange={(e) => setEmail(e.target.value)} />
        <Button type="submit" variant="primary" size="lg" block busy={busy}>
          {busy ? "Sending..." : "Send reset link"}
        </Button>
      </form>
      <p className="auth-alt">
        Remembered it? <Link to="/login">Back to sign in</Link>
      </p>
    </AuthLayout>
  );
}
