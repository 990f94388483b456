// Whose business a request works on (issue 40: thin routes). The tools that work on "own" or a prospect (rank,
// citations, AI Visibility, audits) name it in their input; `businessScope` reads it once the validator has run,
// refuses a prospect to anyone but an admin (admin status from the database, and a verified second factor where it
// is required), and puts the resolved scope on the context. `mayReadBusinessRow` is the read rule of their rows.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { actsAsAdmin, adminMfaMissing, ADMIN_MFA_MESSAGE } from "../auth/middleware";
import type { ProfileRow } from "../auth/users";
import type { AppEnv, BusinessScope } from "../context";
import { apiError, ErrorCode } from "../errors";

export type { BusinessScope } from "../context";

/** The scope as the tools' owner keys read it: `own:<user>` or `prospect:<id>`. */
export function scopeOwner(scope: BusinessScope): { kind: "own"; userId: string } | { kind: "prospect"; prospectId: string } {
  return scope.kind === "own" ? { kind: "own", userId: scope.userId } : { kind: "prospect", prospectId: scope.prospectId };
}

/** The scope as the audited-business readers take it (`{own: true, ...}` or `{prospectId}`). */
export function scopeTarget(scope: BusinessScope): { own: true; userId: string; profile: ProfileRow | null } | { prospectId: string } {
  return scope.kind === "own" ? { own: true, userId: scope.userId, profile: scope.profile } : { prospectId: scope.prospectId };
}

/**
 * The second-factor wording of the refusal: the rank and audit tools answer with requireAdmin's, citations and AI
 * Visibility with a shorter one. Both are kept as they were answered before the routes shared this rule.
 */
export const PROSPECT_MFA_MESSAGE = { admin: ADMIN_MFA_MESSAGE, short: "Verify your two-factor code to continue." } as const;
export type ProspectMfaWording = keyof typeof PROSPECT_MFA_MESSAGE;

/** The refusal for a caller who may not `what` a prospect, or null when they may. */
export function prospectRefusal(c: Context<AppEnv>, what: string, wording: ProspectMfaWording = "admin") {
  if (!c.get("subject").isAdmin) return apiError(c, 403, ErrorCode.adminRequired, `You need administrator privileges to ${what} a prospect.`);
  if (adminMfaMissing(c.env, c.get("caller"))) return apiError(c, 403, ErrorCode.mfaRequired, PROSPECT_MFA_MESSAGE[wording]);
  return null;
}

type ScopeInput = { from: "json" | "query"; field: "business" | "prospectId"; what: string; wording?: ProspectMfaWording };

/** The prospect an input names: `business` is `"own"` or a prospect id; `prospectId` names one when present. */
function prospectNamed(input: Record<string, unknown>, field: ScopeInput["field"]): string | null {
  const value = input[field];
  if (typeof value !== "string") return null;
  return field === "business" && value === "own" ? null : value;
}

/**
 * After requireUser and the validator of `from`: resolves the request's business from its `field` (a prospect only
 * for an admin, `what` naming the refused act) and sets it as `business` on the context.
 */
export function businessScope({ from, field, what, wording }: ScopeInput) {
  return createMiddleware<AppEnv>(async (c, next) => {
    // The validated input: the validator before this middleware has parsed it (a plain read, typed by the route).
    const input = ((c.req as unknown as { valid(target: string): unknown }).valid(from) ?? {}) as Record<string, unknown>;
    const prospectId = prospectNamed(input, field);
    if (prospectId !== null) {
      const refused = prospectRefusal(c, what, wording);
      if (refused) return refused;
      c.set("business", { kind: "prospect", prospectId });
    } else {
      const subject = c.get("subject");
      c.set("business", { kind: "own", userId: subject.id, profile: subject.profile });
    }
    await next();
  });
}

/**
 * The read rule of a business's rows (scans, keywords, questions, audits): a prospect's are an admin's, an own one
 * its owner's (as the subject, so view-as reads it). `adminFlag`: the admin flag alone admits (citations and AI
 * Visibility read so); otherwise the admin must also act as one (REQUIRE_ADMIN_MFA's verified second factor).
 */
export function mayReadBusinessRow(c: Context<AppEnv>, row: { kind: string; userId: string | null }, rule: "acting-admin" | "admin-flag" = "acting-admin"): boolean {
  if (row.kind !== "prospect") return row.userId === c.get("subject").id;
  return rule === "admin-flag" ? c.get("subject").isAdmin : actsAsAdmin(c);
}
