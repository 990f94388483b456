// What a web form needs to know about a shared zod object schema: which fields are required and how long each may be.
import { z } from "zod";

export type FieldRule = { required: boolean; maxLength?: number };

/** The string schema under optional/default wrappers, if there is one. */
function innerString(schema: z.ZodType): z.ZodString | null {
  let current: unknown = schema;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof z.ZodString) return current;
    current = (current as { def?: { innerType?: unknown } }).def?.innerType;
  }
  return null;
}

/** Per field: required when the schema refuses a missing value; maxLength from the string's max check. */
export function fieldRules<S extends Record<string, z.ZodType>>(shape: S): { [K in keyof S]: FieldRule } {
  const rules = {} as { [K in keyof S]: FieldRule };
  for (const key of Object.keys(shape) as (keyof S)[]) {
    const schema = shape[key]!;
    const maxLength = innerString(schema)?.maxLength ?? undefined;
    rules[key] = { required: !schema.safeParse(undefined).success, ...(maxLength != null ? { maxLength } : {}) };
  }
  return rules;
}

/** A failed parse as field → messages (the same shape the API's validator answers with). */
export function issuesByField(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "_";
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}

/** Control characters no typed or pasted text needs (tab, line feed and carriage return stay allowed). */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
export const NO_CONTROL_CHARACTERS = "Must not contain control characters";
export const noControlCharacters = (value: string) => !CONTROL_CHARACTERS.test(value);
