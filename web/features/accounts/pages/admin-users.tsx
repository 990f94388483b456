// /admin/users: Users Management (spec §2): count, search, filters, the table (cards on phones), admin toggle, View.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { AdminAccessRequired, ReturnToAdminButton } from "../../../app/admin-access-required";
import { ExternalLinkIcon, UsersIcon } from "../../../design/icons";
import { ACTIONS_COLUMN, TableHead } from "../../../design/table-head";
import { Alert, RetryAlert } from "../../../design/alert";
import { Badge } from "../../../design/badge";
import { EmailText } from "../../../design/email-text";
import { Button } from "../../../design/button";
import { SearchField } from "../../../design/search-field";
import { ViewAsModal } from "../view-as-modal";
import type { AdminUserDto, UserFilter } from "../../../../worker/features/accounts/rules/admin-api";
import { useSetUserAdmin, userListQuery } from "../users-queries";
import { ApiError } from "../../../lib/api";
import { useAuth } from "../../../lib/auth";
import { formatCreated } from "../../../lib/format-date";
import { useDebounced, useTimedMessage } from "../../../lib/use-timed-message";
import { useViewAs } from "../../../lib/view-as";
import { PageHeader } from "../../../design/page-header";
import "../account.css";
import { Placeholder } from "../../../design/placeholder";
import { Segmented } from "../../../design/segmented";
import { PageTitle } from "../../brand";

const FILTERS: { value: UserFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "admins", label: "Admins" },
  { value: "regular", label: "Regular Users" },
];

/** Company websites are often typed without a scheme; the link gets https:// (spec §2). */
export function websiteHref(site: string): string {
  const trimmed = site.trim();
  return /^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

const errorMessage = (err: unknown) => (err instanceof Error && err.message ? err.message : "Unknown error");

export default function UsersPage() {
  const { user: me } = useAuth();
  const viewAs = useViewAs();
  const readOnly = Boolean(viewAs);

  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const [filter, setFilter] = useState<UserFilter>("all");
  // The previous search's rows stay while the next one loads.
  const usersQuery = useQuery({ ...userListQuery(q, filter), placeholderData: keepPreviousData });
  const forbidden = usersQuery.error instanceof ApiError && usersQuery.error.code === "admin_required";
  const setAdmin = useSetUserAdmin();

  const [confirming, setConfirming] = useState<string | null>(null);
  const [updating, setUpdating] = useState<string | null>(null);
  const [success, showSuccess] = useTimedMessage();
  const [actionError, setActionError] = useState<string | null>(null);
  const [viewTarget, setViewTarget] = useState<AdminUserDto | null>(null);

  function toggleAdmin(user: AdminUserDto) {
    setUpdating(user.id);
    setActionError(null);
    setAdmin.mutate(user, {
      onSuccess: () => showSuccess("User admin status changed successfully"),
      onError: (err) => setActionError(`Failed to update admin status: ${errorMessage(err)}`),
      onSettled: () => {
        setUpdating(null);
        setConfirming(null);
      },
    });
  }

  if (forbidden) {
    return (
      <>
        <PageTitle>Users Management</PageTitle>
        <AdminAccessRequired />
      </>
    );
  }

  const data = usersQuery.data ?? null;
  const registered = data?.counts.all ?? 0;

  return (
    <>
      <PageTitle>Users Management</PageTitle>
      <PageHeader
        eyebrow="Admin · Users"
        title="Users Management"
        subtitle={data ? `${registered.toLocaleString("en-US")} registered ${registered === 1 ? "user" : "users"}` : "Loading users…"}
        subtitleLive
        actions={
          <>
            {viewAs ? <ReturnToAdminButton /> : null}
          </>
        }
      />

      <div className="page-messages" aria-live="polite">
        {success ? <Alert tone="success">{success}</Alert> : null}
        {actionError ? <Alert tone="error">{actionError}</Alert> : null}
      </div>

      <div className="toolbar">
        <SearchField placeholder="Search users..." label="Search users" value={search} onChange={setSearch} />
        <Segmented
          label="Filter users"
          variant="strong"
          value={filter}
          onChange={setFilter}
          options={FILTERS.map((f) => ({
            value: f.value,
            label: (
              <>
                {f.label}
                {data ? (
                  <span className="filter-count">
                    {f.value === "all" ? data.counts.all : f.value === "admins" ? data.counts.admins : data.counts.regular}
                  </span>
                ) : null}
              </>
            ),
          }))}
        />
      </div>

      {!data && !usersQuery.isError ? (
        <div className="loading-screen" role="status">
          <span className="spinner" aria-hidden="true" />
          <span>Loading users…</span>
        </div>
      ) : !data ? (
        <RetryAlert message={`Failed to load users: ${errorMessage(usersQuery.error)}`} onRetry={() => void usersQuery.refetch()} />
      ) : data && data.users.length === 0 ? (
        <Placeholder className="empty-state" icon={UsersIcon} title="No users found">
          <p className="placeholder-text">
            {q || filter !== "all"
              ? q
                ? `No users match "${q}". Try a different search term.`
                : "No users match this filter."
              : "There are no users in the system yet."}
          </p>
        </Placeholder>
      ) : data ? (
        <div className="card users-table-wrap">
          <table className="users-table">
            <TableHead
              columns={[
                "User",
                { name: "Created", className: "col-created" },
                { name: "Status", className: "col-status" },
                { name: "Company", className: "col-company" },
                ACTIONS_COLUMN,
              ]}
            />
            <tbody>
              {data.users.map((u) => {
                const isMe = u.id === me?.id;
                const email = u.email || "Unknown Email";
                return (
                  <tr key={u.id}>
                    <td className="cell-user" data-label="User">
                      <div className="user-cell">
                        <span className="avatar" aria-hidden="true">
                          {email.charAt(0)}
                        </span>
                        <EmailText className="user-email" email={email} />
                        {isMe ? (
                          <span className="user-you">
                            <Badge tone="view">You</Badge>
                          </span>
                        ) : null}
                      </div>
                    </td>
                    <td data-label="Created" className="cell-created">
                      <time dateTime={u.created_at}>{formatCreated(u.created_at)}</time>
                    </td>
                    <td data-label="Status">
                      {u.is_admin ? <Badge tone="admin">Admin</Badge> : <Badge tone="soon">User</Badge>}
                    </td>
                    <td data-label="Company">
                      <div className="company-cell">
                        {u.company_name ? <div className="company-name">{u.company_name}</div> : null}
                        {u.company_website ? (
                          <a className="company-site" href={websiteHref(u.company_website)} target="_blank" rel="noopener noreferrer">
                            {u.company_website}
                            <ExternalLinkIcon size="sm" />
                          </a>
                        ) : null}
                        {!u.company_name && !u.company_website ? <span className="muted">—</span> : null}
                      </div>
                    </td>
                    <td data-label="Actions" className="col-actions">
                      <div className="row-actions">
                        {confirming === u.id ? (
                          <span className="row-confirm" role="group" aria-label={`Confirm admin change for ${email}`}>
                            {u.is_admin ? "Remove admin?" : "Make admin?"}
                            <Button size="sm" variant="primary" busy={updating === u.id} onClick={() => toggleAdmin(u)}>
                              Confirm
                            </Button>
                            <Button size="sm" variant="ghost" disabled={updating === u.id} onClick={() => setConfirming(null)}>
                              Cancel
                            </Button>
                          </span>
                        ) : (
                          <>
                            {isMe ? null : (
                              <Button size="sm" variant="secondary" disabled={readOnly} onClick={() => setViewTarget(u)}>
                                View
                              </Button>
                            )}
                            <Button
                              size="sm"
                              variant={u.is_admin ? "secondary" : "dark"}
                              disabled={isMe || readOnly}
                              title={isMe ? "You cannot change your own admin status" : undefined}
                              onClick={() => setConfirming(u.id)}
                            >
                              {u.is_admin ? "Remove Admin" : "Make Admin"}
                            </Button>
                          </>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}

      {data && data.nextCursor ? (
        <p className="list-foot muted">
          Showing the {data.users.length.toLocaleString("en-US")} newest of {data.total.toLocaleString("en-US")}: search to find
          others.
        </p>
      ) : null}

      {viewTarget && me ? <ViewAsModal user={viewTarget} adminId={me.id} onClose={() => setViewTarget(null)} /> : null}
    </>
  );
}
