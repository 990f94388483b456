// /settings/account: the signed-in person's own account: email, password, two-factor sign-in (TOTP), other sessions,
// and deleting the account. Auth changes go through auth-js to /auth/v1; deleting through DELETE /api/account.
import { useQuery } from "@tanstack/react-query";
import type { Factor } from "@supabase/auth-js";
import { useState, type FormEvent } from "react";
import { useLocation } from "react-router";
import { DeleteAccountInput } from "../../../../worker/features/accounts/rules/account";
import { Alert, RetryAlert } from "../../../design/alert";
import { Badge } from "../../../design/badge";
import { Button } from "../../../design/button";
import { ShieldIcon, TrashIcon } from "../../../design/icons";
import { ConfirmModal, Modal } from "../../../design/modal";
import { NewPasswordFields, useNewPassword } from "../new-password-fields";
import { SettingsSection } from "../../../design/settings-section";
import { NotificationSettingsSection } from "../../notifications";
import { RecoveryCodesPanel } from "../recovery-codes";
import { CurrentPasswordField, TextField } from "../../../design/text-field";
import { TotpCodeForm } from "../totp-code-form";
import { formatCreated } from "../../../lib/format-date";
import { ACCOUNT_DELETED_PATH, TOTP_PROMPT } from "../auth-messages";
import { useTimedMessage } from "../../../lib/use-timed-message";
import { useViewAs } from "../../../lib/view-as";
import {
  accountUserQuery,
  useChangeEmail,
  useChangePassword,
  useCreateRecoveryCodes,
  useDeleteAccount,
  useEnrollFactor,
  useRefreshUser,
  useRemoveFactor,
  useSignOutOthers,
  type AccountUser,
  type RecoveryCodeSet,
} from "../queries";
import "../account.css";
import { PageHead } from "../../brand";
import { useBrand } from "../../brand";
import { checkField } from "../../../lib/check-field";

/** The server's reason in words (auth-js errors and ApiError both carry a code and a message). */
function reason(error: unknown): string {
  const e = error as { code?: string; message?: string } | null;
  if (e?.code === "invalid_credentials") return "The current password is incorrect.";
  return e?.message || "Something went wrong. Please try again.";
}

export default function SettingsAccountPage() {
  const viewAs = useViewAs();
  const query = useQuery(accountUserQuery());
  return (
    <>
      <PageHead
        eyebrow="Settings"
        title="Account"
        subtitle={`How you sign in to ${useBrand().name}: your email, password, two-factor sign-in and sessions.`}
      />
      {viewAs ? (
        <Alert tone="info" title="Your own account">
          This page shows your own account, not {viewAs.viewingUserEmail || "the viewed user"}&apos;s. Return to your admin view to change it.
        </Alert>
      ) : null}
      {query.isPending ? (
        <p className="card card-pad usage-loading" role="status">
          <span className="spinner" aria-hidden="true" /> Loading your account...
        </p>
      ) : query.isError ? (
        <RetryAlert message={`Failed to load your account: ${reason(query.error)}`} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <EmailSection user={query.data} />
          <PasswordSection />
          <TwoFactorSection user={query.data} />
          <SessionsSection />
          <NotificationSettingsSection />
          <DeleteSection readOnly={Boolean(viewAs)} />
        </>
      )}
    </>
  );
}

function EmailSection({ user }: { user: AccountUser }) {
  const change = useChangeEmail();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [sent, setSent] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSent(null);
    const next = email.trim();
    try {
      await change.mutateAsync({ email: next, currentPassword: password });
      setSent(next);
      setEmail("");
      setPassword("");
    } catch {
      /* shown below from change.error */
    }
  }

  return (
    <SettingsSection title="Email" description={`You sign in with ${user.email}.`}>
      {user.newEmail && !sent ? (
        <Alert tone="info" title="Waiting for confirmation">
          Open the link we sent to {user.newEmail} to make it your sign-in email. Until then it stays {user.email}.
        </Alert>
      ) : null}
      {sent ? (
        <Alert tone="success" title="Check your inbox">
          We sent a link to {sent}. Open it to confirm the change; your email stays {user.email} until then.
        </Alert>
      ) : null}
      {change.isError ? <Alert tone="error">{reason(change.error)}</Alert> : null}
      <form className="form settings-form" onSubmit={submit} aria-label="Change email">
        <TextField label="New email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <CurrentPasswordField
          name="current-password-email"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <SubmitRow busy={change.isPending} label="Change email" busyLabel="Sending link..." />
      </form>
    </SettingsSection>
  );
}

/** A settings form's submit button, its label saying what runs while busy. */
function SubmitRow({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <div className="form-actions">
      <Button type="submit" variant="primary" busy={busy}>
        {busy ? busyLabel : label}
      </Button>
    </div>
  );
}

function PasswordSection() {
  const change = useChangePassword();
  const [current, setCurrent] = useState("");
  const newPassword = useNewPassword();
  const [success, showSuccess] = useTimedMessage();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const next = newPassword.check();
    if (next === null) return;
    try {
      await change.mutateAsync({ password: next, currentPassword: current });
      setCurrent("");
      newPassword.clear();
      showSuccess("Your password was changed. Every other session was signed out.");
    } catch {
      /* shown below from change.error */
    }
  }

  return (
    <SettingsSection title="Password" description="Changing it signs you out everywhere else.">
      {success ? <Alert tone="success">{success}</Alert> : null}
      {change.isError ? <Alert tone="error">{reason(change.error)}</Alert> : null}
      <form className="form settings-form" onSubmit={submit} aria-label="Change password">
        <CurrentPasswordField
          name="current-password"
          required
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <NewPasswordFields state={newPassword} />
        <SubmitRow busy={change.isPending} label="Change password" busyLabel="Saving..." />
      </form>
    </SettingsSection>
  );
}

function TwoFactorSection({ user }: { user: AccountUser }) {
  const enroll = useEnrollFactor();
  const remove = useRemoveFactor();
  const refresh = useRefreshUser();
  const [enrolment, setEnrolment] = useState<{ id: string; qr: string; secret: string } | null>(null);
  const [removing, setRemoving] = useState<Factor | null>(null);
  const [success, showSuccess] = useTimedMessage(8000);
  const createCodes = useCreateRecoveryCodes();
  const [freshCodes, setFreshCodes] = useState<RecoveryCodeSet | null>(null);
  const recovered = new URLSearchParams(useLocation().search).has("recovered");
  const verified = user.factors.filter((f) => f.status === "verified");

  async function start() {
    try {
      const data = await enroll.mutateAsync(verified.length ? `Authenticator app ${verified.length + 1}` : "Authenticator app");
      setEnrolment({ id: data.id, qr: data.totp.qr_code, secret: data.totp.secret });
    } catch {
      /* shown below from enroll.error */
    }
  }

  async function cancel() {
    if (enrolment) await remove.mutateAsync(enrolment.id).catch(() => undefined);
    setEnrolment(null);
  }

  async function confirmRemove() {
    if (!removing) return;
    try {
      await remove.mutateAsync(removing.id);
      setRemoving(null);
      showSuccess("The authenticator app was removed.");
    } catch {
      /* shown in the dialog from remove.error */
    }
  }

  return (
    <SettingsSection
      id="two-factor"
      title="Two-factor sign-in"
      description="A 6-digit code from an authenticator app on your phone, asked for after your password, so a stolen password alone cannot open your account. Recovery codes get you in if you lose the phone."
    >
      {recovered ? (
        <Alert tone="info" title="You signed in with a recovery code">
          That code is used up. If you lost your phone, remove its authenticator app below and set up the new one; make new
          recovery codes when few are left.
        </Alert>
      ) : null}
      {success ? <Alert tone="success">{success}</Alert> : null}
      {enroll.isError ? <Alert tone="error">{reason(enroll.error)}</Alert> : null}
      {verified.length ? (
        <ul className="account-factors" aria-label="Authenticator apps">
          {verified.map((f) => (
            <li key={f.id} className="account-factor">
              <ShieldIcon />
              <div className="account-factor-text">
                <p className="account-factor-name">{f.friendly_name || "Authenticator app"}</p>
                <p className="field-hint">Added {formatCreated(f.created_at)}</p>
              </div>
              <Badge tone="success">On</Badge>
              <Button size="sm" variant="ghost" onClick={() => setRemoving(f)} aria-label={`Remove ${f.friendly_name || "authenticator app"}`}>
                <TrashIcon size="sm" /> Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : enrolment ? null : (
        <p className="field-hint">Two-factor sign-in is off.</p>
      )}

      {enrolment ? (
        <div className="account-enrol" aria-label="Set up authenticator app" role="group">
          <ol className="account-steps">
            <li>
              <p>Scan this QR code with your authenticator app (Google Authenticator, 1Password, Authy or similar).</p>
              <img className="account-qr" src={enrolment.qr} alt="QR code for your authenticator app" width={176} height={176} />
              <p className="field-hint">
                Can&apos;t scan it? Enter this key instead: <code className="account-secret" data-testid="totp-secret">{enrolment.secret}</code>
              </p>
            </li>
            <li>
              <p>{TOTP_PROMPT}.</p>
              <TotpCodeForm
                showHint={false}
                factorId={enrolment.id}
                submitLabel="Turn on two-factor sign-in"
                busyLabel="Checking..."
                onVerified={async () => {
                  const first = verified.length === 0;
                  // The list shows the new app before the form goes, never "off" next to "on".
                  await refresh();
                  setEnrolment(null);
                  showSuccess("Two-factor sign-in is on. Next time you sign in, enter the code from your authenticator app.");
                  // The first app comes with its recovery codes, shown once below (a failure leaves the Create button).
                  if (first) setFreshCodes(await createCodes.mutateAsync().catch(() => null));
                }}
              >
                <Button onClick={() => void cancel()}>Cancel</Button>
              </TotpCodeForm>
            </li>
          </ol>
        </div>
      ) : (
        <div className="form-actions">
          <Button variant={verified.length ? "secondary" : "primary"} busy={enroll.isPending} onClick={() => void start()}>
            {enroll.isPending ? "Preparing..." : verified.length ? "Add another authenticator app" : "Set up authenticator app"}
          </Button>
        </div>
      )}

      {verified.length || freshCodes ? <RecoveryCodesPanel email={user.email} fresh={freshCodes} onFresh={setFreshCodes} /> : null}

      {removing ? (
        <ConfirmModal
          title="Remove this authenticator app?"
          tone="danger"
          icon={<ShieldIcon />}
          busy={remove.isPending}
          onClose={() => setRemoving(null)}
          confirmLabel={remove.isPending ? "Removing..." : "Remove"}
          onConfirm={() => void confirmRemove()}
        >
          <p>
            {verified.length > 1
              ? "Sign-in will ask for a code from your other authenticator app."
              : "Sign-in will ask for your password only, and your recovery codes stop working. Admin pages need two-factor sign-in in production."}
          </p>
          {remove.isError ? <Alert tone="error">{reason(remove.error)}</Alert> : null}
        </ConfirmModal>
      ) : null}
    </SettingsSection>
  );
}

function SessionsSection() {
  const signOutOthers = useSignOutOthers();
  const [success, showSuccess] = useTimedMessage();
  return (
    <SettingsSection title="Sessions" description="Signed in on another phone or computer you no longer use? Sign those sessions out; this one stays signed in.">
      {success ? <Alert tone="success">{success}</Alert> : null}
      {signOutOthers.isError ? <Alert tone="error">{reason(signOutOthers.error)}</Alert> : null}
      <div className="form-actions">
        <Button
          busy={signOutOthers.isPending}
          onClick={() =>
            signOutOthers.mutate(undefined, { onSuccess: () => showSuccess("Every other session is signed out. This one stays signed in.") })
          }
        >
          {signOutOthers.isPending ? "Signing out..." : "Sign out everywhere else"}
        </Button>
      </div>
    </SettingsSection>
  );
}

function DeleteSection({ readOnly }: { readOnly: boolean }) {
  const remove = useDeleteAccount();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);

  async function confirm(e?: FormEvent) {
    e?.preventDefault();
    const input = checkField(DeleteAccountInput, { password }, setFieldError, "Enter your password.");
    if (input === null) return;
    try {
      await remove.mutateAsync(input.password);
      // A fresh page: nothing of the deleted account stays in memory (the sign-out already cleared storage).
      window.location.assign(ACCOUNT_DELETED_PATH);
    } catch {
      /* shown in the dialog from remove.error */
    }
  }

  return (
    <SettingsSection
      title="Delete account"
      description="Deletes your sign-in, business profile, logo, generated posts, AI usage, widgets and Google connection (access is revoked at Google) for good. Reports and prospects an agency made stay with the agency; webhook endpoints you added are paused for another admin to check."
    >
      <div className="form-actions">
        <Button variant="danger" disabled={readOnly} onClick={() => setOpen(true)}>
          <TrashIcon size="sm" /> Delete account
        </Button>
      </div>
      {open ? (
        <Modal
          title="Delete your account?"
          tone="danger"
          icon={<TrashIcon />}
          busy={remove.isPending}
          onClose={() => {
            setOpen(false);
            setPassword("");
            remove.reset();
          }}
          footer={
            <>
              <Button onClick={() => setOpen(false)} disabled={remove.isPending}>
                Cancel
              </Button>
              <Button variant="danger" busy={remove.isPending} onClick={() => void confirm()}>
                {remove.isPending ? "Deleting..." : "Delete account"}
              </Button>
            </>
          }
        >
          <p>This cannot be undone. Enter your password to confirm.</p>
          {remove.isError ? <Alert tone="error">{remove.error.message || reason(remove.error)}</Alert> : null}
          <form onSubmit={(e) => void confirm(e)}>
            <CurrentPasswordField
              label="Password"
              name="delete-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={fieldError}
            />
          </form>
        </Modal>
      ) : null}
    </SettingsSection>
  );
}
