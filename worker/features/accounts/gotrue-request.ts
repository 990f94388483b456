// What a signed-in GoTrue route reads before its work: the bearer token's user and session, then the body (each
// refused in GoTrue's words, in that order: an unsigned request never has its body judged).
import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../../platform/context";
import type { Db } from "../../platform/db/client";
import { readBody } from "../../platform/auth/requests";
import { bearerUser } from "../../platform/auth/session";

export async function bearerAndBody<T extends z.ZodType>(c: Context<AppEnv>, db: Db, schema: T, message: string) {
  const found = await bearerUser(c, db);
  if ("error" in found) return { error: found.error };
  const body = await readBody(c, schema, message);
  if ("error" in body) return { error: body.error };
  return { found, body: body.data };
}
