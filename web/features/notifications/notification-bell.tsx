// The bell in the app's header (issue 21): the unread count, and a panel listing the alerts newest first, each linking
// to the prospect's report; mark one or all as read; loading, empty and error states. Read-only while viewing as.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { ALERT_WORDS } from "../../../worker/platform/notifications/rules/lead-alerts";
import { useAuth } from "../../lib/auth";
import { formatDateTime } from "../../lib/format-date";
import { useBusinessTimeZone } from "../profile";
import { useViewAs } from "../../lib/view-as";
import { notificationsQuery, useMarkRead } from "./queries";
import { RetryAlert } from "../../design/alert";
import { Button } from "../../design/button";
import { BellIcon, CloseIcon } from "../../design/icons";
import { LoadingScreen } from "../../app/route-guards";

type Item = { id: string; kind: string; text: string; reportId: string | null; read: boolean; createdAt: string };

/** Where an alert leads: the prospect's report in the app (a paused webhook: the Integrations page). */
export function alertHref(n: Pick<Item, "kind" | "reportId">): string | null {
  if (n.kind === "webhook_paused") return "/integrations";
  if (n.kind === "provider_missing") return "/admin/setup";
  if (n.kind === "review_new" || n.kind === "review_low") return "/tools/reviews";
  if (n.kind === "ai_visibility_changed") return "/tools/ai-visibility";
  if (n.kind === "client_report_opened") return "/admin/client-reports";
  if (n.kind === "attention_new") return "/admin/attention";
  return n.reportId ? `/admin/reports/${encodeURIComponent(n.reportId)}` : null;
}

export function NotificationBell({ className = "" }: { className?: string }) {
  const viewAs = useViewAs();
  const { isAdmin } = useAuth();
  const readOnly = Boolean(viewAs);
  // The alerts the person in view can get: an agency's are about prospects, a business owner's about rankings.
  const isAgency = viewAs ? Boolean(viewAs.viewingUserDetails.is_admin) : isAdmin;
  const zone = useBusinessTimeZone();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const query = useInfiniteQuery(notificationsQuery(viewAs?.viewingUserId ?? null));
  const markRead = useMarkRead();
  const items: Item[] = query.data?.pages.flatMap((p) => p.notifications ?? []) ?? [];
  const unread = query.data?.pages[0]?.unread ?? 0;

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    const onClick = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("mousedown", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("mousedown", onClick);
    };
  }, [open]);

  const label = unread > 0 ? `Notifications, ${unread} unread` : "Notifications";
  return (
    <div className={`bell ${className}`} ref={root}>
      <button type="button" className="icon-button bell-button" aria-label={label} aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
        <BellIcon />
        {unread > 0 ? (
          <span className="bell-count" aria-hidden="true">
            {unread > 99 ? "99+" : unread}
          </span>
        ) : null}
      </button>
      {open ? (
        <section className="bell-panel card" id={panelId} aria-label="Notifications">
          <header className="bell-head">
            <h2 className="bell-title">Notifications</h2>
            <Button size="sm" variant="ghost" disabled={readOnly || unread === 0} busy={markRead.isPending && markRead.variables === "all"} onClick={() => markRead.mutate("all")}>
              Mark all as read
            </Button>
            <button type="button" className="icon-button bell-close" aria-label="Close notifications" onClick={() => setOpen(false)}>
              <CloseIcon size="sm" />
            </button>
          </header>
          {markRead.isError ? <p className="field-error bell-note">{markRead.error.message}</p> : null}
          {query.isPending ? (
            <LoadingScreen />
          ) : query.isError ? (
            <div className="bell-note">
              <RetryAlert message={query.error.message} onRetry={() => void query.refetch()} />
            </div>
          ) : items.length === 0 ? (
            <div className="bell-empty">
              <BellIcon />
              <p>
                <strong>No alerts yet</strong>
              </p>
              <p className="muted">{ALERT_WORDS[isAgency ? "agency" : "business"].empty}</p>
            </div>
          ) : (
            <ul className="bell-list">
              {items.map((n) => {
                const href = alertHref(n);
                return (
                  <li key={n.id} className={n.read ? "bell-item" : "bell-item is-unread"}>
                    <div className="bell-item-body">
                      {href ? (
                        <Link to={href} onClick={() => (setOpen(false), !n.read && !readOnly && markRead.mutate([n.id]))}>
                          {n.text}
                        </Link>
                      ) : (
                        <span>{n.text}</span>
                      )}
                      <time className="muted" dateTime={n.createdAt}>
                        {formatDateTime(n.createdAt, zone)}
                      </time>
                    </div>
                    {n.read ? null : (
                      <Button size="sm" variant="ghost" disabled={readOnly} aria-label={`Mark as read: ${n.text}`} onClick={() => markRead.mutate([n.id])}>
                        Mark read
                      </Button>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          {query.hasNextPage ? (
            <div className="bell-more">
              <Button size="sm" busy={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                Show older
              </Button>
            </div>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
