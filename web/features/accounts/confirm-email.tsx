// "Send the link again" wherever the app says a confirmation link was sent (issue 39): the banner on every signed-in
// page while the address is unconfirmed, the sign-up done screen and "User already registered".
import { useState } from "react";
import { Alert } from "../../design/alert";
import { Button } from "../../design/button";
import { useAuth } from "../../lib/auth";
import { getAuthClient } from "../../lib/auth-client";
import { useViewAs } from "../../lib/view-as";
import { confirmEmailNotice, PAID_FEATURES_WAIT } from "../../../worker/features/profile/rules/profile";

type State = "idle" | "busy" | "sent" | "error";

/** Asks for the confirmation link again (auth-js `resend`); says when it went, or why not (too many tries). */
export function ResendLinkButton({ email }: { email: string }) {
  const [state, setState] = useState<State>("idle");
  const [error, setError] = useState<string | null>(null);

  async function resend() {
    setState("busy");
    setError(null);
    try {
      const { error: failed } = await getAuthClient().resend({ type: "signup", email });
      if (failed) {
        setError(failed.status === 429 ? "You asked for the link a few times already. Please wait a while and try again." : "The link could not be sent. Please try again.");
        setState("error");
        return;
      }
      setState("sent");
    } catch {
      setError("The link could not be sent. Please try again.");
      setState("error");
    }
  }

  return (
    <span className="resend-link">
      <Button size="sm" onClick={() => void resend()} busy={state === "busy"} disabled={state === "sent"}>
        {state === "sent" ? "Link sent" : "Send the link again"}
      </Button>
      {state === "sent" ? <span role="status"> We sent a new link to {email}. It works for a day.</span> : null}
      {error ? <span role="alert"> {error}</span> : null}
    </span>
  );
}

/**
 * The banner while the signed-in user's own address is unconfirmed (as the database says, GET /api/profile): what
 * waits on the link (paid features; admin rights for a listed address not yet admin) and the button.
 */
export function ConfirmEmailBanner() {
  const { user, isAdmin, emailUnconfirmed, adminAwaitsConfirmation } = useAuth();
  const viewAs = useViewAs();
  if (!emailUnconfirmed || viewAs || !user?.email) return null;
  return (
    <div className="dashboard-banner">
      <Alert tone="info" title="Confirm your email address">
        <p>{confirmEmailNotice(user.email, adminAwaitsConfirmation)}</p>
        {isAdmin ? null : <p>{PAID_FEATURES_WAIT}</p>}
        <p className="banner-actions">
          <ResendLinkButton email={user.email} />
        </p>
      </Alert>
    </div>
  );
}
