// What an admin screen shows when the server says the (viewed) user is not an admin, with the way back.
import { useNavigate } from "react-router";
import { clearViewAs, useViewAs } from "../lib/view-as";
import { ShieldIcon } from "./admin-icons";
import { Button } from "./button";

export function AdminAccessRequired() {
  const viewAs = useViewAs();
  const navigate = useNavigate();
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
          <Button
            variant="primary"
            onClick={() => {
              clearViewAs();
              navigate("/dashboard");
            }}
          >
            Return to Admin Account
          </Button>
        </>
      ) : null}
    </section>
  );
}
