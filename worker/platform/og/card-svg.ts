// What every Open Graph card (1200×630, as SVG) is drawn with: its size, the bundled font, escaping, and wrapping a
// name to fit. The cards themselves are their capability's (worker/features/reports/card-svg.ts, client-reports/og-card.ts);
// worker/platform/og/render-card.ts rasterises them.

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
/** The family of the fonts bundled in worker/platform/og/fonts. */
export const CARD_FONT = "DejaVu Sans";

export function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Average advance of DejaVu Sans Bold, in ems: enough to wrap and fit without measuring glyphs. */
export const EM_PER_CHAR = 0.66;

/** Greedy word wrap to `maxChars` per line, at most `maxLines` (the last one ends in an ellipsis if cut). */
export function wrapText(text: string, maxChars: number, maxLines: number): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= maxChars || !line) {
      line = next;
      continue;
    }
    lines.push(line);
    line = word;
  }
  if (line) lines.push(line);
  const fitted = lines.map((l) => (l.length > maxChars ? `${l.slice(0, maxChars - 1)}…` : l));
  if (fitted.length <= maxLines) return fitted;
  const kept = fitted.slice(0, maxLines);
  kept[maxLines - 1] = `${kept[maxLines - 1]!.slice(0, Math.max(1, maxChars - 1)).trimEnd()}…`;
  return kept;
}

/** The largest title size (px) from the list at which the name fits in `lines` lines of `width` px. */
export function titleSize(name: string, width: number, lines: number): number {
  for (const size of [76, 68, 60, 54, 48]) {
    const maxChars = Math.floor(width / (size * EM_PER_CHAR));
    if (wrapText(name, maxChars, 99).length <= lines) return size;
  }
  return 44;
}
