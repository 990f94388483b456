// The monthly client report behind its shared link (issue 30): the ready report by token with its payload, and its
// PDF, made on the first request for a (report, version, brand) and kept in R2 (FILES), then streamed from there.
import type { Db } from "../../platform/db/client";
import { getBrandRow } from "../../platform/brand/queries";
import { clientReportByToken, setClientReportPdf, type SharedClientReportRow } from "./share-queries";
import type { ClientReportPayload } from "./rules/client-report";
import { publicBrand, type Brand } from "../../platform/brand/rules/brand";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { clientReportPdf, type PdfBrand } from "./pdf";
import { clientReportCardSvg } from "./og-card";
import { svgToPng } from "../../platform/og/render-card";

/** A share token as the builder makes them: long, URL-safe; anything else is not looked up. */
export const SHARE_TOKEN_RE = /^[A-Za-z0-9_-]{16,128}$/;

export type SharedClientReport = Omit<SharedClientReportRow, "payload"> & { payload: ClientReportPayload };

function parsePayload(json: string | null): ClientReportPayload | null {
  if (!json) return null;
  try {
    const payload = JSON.parse(json) as ClientReportPayload;
    return payload && typeof payload === "object" && payload.business && Array.isArray(payload.headline) ? payload : null;
  } catch {
    return null;
  }
}

/** The report when it is ready to be read (built, with a payload), else null: unknown and not-ready look the same. */
export async function loadSharedClientReport(db: Db, token: string): Promise<SharedClientReport | null> {
  if (!SHARE_TOKEN_RE.test(token)) return null;
  const row = await clientReportByToken(db, token);
  if (!row || row.status !== "ready") return null;
  const payload = parsePayload(row.payload);
  if (!payload) {
    if (row.payload) log.warn("client report payload unreadable", { reportId: row.id });
    return null;
  }
  return { ...row, payload };
}

/** Where a version's PDF is kept: the brand's stamp is part of it, so a saved brand makes a new PDF. */
export function clientReportPdfKey(id: string, version: number, brandStamp = ""): string {
  return `client-reports/${id}/v${version}${brandStamp ? `-${brandStamp}` : ""}.pdf`;
}

/** The brand as the PDF draws it: its public fields and its stored logo's bytes (PNG or JPEG are drawn). */
export async function pdfBrand(env: Env, db: Db, brand: Brand): Promise<PdfBrand> {
  const base = publicBrand(brand);
  if (!brand.custom || !brand.logoUrl) return { ...base, logo: null };
  try {
    const row = await getBrandRow(db);
    const object = row?.logoKey ? await env.FILES.get(row.logoKey) : null;
    if (!object) return { ...base, logo: null };
    return { ...base, logo: { bytes: new Uint8Array(await object.arrayBuffer()), contentType: row?.logoContentType ?? null } };
  } catch (error) {
    log.warn("client report pdf: brand logo unreadable", {}, error);
    return { ...base, logo: null };
  }
}

export type PdfBody = { body: ReadableStream | Uint8Array; bytes: number; made: boolean };

/**
 * The stored PDF of this version (and brand), or a new one made, stored and recorded (pdf_key, pdf_bytes). A failed
 * store is logged and the PDF is still served; the next request tries again.
 */
export async function clientReportPdfBody(env: Env, db: Db, report: SharedClientReport, brand: Brand, brandStamp: string): Promise<PdfBody> {
  const key = clientReportPdfKey(report.id, report.version, brandStamp);
  if (report.pdfKey === key) {
    const stored = await env.FILES.get(key).catch(() => null);
    if (stored) return { body: stored.body, bytes: stored.size, made: false };
  }
  const pdf = await clientReportPdf(report.payload, await pdfBrand(env, db, brand));
  try {
    await env.FILES.put(key, pdf, { httpMetadata: { contentType: "application/pdf" } });
    await setClientReportPdf(db, report.id, report.version, { key, bytes: pdf.byteLength });
    // The key of an older version or brand is not needed any more.
    if (report.pdfKey && report.pdfKey !== key) await env.FILES.delete(report.pdfKey).catch(() => undefined);
  } catch (error) {
    log.warn("client report pdf not stored", { reportId: report.id }, error);
  }
  return { body: pdf, bytes: pdf.byteLength, made: true };
}

/** The card's version in its URL and key: the report's, and the brand's stamp once a brand is set. */
export function clientReportCardVersion(version: number, brandStamp = ""): string {
  return brandStamp ? `${version}.${brandStamp}` : String(version);
}

/** The Open Graph card of this version (and brand), or a fresh one drawn and stored (a failed store is only logged). */
export async function clientReportCard(env: Env, report: SharedClientReport, brand: Brand, brandStamp: string, waitUntil: (p: Promise<unknown>) => void) {
  const key = `client-reports/${report.id}/card-v${clientReportCardVersion(report.version, brandStamp)}.png`;
  const stored = await env.FILES.get(key).catch(() => null);
  if (stored) return { body: stored.body as ReadableStream | Uint8Array, rendered: false };
  const png = await svgToPng(clientReportCardSvg(report.payload, publicBrand(brand)));
  waitUntil(env.FILES.put(key, png, { httpMetadata: { contentType: "image/png" } }).catch((error) => log.warn("client report card store failed", { key }, error)));
  return { body: png as ReadableStream | Uint8Array, rendered: true };
}
