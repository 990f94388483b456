// A report made from the New Report form (admins): its prospect and report, the agency told, the prospect's audit
// started first when the report has a website or is to be generated (the job waits for it), and the job queued.
import { getDb } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { emitProspectsCreated } from "../../platform/notifications/emit";
import { ensureProspectAudits, latestProspectAuditView } from "../audits";
import { createProspectWithReport } from "./queries";
import { GENERATION_DEFERRED_MESSAGE, prospectFromForm, type ParsedNewReport } from "./rules/new-report";

/** The new report with its prospect and audit, and a warning when its job is left to the sweep; null: not stored. */
export async function createReport(env: Env, input: ParsedNewReport, callerId: string) {
  const { prospect, questions } = prospectFromForm(input);
  const db = getDb(env);
  let created;
  try {
    created = await createProspectWithReport(db, { prospect, questions, userId: callerId, queued: input.generate });
  } catch (error) {
    log.error("create report failed", {}, error);
    return null;
  }
  await emitProspectsCreated(env, [{ prospectId: created.prospect.id, reportId: created.report.id, name: created.prospect.name, area: created.prospect.area, source: "new_report" }]);
  let warning: string | undefined;
  // A report with a website, or one to be generated, starts its prospect's audit first (issue 18): the job waits for it.
  if (input.generate || input.website) await ensureProspectAudits(env, [created.prospect.id], callerId);
  if (input.generate) {
    try {
      await env.REPORT_JOBS.send({ reportId: created.report.id });
    } catch (error) {
      // The report stays queued; the sweep sends it later.
      log.error("report-jobs send failed; the sweep sends it later", { reportId: created.report.id }, error);
      warning = GENERATION_DEFERRED_MESSAGE;
    }
  }
  const audit = await latestProspectAuditView(db, created.prospect.id);
  return { ...created, audit, warning };
}
