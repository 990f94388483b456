// The report's Open Graph card: rendered on first request for a content version and kept in R2 (FILES),
// so each version is drawn once; later requests stream it from R2.
import { cardVersion, type SharedReportResponse } from "./rules/view";

export { cardVersion, ogCardPath } from "./rules/view";
import type { Env } from "../../platform/env";
import { reportCardSvg } from "./card-svg";
import { svgToPng } from "../../platform/og/render-card";
import { log } from "../../platform/log";


export function ogCardKey(id: string, version: number, brand = ""): string {
  return `og-cards/${id}/v${cardVersion(version, brand)}.png`;
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
