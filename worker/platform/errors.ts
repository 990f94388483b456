// Stable error codes and the one JSON error shape of the API: {error: {code, message, fields?}}.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { currentRequestId } from "./log";

export const ErrorCode = {
  validation: "validation_failed",
  unauthorized: "unauthorized",
  forbidden: "forbidden",
  adminRequired: "admin_required",
  /** The account has two-factor sign-in (or is an admin under REQUIRE_ADMIN_MFA): this session must verify a code first. */
  mfaRequired: "mfa_required",
  viewAsReadOnly: "view_as_read_only",
  notFound: "not_found",
  conflict: "conflict",
  rateLimited: "rate_limited",
  payloadTooLarge: "payload_too_large",
  unsupportedMedia: "unsupported_media_type",
  notConfigured: "not_configured",
  unavailable: "service_unavailable",
  budgetExceeded: "ai_budget_exceeded",
  profileRequired: "profile_required",
  aiFailed: "ai_failed",
  internal: "internal_error",
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export type FieldErrors = Record<string, string[]>;

export interface ApiErrorBody {
  error: { code: ErrorCode | string; message: string; fields?: FieldErrors; requestId?: string };
}

export function apiError(
  c: Context,
  status: ContentfulStatusCode,
  code: ErrorCode | string,
  message: string,
  fields?: FieldErrors,
) {
  // Every error names its request, so a report from a user finds the log lines.
  const requestId: string | undefined = c.get("requestId") ?? currentRequestId();
  const body: ApiErrorBody = { error: { code, message, ...(fields ? { fields } : {}), ...(requestId ? { requestId } : {}) } };
  return c.json(body, status);
}

/** The 400 for a `cursor` query parameter that is not one of our page cursors. */
export function invalidCursor(c: Context) {
  return apiError(c, 400, ErrorCode.validation, "cursor: not a valid page cursor", { cursor: ["Invalid cursor"] });
}

/** Thrown only where returning is impractical (deep helpers); rendered by app.onError. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode | string,
    message: string,
  ) {
    super(message);
  }
}
