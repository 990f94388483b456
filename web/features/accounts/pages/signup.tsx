// /signup: the sign-up form (spec §2 Sign-up, §8 wording); on success a green message, then /login after 2 s.
import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Alert } from "../../../design/alert";
import { ResendLinkButton } from "../confirm-email";
import { AuthLayout } from "../auth-layout";
import { useBrand } from "../../brand";
import { Button } from "../../../design/button";
import { GuestOnly } from "../../../app/route-guards";
import { EmailField, TextField } from "../../../design/text-field";
import { getAuthClient } from "../../../lib/auth-client";
import { useAuth } from "../../../lib/auth";
import { confirmEmailNotice } from "../../../../worker/features/profile/rules/profile";
import { MIN_PASSWORD_LENGTH, NewPassword, PASSWORD_HINT } from "../../../../worker/features/accounts/rules/account";
import { SIGNUP_REDIRECT_MS, signUpErrorMessage } from "../auth-messages";
import "../account.css";
import { checkField } from "../../../lib/check-field";

type Status = "idle" | "busy" | "success" | "error";

export default function SignupPage() {
  const brandName = useBrand().name;
  const navigate = useNavigate();
  // Read once the new session's profile arrives: whether admin rights (ADMIN_EMAILS) wait on the emailed link.
  const { adminAwaitsConfirmation } = useAuth();
  // An agency's invitation links here with the invited address filled in (issue 42).
  const [params] = useSearchParams();
  const [email, setEmail] = useState(() => params.get("email") ?? "");
  const [password, setPassword] = useState("");
  const [status, setStatus] = useState<Status>("idle");
  const [error, setError] = useState<string | null>(null);
  /** The address already has an account (issue 39): sign in, reset the password, or get the confirmation link again. */
  const [registered, setRegistered] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);

  useEffect(() => {
    if (status !== "success") return;
    const timer = setTimeout(() => navigate("/login"), SIGNUP_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [status, navigate]);

  async function handleSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (checkField(NewPassword, password, setPasswordError, PASSWORD_HINT) === null) return;
    setError(null);
    setRegistered(null);
    setStatus("busy");
    try {
      // is_admin is decided by the server (ADMIN_EMAILS), never sent from here.
      const { error: signUpError } = await getAuthClient().signUp({ email: email.trim(), password });
      if (signUpError) {
        if (signUpError.code === "user_already_exists") setRegistered(email.trim());
        setError(signUpErrorMessage(signUpError));
        setStatus("error");
        return;
      }
      setStatus("success");
    } catch (err) {
      setError(signUpErrorMessage(err as { message?: string; status?: number }));
      setStatus("error");
    }
  }

  const busy = status === "busy";
  return (
    // Sign-up signs the user in at once; the page stays to show its message before moving on.
    <GuestOnly hold={busy || status === "success"}>
      <AuthLayout title="Create your account" subtitle={`Start using ${brandName}'s AI marketing tools for free.`}>
        {status === "success" ? (
          <Alert tone="success">
            <p>Account created successfully. Redirecting...</p>
            <p>{confirmEmailNotice(email.trim(), adminAwaitsConfirmation)}</p>
            <p className="banner-actions">
              <ResendLinkButton email={email.trim()} />
            </p>
          </Alert>
        ) : null}
        {error && registered ? (
          <Alert tone="error" title="This email already has an account">
            <p>
              <Link to="/login">Sign in</Link> with it, or <Link to="/forgot-password">reset the password</Link> if you do not remember it. If
              the confirmation email never arrived, get a new link:
            </p>
            <p className="banner-actions">
              <ResendLinkButton email={registered} />
            </p>
          </Alert>
        ) : error ? (
          <Alert tone="error">{error}</Alert>
        ) : null}
        <form className="form" onSubmit={handleSubmit}>
          <EmailField value={email} onChange={(e) => setEmail(e.target.value)} disabled={status === "success"} />
          <TextField
            label="Password"
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              if (passwordError && NewPassword.safeParse(e.target.value).success) setPasswordError(null);
            }}
            hint={passwordError ? undefined : PASSWORD_HINT}
            error={passwordError}
            disabled={status === "success"}
          />
          <Button type="submit" variant="primary" size="lg" block busy={busy} disabled={status === "success"}>
            {busy ? "Signing up..." : "Sign up"}
          </Button>
        </form>
        <p className="auth-alt">
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      </AuthLayout>
    </GuestOnly>
  );
}
