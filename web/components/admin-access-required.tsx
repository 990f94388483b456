// What an admin screen shows when the server says the (viewed) user is not an admin, with the way back.
import { useNavigate } from "react-router";
import { clearViewAs, useViewAs } from "../lib/view-as";
import { ShieldIcon } from "./icons";
import { Button } from "./button";

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
    <section className="card placeholder" aria-labelledby="admin-required-title">
      <span className="placeholder-icon">
        <ShieldIcon />
      </span>
      <h2 className="placeholder-title" id="admin-required-title">
        Admin Access Required
      </h2>
      <p className="placeholder-text">You need administrator privileges to access this page.</p>
      {viewAs ? (
        <>
          <p className="placeholder-text">
            You are viewing the product as {viewAs.viewingUserEmail || "Unknown Email"}, who is not an administrator.
          </p>
          <ReturnToAdminButton />
        </>
      ) : null}
    </section>
  );
}
