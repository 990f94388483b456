// What an admin screen shows when the server says the (viewed) user is not an admin, with the way back.
import { useNavigate } from "react-router";
import { clearViewAs, useViewAs } from "../lib/view-as";
import { ShieldIcon } from "./icons";
import { Button } from "./button";
import { Placeholder } from "./placeholder";

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
