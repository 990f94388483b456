// The Open Graph card of a monthly client report (1200×630) as SVG: the agency, the month, the business and the
// three headline figures with their change. Pure: rasterised by worker/platform/og/render-card.ts, as the shared report's card.
import type { ClientReportPayload } from "./rules/client-report";
import type { PublicBrand } from "../../platform/brand/rules/brand";
import { CARD_FONT, CARD_HEIGHT, CARD_WIDTH, EM_PER_CHAR, esc, titleSize, wrapText } from "../../platform/og/card-svg";

const PRODUCT_ACCENT = "#f2a120";

export function clientReportCardSvg(p: ClientReportPayload, brand: PublicBrand): string {
  const accent = brand.accentColor ?? PRODUCT_ACCENT;
  const agency = esc(wrapText(brand.name, 40, 1)[0]!);
  const initial = esc(brand.name.trim()[0]?.toUpperCase() ?? "");
  const width = 1040;
  const size = Math.min(64, titleSize(p.business.name, width, 1));
  const name = esc(wrapText(p.business.name, Math.floor(width / (size * EM_PER_CHAR)), 1)[0]!);
  const figures = p.headline.slice(0, 3);
  const boxW = figures.length ? Math.floor((CARD_WIDTH - 160 - 24 * (figures.length - 1)) / figures.length) : 0;
  const boxes = figures
    .map((f, i) => {
      const x = 80 + i * (boxW + 24);
      const chars = Math.floor((boxW - 48) / (22 * EM_PER_CHAR));
      const good = f.direction === null || f.direction === "flat" ? null : (f.direction === "up") === f.higherIsBetter;
      const changeColor = good === null ? "#c9d1dd" : good ? "#4ade80" : "#fca5a5";
      const change = f.change ? esc(wrapText(f.change.replace(/ vs last month$/, ""), chars, 1)[0]!) : "First month";
      return `<rect x="${x}" y="330" width="${boxW}" height="220" rx="18" fill="#ffffff" fill-opacity="0.07" stroke="#ffffff" stroke-opacity="0.16"/>
<rect x="${x}" y="330" width="8" height="220" fill="${esc(accent)}"/>
<text x="${x + 32}" y="384" font-size="24" fill="#c9d1dd">${esc(wrapText(f.label, chars, 1)[0]!)}</text>
<text x="${x + 32}" y="462" font-size="64" font-weight="700" fill="#ffffff">${esc(wrapText(f.value, Math.floor((boxW - 48) / (64 * EM_PER_CHAR)), 1)[0]!)}</text>
<text x="${x + 32}" y="512" font-size="24" font-weight="700" fill="${changeColor}">${change}</text>`;
    })
    .join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" font-family="${CARD_FONT}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1b2433"/><stop offset="1" stop-color="#283347"/></linearGradient></defs>
<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#bg)"/>
<rect x="0" y="0" width="${CARD_WIDTH}" height="10" fill="${esc(accent)}"/>
<circle cx="108" cy="98" r="28" fill="${esc(accent)}"/>
<text x="108" y="109" font-size="30" font-weight="700" fill="${brand.accentColor ? "#ffffff" : "#1b2433"}" text-anchor="middle">${initial}</text>
<text x="152" y="88" font-size="20" fill="#9aa6b8" letter-spacing="2">PREPARED BY</text>
<text x="152" y="118" font-size="28" font-weight="700" fill="#ffffff">${agency}</text>
<text x="80" y="200" font-size="24" font-weight="700" fill="#c9d1dd" letter-spacing="3">${esc(`MONTHLY RESULTS · ${p.monthLabel.toUpperCase()}`)}</text>
<text x="80" y="270" font-size="${size}" font-weight="700" fill="#ffffff">${name}</text>
${boxes}
</svg>`;
}
