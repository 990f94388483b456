// zValidator with our error shape: 400 {error: {code: "validation_failed", message, fields}}.
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { apiError, ErrorCode, type FieldErrors } from "./errors";

export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result, c) => {
    if (result.success) return;
    const fields: FieldErrors = {};
    for (const issue of result.error.issues) {
      const key = issue.path.join(".") || "_";
      (fields[key] ??= []).push(issue.message);
    }
    const first = Object.entries(fields)[0];
    const message = first ? `${first[0] === "_" ? "Request" : first[0]}: ${first[1][0]}` : "Invalid request";
    return apiError(c, 400, ErrorCode.validation, message, fields);
  });
}
