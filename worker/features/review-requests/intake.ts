// How customers come in to be asked: one from the form or the field-service hook, or many from a list and a pasted CSV,
// each row checked on its own (the refused rows answered beside the made ones).
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import type { FieldErrors } from "../../platform/errors";
import { sha256Hex } from "../../platform/auth/tokens";
import { userByHookTokenHash } from "./queries";
import { createRequests, type Candidate, type Refused } from "./requests";
import { checkCustomer, customerFromHook, customersFromCsv, HookBody, MAX_CUSTOMERS_PER_CALL, type RowResult, type ValidCustomer } from "./rules/review-requests";

type Owner = { id: string; isAdmin: boolean; timeZone: string };

/** The rows of a many-customer call (its list, then its CSV's), or why the CSV gives none or too many. */
export function customerRows(body: { customers?: unknown[]; csv?: string }): { ok: true; candidates: Candidate[]; refused: Refused[] } | { ok: false; message: string; fields?: FieldErrors } {
  const candidates: Candidate[] = [];
  const refused: Refused[] = [];
  if (body.csv !== undefined) {
    const read = customersFromCsv(body.csv);
    const rows = read.rows.length + read.errors.length;
    if (rows > MAX_CUSTOMERS_PER_CALL) return { ok: false, message: `At most ${MAX_CUSTOMERS_PER_CALL} customers at once` };
    if (rows === 0) return { ok: false, message: "No customers found: give one a line (name, email, phone).", fields: { csv: ["No customers found"] } };
    candidates.push(...read.rows);
    refused.push(...read.errors);
  }
  (body.customers ?? []).forEach((input, i) => {
    const checked = checkCustomer(input);
    if (checked.ok) candidates.push({ row: i + 1, customer: checked.customer });
    else refused.push({ row: i + 1, ...checked.error });
  });
  return { ok: true, candidates, refused };
}

/** Requests for many customers at once: each row's result, and how many were made and refused. */
export async function requestMany(env: Env, db: Db, owner: Owner, rows: { candidates: Candidate[]; refused: Refused[] }, source: "csv" | "manual") {
  const results = await createRequests(env, db, owner, rows.candidates, rows.refused, source);
  const created = results.filter((r) => r.ok).length;
  return { results, created, refused: results.length - created };
}

/** A request for one customer (the form's or the hook's): its result, or undefined if none came back (never expected). */
export async function requestOne(env: Env, db: Db, owner: Owner, customer: ValidCustomer, source: "manual" | "hook"): Promise<RowResult | undefined> {
  const [result] = await createRequests(env, db, owner, [{ row: 1, customer }], [], source);
  return result;
}

/** The user whose hook address this token is (stored hashed), or null. */
export async function hookOwner(db: Db, token: string): Promise<string | null> {
  return token.length >= 20 && token.length <= 100 ? userByHookTokenHash(db, await sha256Hex(token)) : null;
}

/** The customer a field-service app's job-completed body names, or why it names none (its first problem). */
export function customerFromHookBody(raw: unknown): { ok: true; customer: ValidCustomer } | { ok: false; message: string } {
  const parsed = HookBody.safeParse(raw);
  if (!parsed.success) return { ok: false, message: `${parsed.error.issues[0]?.path.join(".") || "Request"}: ${parsed.error.issues[0]?.message}` };
  const checked = customerFromHook(parsed.data);
  return checked.ok ? { ok: true, customer: checked.customer } : { ok: false, message: checked.error.message };
}
