// A form value checked by its shared zod schema before the form submits.
import type { ZodType } from "zod";

/** The parsed value, or null once `showError` has the schema's first message (`fallback` without one); a valid value clears it. */
export function checkField<T>(schema: ZodType<T>, value: unknown, showError: (message: string | null) => void, fallback: string): T | null {
  const parsed = schema.safeParse(value);
  showError(parsed.success ? null : (parsed.error.issues[0]?.message ?? fallback));
  return parsed.success ? parsed.data : null;
}
