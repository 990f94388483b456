// The 'View User Account' modal (spec §2, §4): starts a read-only view on the server, writes the local record, then goes to the dashboard after 1 s.
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { AdminUserDto } from "../../../worker/features/accounts/rules/admin-api";
import { ApiError } from "../../lib/api";
import { startViewAs } from "../../lib/view-as";
import { useStartServerViewAs } from "./users-queries";
import { EyeIcon } from "../../design/icons";
import { Alert } from "../../design/alert";
import { ConfirmModal } from "../../design/modal";

/** View-as redirect delay (spec §9). */
export const VIEW_AS_REDIRECT_MS = 1_000;
export const VIEW_SETUP_FAILED = "Failed to set up user view mode. Please try again.";

export function ViewAsModal({ user, adminId, onClose }: { user: AdminUserDto; adminId: string; onClose: () => void }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const startServerView = useStartServerViewAs();
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function start() {
    setBusy(true);
    setError(null);
    try {
      const { user: viewed } = await startServerView.mutateAsync(user.id);
      // The view starts as the product moves to the viewed dashboard: starting it reads every screen's data again
      // (web/app/app-layout.tsx), which would take this page, and this dialog's timer, away before it moves.
      timer.current = setTimeout(() => {
        startViewAs({
          adminId,
          viewingUserId: viewed.id,
          viewingUserEmail: viewed.email ?? "",
          viewingUserDetails: {
            company_name: viewed.company_name,
            company_website: viewed.company_website,
            company_phone: viewed.company_phone,
            company_location: viewed.company_location,
            company_email: viewed.company_email,
            company_category: viewed.company_category,
            company_description: viewed.company_description,
            company_logo_url: viewed.company_logo_url,
            is_admin: viewed.is_admin,
          },
        });
        navigate(`/dashboard?view_as=${encodeURIComponent(viewed.id)}`);
      }, VIEW_AS_REDIRECT_MS);
    } catch (err) {
      setBusy(false);
      setError(
        err instanceof ApiError && err.code === "not_found" ? `Failed to load user profile: ${err.message}` : VIEW_SETUP_FAILED,
      );
    }
  }

  return (
    <ConfirmModal
      title="View User Account"
      icon={<EyeIcon />}
      busy={busy}
      onClose={onClose}
      confirmVariant="primary"
      confirmLabel={busy ? "Preparing View..." : "View User Account"}
      onConfirm={() => void start()}
    >
      <p>You are about to see the product as this user:</p>
      <p className="modal-subject">
        {user.email || "Unknown Email"}
        {user.company_name ? <span className="muted"> · {user.company_name}</span> : null}
      </p>
      <p>
        This is a simulated view, not full impersonation: you see their dashboard, profile and usage read-only, and some
        actions may be limited. The view lasts up to 24 hours; use "Return to Admin View" to end it.
      </p>
      {error ? <Alert tone="error">{error}</Alert> : null}
    </ConfirmModal>
  );
}
