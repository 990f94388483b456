// The monthly client report as a PDF (issue 30), written in the worker with pdf-lib: the page's sections and figures
// from the same frozen payload, branded (logo when PNG or JPEG, name, accent colour), on US Letter. Text is drawn with
// the standard Helvetica fonts, so it is selectable and nothing is embedded but the logo; those fonts encode only
// WinAnsi, so every string goes through `winAnsi` first. A section is never split across pages.
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFImage, type PDFPage, type RGB } from "pdf-lib";
import type { ClientReportPayload, Compared, ReportGridMap } from "./rules/client-report";
import {
  GOOGLE_PART_UNAVAILABLE_TEXT,
  GOOGLE_STATUS_TEXT,
  GRID_BAND_COLORS,
  GRID_BAND_LABELS,
  CLIENT_REPORT_HEADINGS,
  changeText,
  figure,
  gridBand,
  gridFigures,
  oneDecimal,
  percentFigure,
  rankMove,
  rankText,
  ratePercent,
  reportDate,
  trendOf,
  type GridBand,
  type Trend,
} from "./rules/format";
import type { PublicBrand } from "../../platform/brand/rules/brand";

export type PdfBrand = PublicBrand & { logo?: { bytes: Uint8Array; contentType: string | null } | null };

const PAGE = { width: 612, height: 792 };
const MARGIN = 48;
const WIDTH = PAGE.width - MARGIN * 2;
const FOOTER = 36;

const INK = rgb(0.078, 0.106, 0.149);
const MUTED = rgb(0.345, 0.396, 0.471);
const LINE = rgb(0.851, 0.871, 0.898);
const SOFT = rgb(0.965, 0.969, 0.976);
const GOOD = rgb(0.078, 0.424, 0.204);
const BAD = rgb(0.706, 0.137, 0.094);
const PRODUCT_ACCENT = "#d0810a";

function hexColor(hex: string): RGB {
  const h = hex.replace(/^#/, "");
  return rgb(parseInt(h.slice(0, 2), 16) / 255, parseInt(h.slice(2, 4), 16) / 255, parseInt(h.slice(4, 6), 16) / 255);
}

/** Characters the standard fonts cannot draw, replaced with the nearest they can (or dropped). */
const REPLACEMENTS: Record<string, string> = { "−": "-", "≤": "<=", "≥": ">=", "→": "->", "←": "<-", "★": "*", "✓": "v", "\u00a0": " ", "\u2009": " ", "\u202f": " " };

/** Text the font can encode: known look-alikes swapped in, accents kept where WinAnsi has them, anything else dropped. */
const charsets = new WeakMap<PDFFont, Set<number>>();
export function winAnsi(text: string, font: PDFFont): string {
  let supported = charsets.get(font);
  if (!supported) charsets.set(font, (supported = new Set(font.getCharacterSet())));
  let out = "";
  for (const ch of text.replace(/[\r\n\t]+/g, " ")) {
    const cp = ch.codePointAt(0)!;
    if (supported.has(cp)) out += ch;
    else if (REPLACEMENTS[ch] !== undefined) out += REPLACEMENTS[ch];
    else {
      const base = ch.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      out += [...base].every((c) => supported.has(c.codePointAt(0)!)) ? base : "";
    }
  }
  return out;
}

/** Words wrapped to `width` points. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

type Fonts = { regular: PDFFont; bold: PDFFont };
/** One drawing step of a block, relative to the block's top-left corner (y grows downwards). */
type Draw = (page: PDFPage, x: number, top: number) => void;
type Block = { height: number; draws: Draw[] };

class Writer {
  private page!: PDFPage;
  private y = 0;
  private pages: PDFPage[] = [];

  constructor(
    private doc: PDFDocument,
    readonly fonts: Fonts,
    readonly accent: RGB,
    private footer: string,
  ) {
    this.newPage();
  }

  newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.pages.push(this.page);
    this.y = PAGE.height - MARGIN;
  }

  /** Draws a block whole: on this page when it fits, else on a new one (a block taller than a page starts one). */
  place(block: Block, gapAfter = 18) {
    if (this.y - block.height < MARGIN + FOOTER && this.y < PAGE.height - MARGIN) this.newPage();
    for (const draw of block.draws) draw(this.page, MARGIN, this.y);
    this.y -= block.height + gapAfter;
  }

  finish() {
    const { regular } = this.fonts;
    this.pages.forEach((page, i) => {
      page.drawLine({ start: { x: MARGIN, y: MARGIN + 14 }, end: { x: PAGE.width - MARGIN, y: MARGIN + 14 }, thickness: 0.5, color: LINE });
      const left = winAnsi(this.footer, regular);
      page.drawText(left, { x: MARGIN, y: MARGIN, size: 8, font: regular, color: MUTED });
      const right = `Page ${i + 1} of ${this.pages.length}`;
      page.drawText(right, { x: PAGE.width - MARGIN - regular.widthOfTextAtSize(right, 8), y: MARGIN, size: 8, font: regular, color: MUTED });
    });
  }
}

/** Builds a block top-down: text lines, rows of figures, shapes; its height is where it ended. */
class BlockBuilder {
  height = 0;
  draws: Draw[] = [];
  constructor(private fonts: Fonts) {}

  text(text: string, opts: { size?: number; bold?: boolean; color?: RGB; x?: number; width?: number; gap?: number } = {}) {
    const size = opts.size ?? 10;
    const font = opts.bold ? this.fonts.bold : this.fonts.regular;
    const x = opts.x ?? 0;
    const lines = wrap(winAnsi(text, font), font, size, opts.width ?? WIDTH - x);
    for (const line of lines) {
      const at = this.height + size;
      this.draws.push((page, left, top) => page.drawText(line, { x: left + x, y: top - at, size, font, color: opts.color ?? INK }));
      this.height += size * 1.35;
    }
    this.height += opts.gap ?? 0;
    return this;
  }

  space(h: number) {
    this.height += h;
    return this;
  }

  draw(height: number, fn: (page: PDFPage, left: number, top: number) => void) {
    const at = this.height;
    this.draws.push((page, left, top) => fn(page, left, top - at));
    this.height += height;
    return this;
  }

  block(): Block {
    return { height: this.height, draws: this.draws };
  }
}

function trendColor(trend: Trend, good = true): RGB {
  if (trend === null || trend === "flat") return MUTED;
  return (trend === "up") === good ? GOOD : BAD;
}

type FigureCell = { label: string; value: string; detail?: string | null; trend?: Trend; good?: boolean };

function comparedCell(label: string, c: Compared, unit = ""): FigureCell {
  return { label, value: `${figure(c.current)}${c.current !== null ? unit : ""}`, detail: changeText(c, unit), trend: trendOf(c) };
}

/** Figures three to a row, each label / value / change. */
function figureRows(b: BlockBuilder, fonts: Fonts, cells: FigureCell[]) {
  const perRow = 3;
  const colWidth = WIDTH / perRow;
  for (let i = 0; i < cells.length; i += perRow) {
    const row = cells.slice(i, i + perRow);
    b.draw(48, (page, left, top) => {
      row.forEach((cell, j) => {
        const x = left + j * colWidth;
        page.drawText(winAnsi(cell.label, fonts.regular), { x, y: top - 10, size: 8.5, font: fonts.regular, color: MUTED });
        page.drawText(winAnsi(cell.value, fonts.bold), { x, y: top - 28, size: 16, font: fonts.bold, color: INK });
        if (cell.detail) {
          const detail = fitWidth(winAnsi(cell.detail, fonts.regular), fonts.regular, 8, colWidth - 8);
          page.drawText(detail, { x, y: top - 41, size: 8, font: fonts.regular, color: trendColor(cell.trend ?? null, cell.good ?? true) });
        }
      });
    });
  }
}

function fitWidth(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let t = text;
  while (t.length > 1 && font.widthOfTextAtSize(`${t}...`, size) > width) t = t.slice(0, -1);
  return `${t.trimEnd()}...`;
}

/** A table: a header row and rows of cells; the first column is text, the others right-aligned. */
function table(b: BlockBuilder, fonts: Fonts, head: string[], rows: string[][], widths: number[]) {
  const rowHeight = 18;
  const xs = widths.reduce<number[]>((acc, _w, i) => [...acc, i === 0 ? 0 : acc[i - 1]! + widths[i - 1]!], []);
  const line = (cells: string[], font: PDFFont, color: RGB) => (page: PDFPage, left: number, top: number) => {
    cells.forEach((cell, i) => {
      const text = fitWidth(winAnsi(cell, font), font, 9, widths[i]! - 6);
      const x = i === 0 ? left + xs[i]! : left + xs[i]! + widths[i]! - font.widthOfTextAtSize(text, 9);
      page.drawText(text, { x, y: top - 12, size: 9, font, color });
    });
    page.drawLine({ start: { x: left, y: top - rowHeight + 2 }, end: { x: left + WIDTH, y: top - rowHeight + 2 }, thickness: 0.5, color: LINE });
  };
  b.draw(rowHeight, line(head, fonts.bold, MUTED));
  for (const row of rows) b.draw(rowHeight, line(row, fonts.regular, INK));
}

function gridMap(page: PDFPage, fonts: Fonts, map: ReportGridMap, x: number, top: number, side: number, title: string) {
  const cell = side / map.size;
  map.ranks.forEach((rank, i) => {
    const row = Math.floor(i / map.size);
    const col = i % map.size;
    const band: GridBand = gridBand(rank);
    const cx = x + col * cell;
    const cy = top - (row + 1) * cell;
    page.drawRectangle({ x: cx + 0.6, y: cy + 0.6, width: cell - 1.2, height: cell - 1.2, color: hexColor(GRID_BAND_COLORS[band]) });
    const label = rank === null ? "20+" : String(rank);
    const size = Math.min(11, cell * 0.3);
    const w = fonts.bold.widthOfTextAtSize(label, size);
    page.drawText(label, { x: cx + (cell - w) / 2, y: cy + (cell - size) / 2 + 1, size, font: fonts.bold, color: band === "top10" ? INK : rgb(1, 1, 1) });
  });
  const { solv, atrp } = gridFigures(map);
  page.drawText(winAnsi(title, fonts.bold), { x, y: top - side - 14, size: 9, font: fonts.bold, color: INK });
  page.drawText(`SoLV ${solv} - ATRP ${atrp}`, { x, y: top - side - 26, size: 9, font: fonts.regular, color: MUTED });
}

function intervalBar(page: PDFPage, accent: RGB, x: number, top: number, width: number, r: { mentionRate: number; low: number; high: number }) {
  const at = (v: number) => x + Math.min(1, Math.max(0, v)) * width;
  page.drawRectangle({ x, y: top - 7, width, height: 2, color: LINE });
  page.drawRectangle({ x: at(r.low), y: top - 10, width: Math.max(1, at(r.high) - at(r.low)), height: 8, color: accent, opacity: 0.45 });
  page.drawCircle({ x: at(r.mentionRate), y: top - 6, size: 3.2, color: INK });
}

function heading(b: BlockBuilder, title: string, note?: string) {
  b.text(title, { size: 14, bold: true, gap: 2 });
  if (note) b.text(note, { size: 9, color: MUTED, gap: 4 });
  else b.space(4);
}

async function embedLogo(doc: PDFDocument, logo: PdfBrand["logo"]): Promise<PDFImage | null> {
  if (!logo) return null;
  const b = logo.bytes;
  try {
    if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return await doc.embedPng(b);
    if (b[0] === 0xff && b[1] === 0xd8) return await doc.embedJpg(b);
  } catch {
    // A logo pdf-lib cannot read leaves the name alone in the header.
  }
  return null;
}

/** The report as PDF bytes. Same sections, figures and words as the page (worker/features/client-reports/page.tsx). */
export async function clientReportPdf(payload: ClientReportPayload, brand: PdfBrand): Promise<Uint8Array> {
  const p = payload;
  const doc = await PDFDocument.create();
  const title = `${p.business.name}: ${p.monthLabel} results`;
  const fonts: Fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  doc.setTitle(winAnsi(title, fonts.regular));
  doc.setAuthor(winAnsi(brand.name, fonts.regular));
  doc.setSubject(winAnsi(`Monthly results report for ${p.business.name}`, fonts.regular));
  doc.setCreator(winAnsi(brand.name, fonts.regular));
  doc.setProducer(winAnsi(brand.name, fonts.regular));
  doc.setCreationDate(new Date(p.builtAt));
  doc.setModificationDate(new Date(p.builtAt));
  const accent = hexColor(brand.accentColor ?? PRODUCT_ACCENT);
  const footer = [`Prepared by ${brand.name}`, brand.supportEmail, brand.supportPhone, brand.website].filter(Boolean).join(" - ");
  const w = new Writer(doc, fonts, accent, footer);
  const logo = await embedLogo(doc, brand.logo);
  const tz = p.timeZone;

  // Header: the agency, then the business and the month.
  const head = new BlockBuilder(fonts);
  head.draw(40, (page, left, top) => {
    page.drawRectangle({ x: 0, y: PAGE.height - 8, width: PAGE.width, height: 8, color: accent });
    let x = left;
    if (logo) {
      const scale = Math.min(32 / logo.height, 120 / logo.width);
      page.drawImage(logo, { x, y: top - 32, width: logo.width * scale, height: logo.height * scale });
      x += logo.width * scale + 10;
    }
    page.drawText(winAnsi(brand.name, fonts.bold), { x, y: top - 21, size: 13, font: fonts.bold, color: INK });
  });
  head.text(`MONTHLY RESULTS - ${p.monthLabel.toUpperCase()}`, { size: 9, bold: true, color: accent, gap: 2 });
  head.text(p.business.name, { size: 24, bold: true, gap: 2 });
  const place = [p.business.category, p.business.location].filter(Boolean).join(" - ");
  if (place) head.text(place, { size: 10, color: MUTED });
  w.place(head.block(), 14);

  // The three headline figures in boxes.
  if (p.headline.length) {
    const figures = p.headline.slice(0, 3);
    const gap = 10;
    const boxW = (WIDTH - gap * (figures.length - 1)) / figures.length;
    const hb = new BlockBuilder(fonts).draw(70, (page, left, top) => {
      figures.forEach((f, i) => {
        const x = left + i * (boxW + gap);
        page.drawRectangle({ x, y: top - 70, width: boxW, height: 70, color: SOFT, borderColor: LINE, borderWidth: 0.5 });
        page.drawRectangle({ x, y: top - 70, width: 3, height: 70, color: accent });
        page.drawText(fitWidth(winAnsi(f.label, fonts.regular), fonts.regular, 9, boxW - 20), { x: x + 12, y: top - 18, size: 9, font: fonts.regular, color: MUTED });
        page.drawText(fitWidth(winAnsi(f.value, fonts.bold), fonts.bold, 22, boxW - 20), { x: x + 12, y: top - 42, size: 22, font: fonts.bold, color: INK });
        const change = f.change ?? "First month";
        const color = f.change ? trendColor(f.direction, f.higherIsBetter) : MUTED;
        page.drawText(fitWidth(winAnsi(change, fonts.regular), fonts.regular, 8.5, boxW - 20), { x: x + 12, y: top - 58, size: 8.5, font: fonts.regular, color });
      });
    });
    w.place(hb.block());
  }

  const summary = new BlockBuilder(fonts);
  heading(summary, CLIENT_REPORT_HEADINGS.summary);
  summary.text(p.summary.text, { size: 10.5 });
  w.place(summary.block());

  const g = p.google;
  const google = new BlockBuilder(fonts);
  if (g.status === "ok") {
    const missing = g.unavailable ?? [];
    heading(google, CLIENT_REPORT_HEADINGS.google, `How people found and contacted ${g.locationTitle} on Google.`);
    if (missing.includes("figures")) google.text(GOOGLE_PART_UNAVAILABLE_TEXT.figures, { size: 10, color: MUTED, gap: 4 });
    else figureRows(google, fonts, [
      comparedCell("Calls", g.calls),
      comparedCell("Website clicks", g.websiteClicks),
      comparedCell("Direction requests", g.directions),
      comparedCell("Views on Google Search", g.impressions.search),
      comparedCell("Views on Google Maps", g.impressions.maps),
      comparedCell("Views in total", g.impressions.total),
    ]);
    if (missing.includes("keywords")) google.space(4).text(GOOGLE_PART_UNAVAILABLE_TEXT.keywords, { size: 10, color: MUTED });
    else if (g.keywords.length) {
      google.space(4).text("Searches that found your profile", { size: 9, bold: true, gap: 2 });
      table(
        google,
        fonts,
        ["Search", "Views"],
        g.keywords.map((k) => [k.keyword, k.impressions !== null ? figure(k.impressions) : k.threshold !== null ? `fewer than ${figure(k.threshold)}` : "-"]),
        [WIDTH - 120, 120],
      );
    }
  } else {
    const words = GOOGLE_STATUS_TEXT[g.status];
    heading(google, CLIENT_REPORT_HEADINGS.google);
    google.text(words.title, { size: 10.5, bold: true, gap: 2 }).text(words.body, { size: 10, color: MUTED });
  }
  w.place(google.block());

  for (const grid of p.grid ?? []) {
    const b = new BlockBuilder(fonts);
    heading(b, `${CLIENT_REPORT_HEADINGS.grid}: "${grid.keyword}"`, "Where you show in Google's map results across your area. SoLV: share of the grid in the top 3. ATRP: average position (lower is better).");
    const side = 180;
    b.draw(side + 32, (page, left, top) => {
      gridMap(page, fonts, grid.current, left, top, side, `${p.monthLabel} (${reportDate(grid.current.finishedAt, tz)})`);
      if (grid.previous) gridMap(page, fonts, grid.previous, left + side + 40, top, side, `Last month (${reportDate(grid.previous.finishedAt, tz)})`);
      else page.drawText("No scan last month to compare with.", { x: left + side + 40, y: top - side / 2, size: 9, font: fonts.regular, color: MUTED });
    });
    b.draw(14, (page, left, top) => {
      let x = left;
      for (const band of ["top3", "top10", "top20", "not_found"] as GridBand[]) {
        page.drawRectangle({ x, y: top - 10, width: 8, height: 8, color: hexColor(GRID_BAND_COLORS[band]) });
        const label = winAnsi(GRID_BAND_LABELS[band], fonts.regular);
        page.drawText(label, { x: x + 12, y: top - 9, size: 8, font: fonts.regular, color: MUTED });
        x += 24 + fonts.regular.widthOfTextAtSize(label, 8);
      }
    });
    w.place(b.block());
  }

  if (p.tracker && p.tracker.keywords.length) {
    const t = p.tracker;
    const b = new BlockBuilder(fonts);
    heading(b, CLIENT_REPORT_HEADINGS.tracker, `${t.improved} moved up, ${t.declined} moved down, ${t.unchanged} held their place.`);
    const cell = (c: Compared) => `${rankText(c.current)} (${rankMove(c).text})`;
    table(b, fonts, ["Keyword", "Google Maps", "Google Search"], t.keywords.map((k) => [k.keyword, cell(k.mapRank), cell(k.organicRank)]), [WIDTH - 260, 130, 130]);
    w.place(b.block());
  }

  if (p.aiVisibility) {
    const ai = p.aiVisibility;
    const b = new BlockBuilder(fonts);
    heading(b, CLIENT_REPORT_HEADINGS.aiVisibility, `How often AI assistants (${ai.engines.join(", ")}) name you when asked ${ai.questions} ${ai.questions === 1 ? "question" : "questions"} customers ask. Checked ${reportDate(ai.scannedAt, tz)}, ${ai.answers} answers.`);
    const cells: FigureCell[] = [
      { label: "Named in answers", value: ratePercent(ai.mentionRate), detail: `likely between ${ratePercent(ai.low)} and ${ratePercent(ai.high)}` },
      { label: "Share of voice", value: ai.shareOfVoice === null ? "-" : ratePercent(ai.shareOfVoice), detail: "of all businesses named" },
    ];
    if (ai.previous) cells.push({ label: "Last month", value: ratePercent(ai.previous.mentionRate), detail: `likely between ${ratePercent(ai.previous.low)} and ${ratePercent(ai.previous.high)}` });
    figureRows(b, fonts, cells);
    const rows = [{ label: "This month", r: ai }, ...(ai.previous ? [{ label: "Last month", r: ai.previous }] : [])];
    for (const row of rows) {
      b.draw(16, (page, left, top) => {
        page.drawText(row.label, { x: left, y: top - 9, size: 8.5, font: fonts.regular, color: MUTED });
        intervalBar(page, w.accent, left + 80, top - 1, WIDTH - 80, row.r);
      });
    }
    w.place(b.block());
  }

  if (p.citations) {
    const c = p.citations;
    const b = new BlockBuilder(fonts);
    heading(b, CLIENT_REPORT_HEADINGS.citations, `Whether your name, address and phone match across ${c.checked} directories. Checked ${reportDate(c.scannedAt, tz)}.`);
    const change =
      c.consistencyPercent !== null && c.previousPercent !== null
        ? changeText({ current: c.consistencyPercent, previous: c.previousPercent, delta: Math.round((c.consistencyPercent - c.previousPercent) * 10) / 10, percent: null }, " pts")
        : null;
    const delta = c.consistencyPercent !== null && c.previousPercent !== null ? c.consistencyPercent - c.previousPercent : null;
    figureRows(b, fonts, [
      { label: "Consistency", value: percentFigure(c.consistencyPercent), detail: change, trend: delta === null ? null : delta > 0 ? "up" : delta < 0 ? "down" : "flat" },
      { label: "Consistent", value: figure(c.consistent) },
      { label: "Need fixing", value: figure(c.inconsistent) },
      { label: "Duplicates", value: figure(c.duplicate) },
      { label: "Not listed", value: figure(c.notFound) },
    ]);
    w.place(b.block());
  }

  if (p.reviews) {
    const r = p.reviews;
    const b = new BlockBuilder(fonts);
    heading(b, CLIENT_REPORT_HEADINGS.reviews);
    figureRows(b, fonts, [
      comparedCell("New reviews", r.newReviews),
      { label: "Average this month", value: r.monthAverage === null ? "-" : `${oneDecimal(r.monthAverage)} stars` },
      { label: "Average overall", value: r.overallAverage === null ? "-" : `${oneDecimal(r.overallAverage)} stars`, detail: `${figure(r.totalReviews)} reviews in all` },
      { label: "Replied to", value: percentFigure(r.replyRate), detail: "of this month's reviews" },
      { label: "Review requests sent", value: figure(r.requestsSent) },
    ]);
    w.place(b.block());
  }

  if (p.posts) {
    const b = new BlockBuilder(fonts);
    heading(b, CLIENT_REPORT_HEADINGS.posts);
    figureRows(b, fonts, [comparedCell("Posts published", p.posts.published)]);
    for (const item of p.posts.items) {
      b.text(reportDate(item.publishedAt, tz), { size: 8.5, bold: true, color: MUTED });
      b.text(item.excerpt, { size: 9.5, gap: 4 });
    }
    w.place(b.block());
  }

  if (p.whatWeDid.length) {
    const b = new BlockBuilder(fonts);
    heading(b, CLIENT_REPORT_HEADINGS.whatWeDid);
    for (const item of p.whatWeDid) b.text(`${figure(item.count)}  ${item.label}`, { size: 10.5, x: 8, gap: 1 });
    w.place(b.block());
  }

  if (p.whatsNext.length) {
    const b = new BlockBuilder(fonts);
    heading(b, CLIENT_REPORT_HEADINGS.whatsNext);
    p.whatsNext.forEach((item, i) => b.text(`${i + 1}. ${item.text}`, { size: 10.5, x: 8, gap: 1 }));
    w.place(b.block());
  }

  const closing = new BlockBuilder(fonts);
  closing.text(`Figures as of ${reportDate(p.builtAt, tz)}; dates in ${tz.replace(/_/g, " ")}.`, { size: 8.5, color: MUTED });
  if (brand.footerLine) closing.text(brand.footerLine, { size: 8.5, color: MUTED });
  w.place(closing.block(), 0);

  w.finish();
  return doc.save();
}
