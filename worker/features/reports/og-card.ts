// The report's Open Graph card: rendered on first request for a content version and kept in R2 (FILES),
// so each version is drawn once; later requests stream it from R2.
import type { SharedReportResponse } from "./rules/view";
import type { Env } from "../../platform/env";
import { reportCardSvg } from "./card-svg";
import { svgToPng } from "../../platform/og/render-card";
import { log } from "../../platform/log";

/** The card's version: the report's, and the brand's stamp once a brand is set (the card names the agency). */
export function cardVersion(version: number, brand = ""): string {
  return brand ? `${version}.${brand}` : String(version);
}

export function ogCardKey(id: string, version: number, brand = ""): string {
  return `og-cards/${id}/v${cardVersion(version, brand)}.png`;
}

/** Public path of the card; `v` makes each version its own URL, so the image can be cached for good. */
export function ogCardPath(id: string, version: number, brand = ""): string {
  return `/shared/reports/${encodeURIComponent(id)}/card.png?v=${cardVersion(version, brand)}`;
}

export type CardBody = { body: ReadableStream | Uint8Array; rendered: boolean };

/** The stored card of this version, or a fresh one rendered and stored (a failed store is only logged). */
export async function reportCard(env: Env, data: SharedReportResponse, waitUntil: (p: Promise<unknown>) => void, brand = ""): Promise<CardBody> {
  const key = ogCardKey(data.report.id, data.report.version, brand);
  const stored = await env.FILES.get(key).catch(() => null);
  if (stored) return { body: stored.body, rendered: false };
  const png = await svgToPng(reportCardSvg(data));
  waitUntil(
    env.FILES.put(key, png, { httpMetadata: { contentType: "image/png" } }).catch((error) =>
      log.warn("og card store failed", { key }, error),
    ),
  );
  return { body: png, rendered: true };
}
