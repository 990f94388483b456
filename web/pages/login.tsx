// /login: the sign-in form (spec §2 Sign-in, §8 wording); a signed-in visitor goes to /dashboard.
import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { Alert } from "../components/alert";
import { AuthLayout } from "../components/auth-layout";
import { Button } from "../components/button";
import { GuestOnly } from "../components/route-guards";
import { EmailField, TextField } from "../components/text-field";
import { getAuthClient } from "../lib/auth-client";
import { signInErrorMessage } from "../lib/auth-messages";

export default function LoginPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const client = getAuthClient();
      const { error: signInError } = await client.signInWithPassword({ email: email.trim(), password });
      if (signInError) {
        setError(signInErrorMessage(signInError));
        setBusy(false);
        return;
      }
      await client.refreshSession();
      navigate("/dashboard", { replace: true });
    } catch (err) {
      setError(signInErrorMessage(err as { message?: string; status?: number }));
      setBusy(false);
    }
  }

  return (
    <GuestOnly hold={busy}>
      <AuthLayout title="Welcome back" subtitle="Sign in to your Porchlight account.">
        {error ? <Alert tone="error">{error}</Alert> : null}
        <form className="form" onSubmit={handleSubmit}>
          <EmailField value={email} onChange={(e) => setEmail(e.target.value)} />
          <TextField
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aside={<Link to="/forgot-password">Forgot your password?</Link>}
          />
          <Button type="submit" variant="primary" size="lg" block busy={busy}>
            {busy ? "Signing in..." : "Sign in"}
          </Button>
        </form>
        <p className="auth-alt">
          Don't have an account? <Link to="/signup">Sign up</Link>
        </p>
      </AuthLayout>
    </GuestOnly>
  );
}
