// The admin's local view-as record (spec §3/§4): kept in localStorage, valid for 24 hours.
import { useEffect, useMemo, useSyncExternalStore } from "react";
import { useLocation } from "react-router";

export const VIEW_AS_KEY = "admin_view_as";
export const RETURN_SESSION_KEY = "admin_return_session";
/** View-as record validity (spec §9). */
export const VIEW_AS_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** A record stamped further in the future than this came from a wrong clock: not trusted. */
const FUTURE_TOLERANCE_MS = 60 * 1000;
const CHANGE_EVENT = "porchlight:view-as";

export type ViewedUserDetails = {
  company_name?: string | null;
  company_website?: string | null;
  company_phone?: string | null;
  company_location?: string | null;
  company_email?: string | null;
  company_category?: string | null;
  company_description?: string | null;
  company_logo_url?: string | null;
  is_admin?: boolean;
};

export type ViewAsRecord = {
  adminId?: string;
  viewingUserId: string;
  viewingUserEmail: string;
  viewingUserDetails: ViewedUserDetails;
  /** Milliseconds since the epoch when the view started. */
  timestamp: number;
  /** A client's screen opened from the agency's clients view (`?client=`): read as the client for that address only. */
  scoped?: boolean;
};

/**
 * A client's screen opened from the agency's clients view (issue 41: each figure links to the screen behind it, with
 * no "view as" to start): `?client=<id>&clientName=<name>` reads as that client, read-only (the server's X-View-As
 * rules), for that address only; any other address is the admin's own again.
 */
export const CLIENT_PARAM = "client";
export function scopedClient(search: string): ViewAsRecord | null {
  const params = new URLSearchParams(search);
  const id = params.get(CLIENT_PARAM)?.trim();
  if (!id) return null;
  return { viewingUserId: id, viewingUserEmail: "", viewingUserDetails: { company_name: params.get("clientName") }, timestamp: 0, scoped: true };
}

/** The client the screen on show reads (set by the app's frame from the address), for requests made outside React. */
let screenScope: ViewAsRecord | null = null;
export function setScreenScope(record: ViewAsRecord | null) {
  screenScope = record?.scoped ? record : null;
}
export function screenScoped(): ViewAsRecord | null {
  return screenScope;
}

/** The address of a client's screen, scoped to the client. */
export function clientScreenPath(path: string, client: { userId: string; name: string }): string {
  return `${path}?${new URLSearchParams({ [CLIENT_PARAM]: client.userId, clientName: client.name }).toString()}`;
}

export type ViewAsCheck = { record: ViewAsRecord | null; remove: boolean };

/**
 * The spec's validity rule, pure: a stored value is a record while under 24 hours old; on the
 * dashboard (`dashboardParams` given) it must also match the `view_as` query parameter, and a
 * record with no such parameter is removed.
 */
export function checkViewAs(raw: string | null, dashboardParams?: URLSearchParams, now = Date.now()): ViewAsCheck {
  if (raw === null) return { record: null, remove: false };
  const record = parseRecord(raw);
  if (!record) return { record: null, remove: true };
  const age = now - record.timestamp;
  if (!(age < VIEW_AS_MAX_AGE_MS) || age < -FUTURE_TOLERANCE_MS) return { record: null, remove: true };
  if (dashboardParams) {
    const wanted = dashboardParams.get("view_as");
    if (!wanted || wanted !== record.viewingUserId) return { record: null, remove: true };
  }
  return { record, remove: false };
}

function parseRecord(raw: string): ViewAsRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  if (typeof v.viewingUserId !== "string" || !v.viewingUserId) return null;
  const timestamp = typeof v.timestamp === "number" ? v.timestamp : typeof v.timestamp === "string" ? Date.parse(v.timestamp) : NaN;
  if (!Number.isFinite(timestamp)) return null;
  const details = v.viewingUserDetails && typeof v.viewingUserDetails === "object" ? (v.viewingUserDetails as ViewedUserDetails) : {};
  return {
    adminId: typeof v.adminId === "string" ? v.adminId : undefined,
    viewingUserId: v.viewingUserId,
    viewingUserEmail: typeof v.viewingUserEmail === "string" ? v.viewingUserEmail : "",
    viewingUserDetails: details,
    timestamp,
  };
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null; // storage disabled (privacy mode): view-as is simply unavailable
  }
}

function notify() {
  if (typeof window !== "undefined") window.dispatchEvent(new Event(CHANGE_EVENT));
}

/**
 * The active view-as record, or null. Pass the dashboard's search params to apply the dashboard
 * rule. An expired or mismatched record is removed, as the spec says.
 */
export function readViewAs(dashboardParams?: URLSearchParams, now = Date.now()): ViewAsRecord | null {
  const s = storage();
  if (!s) return null;
  const { record, remove } = checkViewAs(s.getItem(VIEW_AS_KEY), dashboardParams, now);
  if (remove) {
    s.removeItem(VIEW_AS_KEY);
    notify();
  }
  return record;
}

/** Writes the record (timestamped now unless given) that makes the product read as another user. */
export function startViewAs(record: Omit<ViewAsRecord, "timestamp"> & { timestamp?: number }): ViewAsRecord {
  const full: ViewAsRecord = { ...record, timestamp: record.timestamp ?? Date.now() };
  storage()?.setItem(VIEW_AS_KEY, JSON.stringify(full));
  notify();
  return full;
}

/** Ends view mode ('Return to Admin View' / 'Return to Admin Account'). */
export function clearViewAs() {
  storage()?.removeItem(VIEW_AS_KEY);
  notify();
}

/** Sign-out clears both local admin entries. */
export function clearAdminEntries() {
  const s = storage();
  s?.removeItem(VIEW_AS_KEY);
  s?.removeItem(RETURN_SESSION_KEY);
  notify();
}

function subscribe(onChange: () => void) {
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === VIEW_AS_KEY) onChange();
  };
  window.addEventListener(CHANGE_EVENT, onChange);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(CHANGE_EVENT, onChange);
    window.removeEventListener("storage", onStorage);
  };
}

/** The view-as record for the current route; re-renders when it starts, ends or changes in another tab. */
export function useViewAs(): ViewAsRecord | null {
  const raw = useSyncExternalStore(
    subscribe,
    () => storage()?.getItem(VIEW_AS_KEY) ?? null,
    () => null,
  );
  const { pathname, search } = useLocation();
  const onDashboard = pathname === "/dashboard";
  const { record, remove } = useMemo(
    () => checkViewAs(raw, onDashboard ? new URLSearchParams(search) : undefined),
    [raw, onDashboard, search],
  );
  useEffect(() => {
    if (remove) readViewAs(onDashboard ? new URLSearchParams(search) : undefined);
  }, [remove, onDashboard, search]);
  const scoped = useMemo(() => scopedClient(search), [search]);
  return record ?? scoped;
}

/** The dashboard address that keeps a view alive (the dashboard drops a record without view_as). */
export function dashboardPath(record: ViewAsRecord | null): string {
  return record && !record.scoped ? `/dashboard?view_as=${encodeURIComponent(record.viewingUserId)}` : "/dashboard";
}
