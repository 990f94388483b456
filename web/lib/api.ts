// The API client: bearer token, view-as header, JSON in and out, `{error:{code,message}}` as ApiError, timeouts.
import type { ProfileDto, ProfileResponse } from "../../worker/features/profile/rules/profile";
import { readViewAs, screenScoped } from "./view-as";

/** Profile and admin calls are cut off after this long (spec §9). */
export const API_TIMEOUT_MS = 10_000;
export const TIMEOUT_MESSAGE = "Request timed out. Please check your connection and try again.";
export const NETWORK_MESSAGE = "Could not reach the server. Please check your connection and try again.";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The error's other fields, when a route gives more than code and message (the guard's `risks`). */
  readonly details: Record<string, unknown>;
  constructor(status: number, code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export type ApiInit = Omit<RequestInit, "body"> & {
  /** A JSON body; sets Content-Type. Use `body` for anything else (FormData for uploads). */
  json?: unknown;
  body?: BodyInit | null;
  /** Abort after this many milliseconds with TIMEOUT_MESSAGE. */
  timeoutMs?: number;
  /** Use this token instead of asking the auth client (null: send none). */
  accessToken?: string | null;
  /** Send X-View-As while a view is active (default true). Off for the admin's own profile. */
  viewAs?: boolean;
  /** Hand back the live Response (server-sent events): the time-out then covers only the headers. */
  stream?: boolean;
};

/** The profile row GET /api/profile returns, and the response around it. */
export type { ProfileDto as Profile, ProfileResponse };

async function currentAccessToken(): Promise<string | null> {
  const { getAuthClient } = await import("./auth-client");
  const { data } = await getAuthClient().getSession();
  return data.session?.access_token ?? null;
}

/**
 * One authenticated request: bearer token, X-View-As while a view is active, an optional time-out.
 * Network failures and time-outs become ApiError; the Response is returned as it came (any status).
 */
export async function authedFetch(input: RequestInfo | URL, init: ApiInit = {}): Promise<Response> {
  const { json, timeoutMs, accessToken, viewAs = true, stream, headers: given, signal: callerSignal, ...rest } = init;
  const headers = new Headers(given);
  if (!headers.has("Accept")) headers.set("Accept", stream ? "text/event-stream" : "application/json");
  const token = accessToken === undefined ? await currentAccessToken() : accessToken;
  if (token) headers.set("Authorization", `Bearer ${token}`);
  if (viewAs) {
    const record = readViewAs() ?? screenScoped();
    if (record) headers.set("X-View-As", record.viewingUserId);
  }
  let body = rest.body;
  if (json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(json);
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs)
    : undefined;
  const onCallerAbort = () => controller.abort();
  if (callerSignal?.aborted) controller.abort();
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });

  try {
    let res: Response;
    try {
      res = await fetch(input, { ...rest, body, headers, signal: controller.signal });
    } catch (err) {
      if (timedOut) throw new ApiError(0, "timeout", TIMEOUT_MESSAGE);
      if (callerSignal?.aborted) throw err;
      throw new ApiError(0, "network", NETWORK_MESSAGE);
    }
    if (stream) return res;
    // Reading the body is part of the request: the time-out covers it too. Read as bytes, not text: a binary answer
    // (the QR code's PNG) decoded as UTF-8 would turn every byte that is not valid UTF-8 into U+FFFD.
    const bytes = await res.arrayBuffer().catch((err) => {
      if (timedOut) throw new ApiError(0, "timeout", TIMEOUT_MESSAGE);
      throw err;
    });
    return new Response(res.status === 204 || res.status === 304 ? null : bytes, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  } finally {
    if (timer) clearTimeout(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
  }
}

/**
 * An untyped JSON request whose non-2xx answer is thrown as ApiError: only for what the typed client
 * cannot call. Server state goes through web/queries over ./rpc.
 */
export async function apiFetch<T = unknown>(path: string, init: ApiInit = {}): Promise<T> {
  return (await readApiResponse(await authedFetch(path, init))) as T;
}

/** Posts one file (a logo) as form data under "file", with three times the usual time-out for the upload. */
export async function uploadFile<T>(path: string, file: File): Promise<T> {
  const body = new FormData();
  body.append("file", file);
  return (await readApiResponse(await authedFetch(path, { method: "POST", body, timeoutMs: API_TIMEOUT_MS * 3 }))) as T;
}

/** The body of a response from the API, or the ApiError it carries. */
export async function readApiResponse(res: Response): Promise<unknown> {
  const payload = await readBody(res);
  if (!res.ok) throw toApiError(res, payload);
  return payload;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  if ((res.headers.get("Content-Type") ?? "").includes("json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function toApiError(res: Response, payload: unknown): ApiError {
  const err =
    payload && typeof payload === "object" && "error" in payload
      ? ((payload as { error?: { code?: unknown; message?: unknown } }).error ?? {})
      : {};
  const code = typeof err.code === "string" ? err.code : `http_${res.status}`;
  const message =
    typeof err.message === "string" && err.message ? err.message : res.statusText || `Request failed (${res.status})`;
  const { code: _code, message: _message, ...details } = err as Record<string, unknown>;
  return new ApiError(res.status, code, message, details);
}
