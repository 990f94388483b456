// POST /api/shared/reports/:id/events: view-tracking beacons from the shared page. Public and rate-limited; it
// never fails the page: every answer is 202 (counted) or 204 (not counted), with the reason in X-Beacon.
import { Hono, type Context } from "hono";
import { beaconHandlers, readBeacon, type BeaconOutcome } from "./beacon-answer";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { countEvent } from "../../platform/db/rate-limits";
import { beaconHead, recordReportEvent } from "./events-queries";
import { emitBeacon } from "./beacons";
import { clientIp } from "../../platform/auth/session";
import { verifyVisitToken } from "./visit-token";
import {
  BEACON_EVENTS_PER_VISIT,
  BEACONS_PER_IP_PER_MINUTE,
  BEACONS_PER_REPORT_PER_MINUTE,
  ReportBeacon,
  countsForStatus,
  isLinkPreviewer,
} from "./rules/events";

const MAX_ID_LENGTH = 64;

async function handleBeacon(c: Context<AppEnv>): Promise<BeaconOutcome> {
  const id = c.req.param("id") ?? "";
  if (!id || id.length > MAX_ID_LENGTH) return "unknown_report";
  if (isLinkPreviewer(c.req.header("User-Agent"))) return "previewer";
  const parsed = ReportBeacon.safeParse(await readBeacon(c));
  if (!parsed.success) return "invalid";
  const beacon = parsed.data;
  // The agency's own people opening their links (the SPA marks their browsers) are not prospects.
  if (beacon.staff) return "staff";

  const db = getDb(c.env);
  const head = await beaconHead(db, id);
  if (!head) return "unknown_report";
  if (!countsForStatus(head.status)) return "not_ready";

  // Only a visit the worker signed into the page counts: made-up visit ids cannot forge opens.
  const visitId = await verifyVisitToken(c.env, id, beacon.visit);
  if (!visitId) return "unsigned_visit";

  const ip = clientIp(c);
  const [perIp, perReport, perVisit] = await Promise.all([
    countEvent(db, { key: `beacon:ip:${ip}`, max: BEACONS_PER_IP_PER_MINUTE, windowSeconds: 60 }),
    countEvent(db, { key: `beacon:report:${id}`, max: BEACONS_PER_REPORT_PER_MINUTE, windowSeconds: 60 }),
    countEvent(db, { key: `beacon:visit:${visitId}`, max: BEACON_EVENTS_PER_VISIT, windowSeconds: 86_400 }),
  ]);
  if (perIp > BEACONS_PER_IP_PER_MINUTE || perReport > BEACONS_PER_REPORT_PER_MINUTE || perVisit > BEACON_EVENTS_PER_VISIT) return "rate_limited";

  const fresh = await recordReportEvent(db, {
    reportId: id,
    visitId,
    event: beacon.event,
    section: beacon.section ?? null,
  });
  if (!fresh) return "duplicate";
  // What it tells the agency (an open is an alert when it is the first or 7+ days after the last one, read with the
  // report above, before this open) goes out after the answer: the page's beacon never waits for alerts or webhooks.
  const recorded = { reportId: id, prospectId: head.prospectId, visitId, event: beacon.event, previousOpenAt: head.lastOpenedAt, at: new Date().toISOString() };
  c.executionCtx.waitUntil(emitBeacon(c.env, db, recorded));
  return "recorded";
}

export const sharedReportEventRoutes = new Hono<AppEnv>().post("/:id/events", ...beaconHandlers("report beacon", handleBeacon));
