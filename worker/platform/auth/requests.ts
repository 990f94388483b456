// Request bodies of the GoTrue endpoints and how they are read.
//
// Why not zValidator here: auth-js and other GoTrue clients must get GoTrue's error shape for every bad
// body. zValidator's json target skips bodies not labelled as JSON and throws hono's HTTPException for
// malformed JSON (rendered in the /api shape), so these endpoints read leniently and answer in GoTrue's.
import type { Context } from "hono";
import { z } from "zod";
import { MALFORMED_JSON_MESSAGE, readJsonBody } from "../validate";
import { authError } from "./gotrue";

const Email = z.string().trim().email().max(254);
const Password = z.string().min(1).max(1024);
const OpaqueToken = z.string().min(1).max(512);

/** user_metadata is free-form for GoTrue clients, but small: at most this many characters of JSON. */
export const MAX_USER_METADATA_CHARS = 4096;
const UserMetadata = z
  .unknown()
  .refine((v) => v === undefined || (JSON.stringify(v)?.length ?? 0) <= MAX_USER_METADATA_CHARS, {
    message: `user metadata must be at most ${MAX_USER_METADATA_CHARS} characters of JSON`,
  })
  .optional();

export const Credentials = z.object({ email: Email, password: Password });
export const SignUpBody = Credentials.extend({ data: UserMetadata });
export const RefreshBody = z.object({ refresh_token: OpaqueToken });
export const UpdateUserBody = z.object({
  email: Email.optional(),
  password: Password.optional(),
  /** Required to change the password or the email (except a recovery session's one new password). */
  current_password: Password.optional(),
  data: UserMetadata,
});
export const RecoverBody = z.object({ email: Email });
/** GoTrue's POST /resend: the sign-up confirmation link again (issue 39: a lost first mail had no way back). */
export const ResendBody = z.object({ type: z.literal("signup", { message: "type must be signup" }), email: Email });
export const VerifyBody = z.object({
  type: z.enum(["recovery", "magiclink", "email", "signup", "email_change"]),
  token_hash: OpaqueToken.optional(),
  token: OpaqueToken.optional(),
  email: z.string().trim().email().optional(),
});

/** The body parsed by `schema`, or GoTrue's 400 validation_failed with `message`. */
export async function readBody<T extends z.ZodType>(
  c: Context,
  schema: T,
  message: string,
): Promise<{ data: z.infer<T> } | { error: ReturnType<typeof authError> }> {
  // A body that does not parse is refused on every auth route, even where no body at all is fine (a factor's challenge).
  const raw = await readJsonBody(c);
  if ("malformed" in raw) return { error: authError(c, 400, "validation_failed", MALFORMED_JSON_MESSAGE) };
  const parsed = schema.safeParse(raw.value);
  if (!parsed.success) return { error: authError(c, 400, "validation_failed", message) };
  return { data: parsed.data };
}
