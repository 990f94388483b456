// zValidator with our error shape: 400 {error: {code: "validation_failed", message, fields}}; `:id` params answer 404.
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { issuesByField } from "./domain/form-rules";
import { IdParam } from "./domain/ids";
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
