// What an admin screen shows when the server says the (viewed) user is not an admin, with the way back; and the
// walk-through for an admin who must set up two-factor sign-in first (REQUIRE_ADMIN_MFA).
import { Link, useNavigate } from "react-router";
import { clearViewAs, useViewAs } from "../lib/view-as";
import { ShieldIcon } from "../design/icons";
import { Button, buttonClass } from "../design/button";
import { Placeholder } from "../design/placeholder";

/** Ends the view and goes back to the admin's own dashboard. */
export function ReturnToAdminButton() {
  const navigate = useNavigate();
  return (
    <Button
      variant="primary"
      onClick={() => {
        clearViewAs();
        navigate("/dashboard");
      }}
    >
      Return to Admin Account
    </Button>
  );
}

export function AdminAccessRequired() {
  const viewAs = useViewAs();
  return (
    <Placeholder icon={ShieldIcon} title="Admin Access Required">
      <p className="placeholder-text">You need administrator privileges to access this page.</p>
      {viewAs ? (
        <>
          <p className="placeholder-text">
            You are viewing the product as {viewAs.viewingUserEmail || "Unknown Email"}, who is not an administrator.
          </p>
          <ReturnToAdminButton />
        </>
      ) : null}
    </Placeholder>
  );
}

/**
 * Admin pages while the admin's session has no two-factor step: why, and the three steps to get there
 * (the Account page enrols the app and raises this session; later sign-ins ask for the code).
 */
export function AdminMfaRequired() {
  return (
    <Placeholder icon={ShieldIcon} title="Set up two-factor sign-in">
      <p className="placeholder-text">
        Admins can see every prospect and view the product as any user, so admin pages need a second step at sign-in: a
        6-digit code from an authenticator app on your phone.
      </p>
      <ol className="placeholder-text placeholder-steps">
        <li>Install an authenticator app (Google Authenticator, 1Password, Authy or similar).</li>
        <li>On your Account page, choose Set up authenticator app and scan the QR code.</li>
        <li>Enter the 6-digit code it shows. This page opens as soon as the code is accepted.</li>
      </ol>
      <Link to="/settings/account#two-factor" className={buttonClass("primary")}>
        Go to Account
      </Link>
    </Placeholder>
  );
}
