// The Open Graph card of a shared report (1200×630) as SVG: business, area, keyword, the SEO potential score
// and what the report holds, branded with the sending agency. Pure: rasterised by worker/platform/og/render-card.ts.
import type { SharedReportResponse } from "./rules/view";
import { rankingLabel } from "./rules/seo-potential";
import { DEFAULT_BRAND_NAME } from "../../platform/brand/rules/brand";
import { CARD_FONT, CARD_HEIGHT, CARD_WIDTH, EM_PER_CHAR, esc, titleSize, wrapText } from "../../platform/og/card-svg";

const COLORS = { HIGH: "#22c55e", MEDIUM: "#f2a120", LOW: "#ef6b57" } as const;

export function reportCardSvg(data: SharedReportResponse): string {
  const { prospect, report, sender } = data;
  const content = report.content;
  const agency = sender?.company_name?.trim() || DEFAULT_BRAND_NAME;
  // No figure (an audit without data, issue 39): an empty ring that says so, never a made-up score.
  const known = content?.seoPotential ?? null;
  const score = known ? Math.max(0, Math.min(100, Math.round(known.score))) : 0;
  const level = known ? rankingLabel(score) : "NOT SCORED YET";
  const color = known ? COLORS[rankingLabel(score)] : "#9aa6b8";

  const textWidth = 700;
  const size = titleSize(prospect.name, textWidth, 2);
  const nameLines = wrapText(prospect.name, Math.floor(textWidth / (size * EM_PER_CHAR)), 2);
  const nameTop = 250;
  const lineHeight = Math.round(size * 1.12);
  const name = nameLines
    .map((line, i) => `<text x="80" y="${nameTop + i * lineHeight}" font-size="${size}" font-weight="700" fill="#ffffff">${esc(line)}</text>`)
    .join("");
  const afterName = nameTop + (nameLines.length - 1) * lineHeight + 62;
  const facts = [prospect.area, prospect.keyword ? `“${prospect.keyword}”` : ""].filter(Boolean).join("  ·  ");
  const factLine = facts
    ? `<text x="80" y="${afterName}" font-size="30" fill="#c9d1dd">${esc(wrapText(facts, 40, 1)[0]!)}</text>`
    : "";

  const holds = content
    ? [
        "1 Google ad",
        `${content.gmbArticles.length} GMB ideas`,
        `${content.blogStructures.length} blog outlines`,
        `${content.facebookPosts.length} Facebook posts`,
      ]
    : [];
  let chipX = 80;
  const chips = holds
    .map((label) => {
      const w = Math.round(label.length * 22 * 0.66 + 40);
      const chip = `<rect x="${chipX}" y="520" width="${w}" height="50" rx="25" fill="#ffffff" fill-opacity="0.08" stroke="#ffffff" stroke-opacity="0.18"/><text x="${chipX + w / 2}" y="553" font-size="22" fill="#eceff3" text-anchor="middle">${esc(label)}</text>`;
      chipX += w + 12;
      return chip;
    })
    .join("");

  // The gauge: a ring whose arc is the score.
  const cx = 980;
  const cy = 262;
  const r = 112;
  const circumference = 2 * Math.PI * r;
  const arc = (circumference * score) / 100;
  const initial = esc(agency[0]!.toUpperCase());
  const agencyLine = esc(wrapText(agency, 40, 1)[0]!);

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" font-family="${CARD_FONT}">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1b2433"/><stop offset="1" stop-color="#283347"/></linearGradient>
<radialGradient id="glow" cx="0.82" cy="0.45" r="0.45"><stop offset="0" stop-color="#f2a120" stop-opacity="0.22"/><stop offset="1" stop-color="#f2a120" stop-opacity="0"/></radialGradient>
</defs>
<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#bg)"/>
<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#glow)"/>
<rect x="0" y="0" width="${CARD_WIDTH}" height="10" fill="#f2a120"/>
<circle cx="108" cy="98" r="28" fill="#f2a120"/>
<text x="108" y="109" font-size="30" font-weight="700" fill="#1b2433" text-anchor="middle">${initial}</text>
<text x="152" y="88" font-size="20" fill="#9aa6b8" letter-spacing="2">PREPARED BY</text>
<text x="152" y="118" font-size="28" font-weight="700" fill="#ffffff">${agencyLine}</text>
<text x="80" y="186" font-size="24" font-weight="700" fill="#f8b84a" letter-spacing="3">SEO &amp; MARKETING REPORT</text>
${name}
${factLine}
${chips}
<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="#ffffff" stroke-opacity="0.12" stroke-width="26"/>
<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${color}" stroke-width="26" stroke-linecap="round" stroke-dasharray="${arc.toFixed(1)} ${circumference.toFixed(1)}" transform="rotate(-90 ${cx} ${cy})"/>
<text x="${cx}" y="${cy + 24}" font-size="68" font-weight="700" fill="#ffffff" text-anchor="middle">${known ? `${score}%` : "—"}</text>
<text x="${cx}" y="${cy + 166}" font-size="24" fill="#c9d1dd" text-anchor="middle">SEO potential</text>
<text x="${cx}" y="${cy + 200}" font-size="26" font-weight="700" fill="${color}" text-anchor="middle" letter-spacing="3">${level}</text>
</svg>`;
}
