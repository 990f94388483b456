// /login: the sign-in form (spec §2 Sign-in, §8 wording), then the two-factor code when the account has one; a signed-in
// visitor goes to /dashboard.
import { useEffect, useState, type FormEvent } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { Alert } from "../../../design/alert";
import { AuthLayout } from "../auth-layout";
import { useBrand } from "../../brand";
import { Button } from "../../../design/button";
import { GuestOnly } from "../../../app/route-guards";
import { CurrentPasswordField, EmailField } from "../../../design/text-field";
import { TotpCodeForm } from "../totp-code-form";
import { useAuth } from "../../../lib/auth";
import { getAuthClient } from "../../../lib/auth-client";
import { ACCOUNT_DELETED_NOTICE, signInErrorMessage, TOTP_PROMPT } from "../auth-messages";
import "../account.css";

export default function LoginPage() {
  const brandName = useBrand().name;
  const navigate = useNavigate();
  const location = useLocation();
  const notice = new URLSearchParams(location.search).has("deleted") ? ACCOUNT_DELETED_NOTICE : null;
  const { needsCode, signOut } = useAuth();
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
      const { data: level } = await client.mfa.getAuthenticatorAssuranceLevel();
      // Two-factor sign-in: the page stays for the code (the auth state says so too).
      if (level?.nextLevel === "aal2" && level.currentLevel !== "aal2") {
        setBusy(false);
        return;
      }
      navigate("/dashboard", { replace: true });
    } catch (err) {
      setError(signInErrorMessage(err as { message?: string; status?: number }));
      setBusy(false);
    }
  }

  // Once at the code step the page stays there until the code's own navigation: the session turning aal2 must not
  // bounce the visitor to /dashboard before a recovery code's sign-in has sent them to the Account page.
  const [codeStep, setCodeStep] = useState(false);
  useEffect(() => {
    if (needsCode) setCodeStep(true);
  }, [needsCode]);

  if (needsCode || codeStep) {
    return (
      <GuestOnly hold>
        <AuthLayout title="Two-factor sign-in" subtitle={`${TOTP_PROMPT}.`}>
          <TotpCodeForm
            showHint={false}
            submitLabel="Sign in"
            busyLabel="Signing in..."
            block
            allowRecoveryCode
            // After a recovery code, the Account page: where the lost phone's app is removed and a new one set up.
            onVerified={({ recoveryCode }) => navigate(recoveryCode ? "/settings/account?recovered=1#two-factor" : "/dashboard", { replace: true })}
          />
          <p className="auth-alt">
            Not you?{" "}
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setCodeStep(false);
                void signOut();
              }}
            >
              Use another account
            </Button>
          </p>
        </AuthLayout>
      </GuestOnly>
    );
  }

  return (
    <GuestOnly hold={busy}>
      <AuthLayout title="Welcome back" subtitle={`Sign in to your ${brandName} account.`}>
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        {error ? <Alert tone="error">{error}</Alert> : null}
        <form className="form" onSubmit={handleSubmit}>
          <EmailField value={email} onChange={(e) => setEmail(e.target.value)} />
          <CurrentPasswordField
            label="Password"
            name="password"
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
