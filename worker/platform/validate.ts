// zValidator with our error shape: 400 {error: {code: "validation_failed", message, fields}}; `:id` params answer 404.
import { zValidator } from "@hono/zod-validator";
import type { Context, ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { issuesByField } from "../domain/form-rules";
import { IdParam } from "../domain/ids";
import { apiError, ErrorCode, type FieldErrors } from "./errors";

export function validate<T extends ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
  /** A message for the whole error when the schema's rules call for one (else "field: first problem"). */
  message?: (fields: FieldErrors) => string | undefined,
) {
  return zValidator(target, schema, (result, c) => {
    if (result.success) return;
    const fields: FieldErrors = issuesByField(result.error);
    const first = Object.entries(fields)[0];
    const fallback = first ? `${first[0] === "_" ? "Request" : first[0]}: ${first[1][0]}` : "Invalid request";
    return apiError(c, 400, ErrorCode.validation, message?.(fields) ?? fallback, fields);
  });
}

/** The `:id` path parameter: a value that cannot be one of our ids is a 404 with the resource's message. */
export function validId(notFoundMessage: string) {
  return zValidator("param", IdParam, (result, c) => {
    if (!result.success) return apiError(c, 404, ErrorCode.notFound, notFoundMessage);
  });
}

/** The message for a body that is not JSON at all (the app's onError gives Hono's own refusal the same words). */
export const MALFORMED_JSON_MESSAGE = "The request body is not valid JSON.";

/**
 * A JSON body read by hand (for routes whose schema is chosen per request): `undefined` when there is no body,
 * `malformed` when there is one that does not parse. Never a default for broken input: a body that was meant to
 * say something and says nothing readable is refused, not run with defaults.
 */
export async function readJsonBody(c: Context): Promise<{ value: unknown } | { malformed: true }> {
  const text = await c.req.text();
  if (text.trim() === "") return { value: undefined };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { malformed: true };
  }
}
