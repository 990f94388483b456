// Which alerts a user gets, per kind: in the app (the bell) and by email (issue 21). A section of the Account page.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ALERT_WORDS } from "../../../worker/platform/notifications/rules/lead-alerts";
import type { AlertKind } from "../../../worker/platform/notifications/rules/lead-events";
import { useAuth } from "../../lib/auth";
import { useViewAs } from "../../lib/view-as";
import { notificationSettingsQuery, useSaveNotificationSettings } from "./queries";
import { Alert, RetryAlert } from "../../design/alert";
import { Button } from "../../design/button";
import { SettingsSection } from "../../design/settings-section";
import { TableHead } from "../../design/table-head";
import "./notifications.css";

type Row = { kind: AlertKind; label: string; inApp: boolean; byMail: boolean };

export function NotificationSettingsSection() {
  const viewAs = useViewAs();
  const { isAdmin } = useAuth();
  const isAgency = viewAs ? Boolean(viewAs.viewingUserDetails.is_admin) : isAdmin;
  const query = useQuery(notificationSettingsQuery(viewAs?.viewingUserId ?? null));
  const save = useSaveNotificationSettings();
  const [rows, setRows] = useState<Row[]>([]);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (query.data) setRows(query.data.settings as Row[]);
  }, [query.data]);

  const toggle = (kind: AlertKind, channel: "inApp" | "byMail") => {
    setSaved(false);
    setRows((current) => current.map((r) => (r.kind === kind ? { ...r, [channel]: !r[channel] } : r)));
  };

  return (
    <SettingsSection id="notifications" title="Notifications" description={ALERT_WORDS[query.data?.role ?? (isAgency ? "agency" : "business")].settings}>
      {query.isPending ? (
        <p role="status">
          <span className="spinner" aria-hidden="true" /> Loading your notification settings...
        </p>
      ) : query.isError ? (
        <RetryAlert message={query.error.message} onRetry={() => void query.refetch()} />
      ) : query.data.settings.length === 0 ? null : (
        <>
          {!query.data.mailConfigured ? (
            <Alert tone="info" title="Email alerts aren't available yet">
              <p>Your choices are kept; until email is available, alerts reach you in the app only.</p>
            </Alert>
          ) : null}
          <div className="usage-table-wrap">
            <table className="usage-table notification-settings">
              <TableHead columns={["Alert", "In the app", "By email"]} />
              <tbody>
                {rows.map((r) => (
                  <tr key={r.kind}>
                    <th scope="row">{r.label}</th>
                    <td data-label="In the app">
                      <input type="checkbox" aria-label={`${r.label}: in the app`} checked={r.inApp} disabled={Boolean(viewAs)} onChange={() => toggle(r.kind, "inApp")} />
                    </td>
                    <td data-label="By email">
                      <input type="checkbox" aria-label={`${r.label}: by email`} checked={r.byMail} disabled={Boolean(viewAs)} onChange={() => toggle(r.kind, "byMail")} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {save.isError ? <p className="field-error">{save.error.message}</p> : null}
          <div className="form-actions">
            <Button variant="primary" busy={save.isPending} disabled={Boolean(viewAs)} onClick={() => save.mutate(rows.map(({ kind, inApp, byMail }) => ({ kind, inApp, byMail })), { onSuccess: () => setSaved(true) })}>
              Save notification settings
            </Button>
            {saved ? <span role="status">Saved.</span> : null}
          </div>
        </>
      )}
    </SettingsSection>
  );
}
