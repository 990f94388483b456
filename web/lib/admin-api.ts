// Calls of the admin screens: prospects (list, import, tag, delete, CSV) and users (list, admin toggle, view-as).
import type {
  AdminUserDto,
  ProspectDto,
  ProspectImportResponse,
  ProspectListResponse,
  UserFilter,
  UserListResponse,
} from "../../worker/domain/admin-api";
import { API_TIMEOUT_MS, apiFetch } from "./api";

export type { AdminUserDto, ProspectDto, ProspectImportResponse, ProspectListResponse, UserFilter, UserListResponse };

function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") search.set(k, String(v));
  const text = search.toString();
  return text ? `?${text}` : "";
}

export function listProspects(opts: { q?: string; cursor?: string | null; limit?: number; sort?: string; signal?: AbortSignal }) {
  const sort = opts.sort === "newest" ? undefined : opts.sort;
  return apiFetch<ProspectListResponse>(`/api/prospects${query({ q: opts.q, cursor: opts.cursor, limit: opts.limit, sort })}`, {
    signal: opts.signal,
  });
}

export function importProspects(body: { text: string; startRow: number; allowDuplicates: boolean }, signal?: AbortSignal) {
  return apiFetch<ProspectImportResponse>("/api/prospects/import", { method: "POST", json: body, signal });
}

export function updateProspectTag(id: string, tag: string | null) {
  return apiFetch<{ prospect: ProspectDto }>(`/api/prospects/${encodeURIComponent(id)}`, { method: "PATCH", json: { tag } });
}

export function deleteProspect(id: string) {
  return apiFetch<{ deleted: { id: string; reportId: string | null } }>(`/api/prospects/${encodeURIComponent(id)}`, {
    method: "DELETE",
  });
}

/** The current search as CSV text. */
export function exportProspectsCsv(q: string) {
  return apiFetch<string>(`/api/prospects/export.csv${query({ q })}`, { headers: { Accept: "text/csv" } });
}

export function listUsers(opts: { q?: string; filter?: UserFilter; signal?: AbortSignal }) {
  return apiFetch<UserListResponse>(`/api/admin/users${query({ q: opts.q, filter: opts.filter === "all" ? undefined : opts.filter })}`, {
    signal: opts.signal,
    timeoutMs: API_TIMEOUT_MS,
  });
}

export function setUserAdmin(id: string, isAdmin: boolean) {
  return apiFetch<{ user: AdminUserDto }>(`/api/admin/users/${encodeURIComponent(id)}`, {
    method: "PATCH",
    json: { is_admin: isAdmin },
    timeoutMs: API_TIMEOUT_MS,
  });
}

/** Starts a view on the server (checked and audited there); the admin's own identity, never a viewed one. */
export function startServerViewAs(userId: string) {
  return apiFetch<{ user: AdminUserDto }>("/api/admin/view-as", {
    method: "POST",
    json: { userId },
    viewAs: false,
    timeoutMs: API_TIMEOUT_MS,
  });
}

/** Saves text as a file through a temporary link (the export needs the bearer header, so no plain <a href>). */
export function downloadText(text: string, filename: string, type = "text/csv;charset=utf-8") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
