// A prospect as the API answers it (the list, a tag change, an import) and as the CSV export writes it.
import { toCsv } from "../../domain/csv";
import type { Db } from "../../platform/db/client";
import type { ProspectDto } from "../accounts/rules/admin-api";
import { listAllProspects, type NewProspect, type ProspectWithReport } from "./queries";

/** A prospect as the API returns it: the spec's field names plus its report's id and state. */
export function prospectJson(p: ProspectWithReport): ProspectDto {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    area: p.area,
    keyword: p.keyword,
    phone: p.phone,
    email: p.email,
    tag: p.tag,
    company_name: p.companyName,
    website: p.website ?? null,
    user_id: p.userId,
    created_at: p.createdAt,
    report: p.reportId
      ? {
          id: p.reportId,
          content_generated: Boolean(p.reportContentGenerated),
          status: p.reportStatus ?? "draft",
          opens: Number(p.reportOpens ?? 0),
          last_opened_at: p.reportLastOpenedAt ?? null,
        }
      : null,
    last_chat_at: p.lastChatAt ?? null,
  };
}

/** A just-inserted prospect in the shape the list returns, without reading it back. */
export function asListed(p: NewProspect, reportId: string): ProspectWithReport {
  return {
    id: p.id,
    name: p.name,
    description: p.description ?? "",
    area: p.area,
    keyword: p.keyword ?? "",
    phone: p.phone ?? "",
    email: p.email ?? "",
    tag: p.tag ?? null,
    companyName: p.companyName ?? "",
    userId: p.userId ?? null,
    createdAt: p.createdAt!,
    seq: 0,
    reportId,
    reportContentGenerated: false,
    reportStatus: "draft",
  };
}

const CSV_HEADER = ["Name", "Company Name", "Description", "Area", "Keyword", "Phone", "Email", "Tag", "Created", "Report ID", "Report Status"];

/** The prospects a search finds as a CSV file: its name (dated today) and its text, after a byte-order mark. */
export async function prospectsCsv(db: Db, q: string, now = new Date()): Promise<{ filename: string; text: string }> {
  const rows = await listAllProspects(db, q);
  const csv = toCsv([
    CSV_HEADER,
    ...rows.map((p) => [p.name, p.companyName, p.description, p.area, p.keyword, p.phone, p.email, p.tag, p.createdAt, p.reportId, p.reportStatus]),
  ]);
  // The byte-order mark makes spreadsheet apps read the file as UTF-8.
  return { filename: `prospects-${now.toISOString().slice(0, 10)}.csv`, text: `\uFEFF${csv}` };
}
