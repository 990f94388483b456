// GET /shared/client-reports/:token: the monthly client report (issue 30) as server-rendered HTML, edge-cached by
// token + version + asset build + brand (the Cache API only as an optimisation; an ETag answers 304); GET …/:token.pdf:
// its PDF, made once per version and kept in R2. POST /api/shared/client-reports/:token/events: its view beacon, as
// the shared report's (202 counted, 204 not, the reason in X-Beacon).
import { matchesEtag } from "../../platform/edge-cache";
import { waitUntil } from "../../platform/context";
import { Hono, type Context } from "hono";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { clientReportHead, recordClientReportView } from "./share-queries";
import { countEvent } from "../../platform/db/rate-limits";
import { clientIp } from "../../platform/auth/session";
import { brandStamp, loadBrand } from "../../platform/brand/load";
import { emitClientReportOpened } from "./opened";
import { SHARE_TOKEN_RE, clientReportCard, clientReportCardVersion, clientReportPdfBody, loadSharedClientReport } from "./share";
import { sharedClientReportPage, visitSubject } from "./shared-page";
import { reportPdfFilename } from "./rules/format";
import { BEACONS_PER_IP_PER_MINUTE, BEACONS_PER_REPORT_PER_MINUTE, ClientReportBeacon, isLinkPreviewer } from "../reports/rules/events";
import { VISIT_TOKEN_TTL_SECONDS, notFoundPage, sendShared, sharedRequest, verifyVisitToken } from "../reports";
import { beaconHandlers, readBeacon, type BeaconOutcome } from "../reports";

/** A PDF's URL does not carry its version: browsers revalidate it (ETag) rather than keep an old one. */
const PDF_CACHE_CONTROL = "private, max-age=0, must-revalidate";

/** The shared report's not-found page, with its stylesheet. */
const notFound = async (c: Context<AppEnv>) => sendShared(c, await notFoundPage(c.env, c.req.url));

const PDF_PATH = "/:file{[A-Za-z0-9_-]+\\.pdf}";

export const sharedClientReportPageRoutes = new Hono<AppEnv>()
  .get(PDF_PATH, async (c) => {
    const token = c.req.param("file").replace(/\.pdf$/, "");
    const db = getDb(c.env);
    const report = await loadSharedClientReport(db, token);
    if (!report) return notFound(c);
    const brand = await loadBrand(c.env);
    const stamp = brandStamp(brand);
    const etag = `"cr-pdf-${report.id}-v${report.version}${stamp ? `-${stamp}` : ""}"`;
    const filename = reportPdfFilename(report.payload);
    const headers: Record<string, string> = {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${filename}"`,
      "Cache-Control": PDF_CACHE_CONTROL,
      "X-Robots-Tag": "noindex, nofollow",
      "X-Content-Type-Options": "nosniff",
      ETag: etag,
    };
    if (matchesEtag(c.req.header("If-None-Match"), etag)) return c.body(null, 304, headers);
    const pdf = await clientReportPdfBody(c.env, db, report, brand, stamp);
    return new Response(pdf.body as BodyInit, { headers: { ...headers, "Content-Length": String(pdf.bytes), "X-Pdf": pdf.made ? "MADE" : "STORED" } });
  })

  .get("/:token/card.png", async (c) => {
    const report = await loadSharedClientReport(getDb(c.env), c.req.param("token"));
    if (!report) return c.body("Report not found", 404, { "Content-Type": "text/plain; charset=utf-8" });
    const brand = await loadBrand(c.env);
    const stamp = brandStamp(brand);
    const card = await clientReportCard(c.env, report, brand, stamp, (p) => waitUntil(c, p));
    const exact = c.req.query("v") === clientReportCardVersion(report.version, stamp);
    return new Response(card.body as BodyInit, {
      headers: {
        "Content-Type": "image/png",
        // Its URL carries its version, so the image never changes under it.
        "Cache-Control": exact ? "public, max-age=31536000, immutable" : "public, max-age=300",
        "X-Robots-Tag": "noindex, nofollow",
        "X-Card": card.rendered ? "RENDERED" : "STORED",
      },
    });
  })

  .get("/:token", async (c) => {
    const page = await sharedClientReportPage(c.env, c.req.param("token"), sharedRequest(c), c.req.query("preview") === "1");
    return page ? sendShared(c, page) : notFound(c);
  });

async function handleBeacon(c: Context<AppEnv>): Promise<BeaconOutcome> {
  const token = c.req.param("token") ?? "";
  if (!SHARE_TOKEN_RE.test(token)) return "unknown_report";
  if (isLinkPreviewer(c.req.header("User-Agent"))) return "previewer";
  const parsed = ClientReportBeacon.safeParse(await readBeacon(c));
  if (!parsed.success) return "invalid";

  const db = getDb(c.env);
  const head = await clientReportHead(db, token);
  if (!head) return "unknown_report";
  if (head.status !== "ready") return "not_ready";
  // Only a visit the worker signed into the page counts (a preview's page carries none).
  const visitId = await verifyVisitToken(c.env, visitSubject(head.id), parsed.data.visit);
  if (!visitId) return "unsigned_visit";

  const ip = clientIp(c);
  const [perIp, perReport, perVisit] = await Promise.all([
    countEvent(db, { key: `beacon:ip:${ip}`, max: BEACONS_PER_IP_PER_MINUTE, windowSeconds: 60 }),
    countEvent(db, { key: `beacon:client-report:${head.id}`, max: BEACONS_PER_REPORT_PER_MINUTE, windowSeconds: 60 }),
    // One view per visit: the visit's first `opened` counts, the token's lifetime long.
    countEvent(db, { key: `beacon:client-report-visit:${visitId}`, max: 1, windowSeconds: VISIT_TOKEN_TTL_SECONDS }),
  ]);
  if (perIp > BEACONS_PER_IP_PER_MINUTE || perReport > BEACONS_PER_REPORT_PER_MINUTE) return "rate_limited";
  if (perVisit > 1) return "duplicate";

  const at = new Date().toISOString();
  const view = await recordClientReportView(db, head.id, at);
  if (!view) return "not_ready";
  // The first open tells the agency (bell, mail, webhook) after the answer: the beacon never waits for it.
  if (view.first) c.executionCtx.waitUntil(emitClientReportOpened(c.env, db, { reportId: head.id, userId: head.userId, at }));
  return "recorded";
}

export const sharedClientReportEventRoutes = new Hono<AppEnv>().post("/:token/events", ...beaconHandlers("client report beacon", handleBeacon));
