// The clients view's bulk actions (issue 41): one estimate for the whole selection, then each client's run started by
// its own capability, as if the client had pressed the button. The estimate adds up each client's cost; a client past
// its allowance, or a sum past the operator's daily ceiling (or the Free pool), refuses the whole run before anything
// starts. A client that cannot run (not connected, no grid yet, a plan limit) is reported beside its name and the
// others go ahead.
import type { ClientRunContext, ClientRunner, ClientSubject } from "../../platform/client-runs";
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import { fromMicro } from "../../domain/metering";
import { fitsSelection } from "../../platform/metering/meter";
import { recordAudit, AuditAction } from "../../platform/auth/admin-queries";
import { log } from "../../platform/log";
import { reviewSyncRun } from "../reviews";
import { gridRun } from "../rank";
import { citationScanRun } from "../citations";
import { aiScanRun } from "../ai-visibility";
import { reportBuildRun, reportSendRun } from "../client-reports";
import { clientProfiles } from "./client-queries";
import { BULK_WORDING, BulkErrorCode, type BulkAction, type BulkEstimate, type BulkItem, type BulkResult } from "./rules/bulk";

const RUNNERS: Record<BulkAction, ClientRunner> = {
  sync_reviews: reviewSyncRun,
  run_grid: gridRun,
  citation_scan: citationScanRun,
  ai_scan: aiScanRun,
  build_reports: reportBuildRun,
  send_reports: reportSendRun,
};

/** Runs started at once: a Worker has six outgoing connections, and each start writes and sends to a queue. */
const STARTS_AT_ONCE = 4;

type Planned = { item: BulkItem; micro: number; start: (() => Promise<{ ok: true } | { ok: false; code: string; message: string }>) | null };

const nameOf = (p: ClientSubject["profile"] & object, id: string) => p.companyName?.trim() || p.email || id;

async function plan(env: Env, db: Db, action: BulkAction, userIds: string[], ctx: ClientRunContext) {
  const found = new Map((await clientProfiles(db, userIds)).map((p) => [p.id, p]));
  const planned: Planned[] = await Promise.all(
    userIds.map(async (userId): Promise<Planned> => {
      const profile = found.get(userId);
      const item: BulkItem = { userId, name: profile ? nameOf(profile, userId) : userId, status: "skipped", costUsd: 0, allowanceLeftUsd: null, code: null, message: null };
      if (!profile) return { item: { ...item, code: "not_a_client", message: BULK_WORDING.notClient }, micro: 0, start: null };
      const client: ClientSubject = { id: profile.id, email: profile.email ?? "", isAdmin: false, companyName: profile.companyName, profile };
      const run = await RUNNERS[action](env, db, client, ctx);
      if (!run.ok) return { item: { ...item, code: run.code, message: run.message }, micro: 0, start: null };
      return { item: { ...item, status: "ready", costUsd: fromMicro(run.micro) }, micro: run.micro, start: run.start };
    }),
  );
  const ready = planned.filter((p) => p.start !== null);
  const fits = await fitsSelection(env, db, ready.map((p) => ({ userId: p.item.userId, micro: p.micro })));
  const byUser = new Map(fits.perUser.map((u) => [u.userId, u]));
  for (const p of ready) {
    const fit = byUser.get(p.item.userId)!;
    p.item.allowanceLeftUsd = fit.allowanceLeftUsd;
    if (!fit.allowed) p.item.status = "over_allowance";
  }
  const over = ready.filter((p) => p.item.status === "over_allowance").length;
  const refusal =
    ready.length === 0
      ? { code: BulkErrorCode.nothingToRun, message: BULK_WORDING.nothingToRun }
      : over > 0
        ? { code: BulkErrorCode.overAllowance, message: BULK_WORDING.overAllowance(over) }
        : !fits.ceilingOk
          ? { code: BulkErrorCode.overCeiling, message: BULK_WORDING.overCeiling(fits.totalUsd, fits.ceilingLeftUsd) }
          : !fits.freePoolOk
            ? { code: BulkErrorCode.freePool, message: BULK_WORDING.freePool }
            : null;
  const estimate: BulkEstimate = {
    action,
    allowed: refusal === null,
    refusal,
    costUsd: fits.totalUsd,
    ready: ready.length - over,
    ceilingLeftUsd: fits.ceilingLeftUsd,
    items: planned.map((p) => p.item),
  };
  return { estimate, refusal, planned };
}

/** What the selection would cost, client by client, and whether it may run. Nothing is written or called. */
export async function bulkEstimate(env: Env, db: Db, action: BulkAction, userIds: string[], ctx: ClientRunContext): Promise<BulkEstimate> {
  return (await plan(env, db, action, userIds, ctx)).estimate;
}

/** Starts each ready client's run (a few at a time); each outcome beside its client. Null items: refused (see `refusal`). */
export async function runBulk(env: Env, db: Db, action: BulkAction, userIds: string[], ctx: ClientRunContext) {
  const planned = await plan(env, db, action, userIds, ctx);
  if (planned.refusal) return { refusal: planned.refusal, estimate: planned.estimate };
  const ready = planned.planned.filter((p) => p.start !== null);
  for (let i = 0; i < ready.length; i += STARTS_AT_ONCE) {
    await Promise.all(
      ready.slice(i, i + STARTS_AT_ONCE).map(async (p) => {
        const outcome = await p.start!().catch((error: unknown) => {
          log.error("command-center: a bulk run did not start", { action, userId: p.item.userId }, error);
          return { ok: false as const, code: "unavailable", message: "It could not be started. Please try again." };
        });
        Object.assign(p.item, outcome.ok ? { status: "started" } : { status: "failed", code: outcome.code, message: outcome.message });
      }),
    );
  }
  const items = planned.planned.map((p) => p.item);
  const count = (s: BulkItem["status"]) => items.filter((i) => i.status === s).length;
  await recordAudit(db, { actorId: ctx.actorId, action: AuditAction.clientsBulk, targetId: action, detail: { started: items.filter((i) => i.status === "started").map((i) => i.userId), failed: count("failed"), skipped: count("skipped") } });
  const result: BulkResult = { action, started: count("started"), failed: count("failed"), skipped: count("skipped"), costUsd: planned.estimate.costUsd, items };
  return { result };
}
