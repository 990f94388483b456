// Turns report and prospect rows into the JSON the admin and shared endpoints send.
import { aiConfigured } from "../../platform/providers/ai";
import type { Db } from "../../platform/db/client";
import type { ProspectRow } from "../prospects";
import { loadBrand } from "../../platform/brand/load";
import { publicBrand } from "../../platform/brand/rules/brand";
import { getAgencySender, getReportWithProspect, type ReportListRow, type ReportRow } from "./queries";
import { questionsFromText } from "../prospects/rules/prospect";
import type { ReportProspect } from "./rules/content";
import {
  contentFromStored,
  sharedReportPath,
  withAuditPotential,
  type AdminProspect,
  type AdminReportResponse,
  type ReportListItem,
  type SharedReportResponse,
} from "./rules/view";
import type { Env } from "../../platform/env";
import { REPORT_MAX_ATTEMPTS } from "./config";
import type { AuditView } from "../audits/rules/view";
import { latestProspectAuditView } from "../audits";
import { toReportProspect } from "./generate";
import type { LocalVisibility } from "../rank/rules/view";
import { latestLocalVisibility } from "../rank";
import type { ReportListings } from "../citations/rules/summary";
import { latestReportListings } from "../citations";
import { latestReportAiVisibility } from "../ai-visibility";
import type { ReportAiVisibility } from "../ai-visibility/rules/scans";

function viewContent(report: ReportRow, prospect: ReportProspect) {
  return contentFromStored(report, prospect);
}

export function adminProspectJson(p: ProspectRow): AdminProspect {
  return {
    id: p.id,
    name: p.name,
    company_name: p.companyName,
    phone: p.phone,
    email: p.email,
    description: p.description,
    area: p.area,
    keyword: p.keyword,
    tag: p.tag,
    created_at: p.createdAt,
    website: p.website ?? null,
  };
}

export { appOrigin } from "../../platform/origin";

export function adminReportJson(
  env: Env,
  report: ReportRow,
  prospect: ProspectRow,
  origin: string,
  audit: AuditView | null = null,
  localVisibility: LocalVisibility | null = null,
  listings: ReportListings | null = null,
  aiVisibility: ReportAiVisibility | null = null,
): AdminReportResponse {
  return {
    audit,
    localVisibility,
    listings,
    aiVisibility,
    report: {
      id: report.id,
      status: report.status,
      source: report.source,
      attempts: report.attempts,
      max_attempts: REPORT_MAX_ATTEMPTS,
      last_error: report.lastError,
      content_generated: report.contentGenerated,
      created_at: report.createdAt,
      generated_at: report.generatedAt,
      version: report.version,
      questions: questionsFromText(report.questions),
      content: withAuditPotential(viewContent(report, toReportProspect(prospect)), audit),
    },
    prospect: adminProspectJson(prospect),
    ai_configured: aiConfigured(env),
    share_url: `${origin}${sharedReportPath(report.id)}`,
  };
}

export function listItemJson(row: ReportListRow): ReportListItem {
  return {
    id: row.id,
    status: row.status,
    source: row.source,
    attempts: row.attempts,
    content_generated: row.contentGenerated,
    created_at: row.createdAt,
    generated_at: row.generatedAt,
    prospect: {
      id: row.prospectId,
      name: row.name,
      company_name: row.companyName,
      area: row.area,
      keyword: row.keyword,
      tag: row.tag,
    },
  };
}

/** What the other tools give a prospect's report: its latest audit, local visibility, listings and AI answers. */
export async function reportSections(db: Db, prospectId: string, opts: { publicView?: boolean } = {}) {
  const [audit, localVisibility, listings, aiVisibility] = await Promise.all([
    latestProspectAuditView(db, prospectId, opts),
    latestLocalVisibility(db, prospectId),
    latestReportListings(db, prospectId),
    latestReportAiVisibility(db, prospectId),
  ]);
  return { audit, localVisibility, listings, aiVisibility };
}

/** The public report: content, the prospect without phone or email, and the agency as sender. */
export async function loadSharedReport(db: Db, id: string): Promise<SharedReportResponse | null> {
  const [found, agency, brand] = await Promise.all([getReportWithProspect(db, id), getAgencySender(db), loadBrand(db)]);
  // With a brand set, the agency is the brand (its logo, or the first admin's when it has none).
  const sender = brand.custom ? { companyName: brand.name, logoUrl: brand.logoUrl ?? agency?.logoUrl ?? null, website: brand.website } : agency;
  if (!found) return null;
  const { report, prospect } = found;
  const sections = await reportSections(db, prospect.id, { publicView: true });
  const { audit } = sections;
  return {
    ...sections,
    report: {
      id: report.id,
      status: report.status,
      source: report.source,
      created_at: report.createdAt,
      generated_at: report.generatedAt,
      version: report.version,
      content: report.status === "ready" ? withAuditPotential(viewContent(report, toReportProspect(prospect)), audit) : null,
    },
    prospect: {
      name: prospect.name,
      company_name: prospect.companyName,
      area: prospect.area,
      keyword: prospect.keyword,
      tag: prospect.tag,
      description: prospect.description,
    },
    sender: sender ? { company_name: sender.companyName, logo_url: sender.logoUrl, website: sender.website } : null,
    brand: publicBrand(brand),
  };
}
