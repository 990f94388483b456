// /api/gbp/guard (issue 41): the guard on a business's Google profile. `business` is `own` (the signed-in user, or the
// user viewed as) or a client's user id (an admin acting as one). Accept and reject are the owner's or an acting
// admin's; viewing as someone is read-only (requireUser refuses writes).
import { Hono, type Context } from "hono";
import { z } from "zod";
import { actsAsAdmin, adminRefusal, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { apiError, ErrorCode, HttpError } from "../../platform/errors";
import { MALFORMED_JSON_MESSAGE, readJsonBody, validate, validId } from "../../platform/validate";
import { issuesByField } from "../../domain/form-rules";
import { findChange, type GuardChangeRow } from "./queries";
import { checkNow } from "./check";
import { decide, RiskyEdit, type Decision } from "./decide";
import { changeView, guardView } from "./view";
import { ownerEdit } from "./edit";
import { OwnerEdit } from "./rules/edit";
import { GUARD_WORDING, GuardDecision, GuardErrorCode } from "./rules/guard";

const BusinessQuery = z.object({ business: z.union([z.literal("own"), z.string().trim().min(1).max(100)], { error: "business: own or a client's user id" }).default("own") });

/** The user whose guard the request reads: its own, or (an acting admin only) a client's. */
function businessOf(c: Context<AppEnv>, business: string): { userId: string } | Response {
  const subject = c.get("subject");
  if (business === "own" || business === subject.id) return { userId: subject.id };
  const refused = adminRefusal(c, "You need administrator privileges to see a client's profile guard.");
  return refused ?? { userId: business };
}

/** The change, when the caller may decide it: its owner, or an acting admin. */
async function changeFor(c: Context<AppEnv>, id: string): Promise<GuardChangeRow | null> {
  const row = await findChange(getDb(c.env), id);
  if (!row) return null;
  return row.userId === c.get("subject").id || actsAsAdmin(c) ? row : null;
}

/** The body is optional (`{}` when absent); one that does not parse or fit is refused, never run with defaults. */
async function decisionInput(c: Context<AppEnv>): Promise<GuardDecision | Response> {
  const body = await readJsonBody(c);
  if ("malformed" in body) return apiError(c, 400, ErrorCode.validation, MALFORMED_JSON_MESSAGE);
  const parsed = GuardDecision.safeParse(body.value === undefined ? {} : body.value);
  if (parsed.success) return parsed.data;
  const fields = issuesByField(parsed.error);
  const [field, problems] = Object.entries(fields)[0] ?? ["_", ["Invalid request"]];
  return apiError(c, 400, ErrorCode.validation, `${field === "_" ? "Request" : field}: ${problems[0]}`, fields);
}

async function decided(c: Context<AppEnv>, id: string, decision: Decision) {
  const input = await decisionInput(c);
  if (input instanceof Response) return input;
  const change = await changeFor(c, id);
  if (!change) return apiError(c, 404, ErrorCode.notFound, GUARD_WORDING.changeNotFound);
  const confirmRisks = input.confirmRisks;
  const db = getDb(c.env);
  try {
    const row = await decide(c.env, db, change, decision, { by: c.get("subject").id, confirmRisks: confirmRisks === true });
    return c.json({ change: await changeView(db, row, new Map()) });
  } catch (error) {
    return guardError(c, error);
  }
}

/** A refusal the person must see: risky (409 with the risks), decided already, not connected, Google's 502/503. */
function guardError(c: Context<AppEnv>, error: unknown) {
  if (error instanceof RiskyEdit) return c.json({ error: { code: GuardErrorCode.risky, message: error.message, risks: error.risks } }, 409);
  if (error instanceof HttpError) return apiError(c, error.status, error.code, error.message);
  throw error;
}

const changeParam = validId(GUARD_WORDING.changeNotFound);

export const guardRoutes = new Hono<AppEnv>()
  .use(requireUser)

  .get("/", validate("query", BusinessQuery), async (c) => {
    const scope = businessOf(c, c.req.valid("query").business);
    if (scope instanceof Response) return scope;
    return c.json(await guardView(getDb(c.env), scope.userId));
  })

  .post("/check", validate("query", BusinessQuery), async (c) => {
    const scope = businessOf(c, c.req.valid("query").business);
    if (scope instanceof Response) return scope;
    const queued = await checkNow(c.env, getDb(c.env), scope.userId);
    return c.json({ queued, message: GUARD_WORDING.checkQueued }, 202);
  })

  // The owner's own edit (name, address, phone, website) after the risk check; an acting admin may edit a client's.
  .post("/edit", validate("query", BusinessQuery), validate("json", OwnerEdit), async (c) => {
    const scope = businessOf(c, c.req.valid("query").business);
    if (scope instanceof Response) return scope;
    try {
      const sent = await ownerEdit(c.env, getDb(c.env), scope.userId, c.req.valid("json"));
      return c.json({ ...sent, message: GUARD_WORDING.edited });
    } catch (error) {
      return guardError(c, error);
    }
  })

  .post("/:id/accept", changeParam, (c) => decided(c, c.req.valid("param").id, "accept"))

  .post("/:id/reject", changeParam, (c) => decided(c, c.req.valid("param").id, "reject"));
