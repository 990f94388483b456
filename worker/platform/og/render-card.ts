// Rasterises the report card SVG to PNG inside workerd with resvg (WebAssembly) and the bundled fonts:
// no browser, no network. The wasm module is instantiated once per isolate.
import { Resvg, initWasm } from "@resvg/resvg-wasm";
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm";
import boldFont from "./fonts/DejaVuSans-Bold.ttf";
import { CARD_FONT, CARD_WIDTH } from "./card-svg";

let ready: Promise<void> | null = null;

function init(): Promise<void> {
  ready ??= initWasm(resvgWasm).catch((error: unknown) => {
    ready = null; // a later request tries again
    throw error;
  });
  return ready;
}

export async function svgToPng(svg: string): Promise<Uint8Array> {
  await init();
  const resvg = new Resvg(svg, {
    fitTo: { mode: "width", value: CARD_WIDTH },
    font: {
      // One face (bold) keeps the bundle small; the card sets hierarchy by size and colour.
      fontBuffers: [new Uint8Array(boldFont)],
      defaultFontFamily: CARD_FONT,
      sansSerifFamily: CARD_FONT,
    },
  });
  const image = resvg.render();
  try {
    return image.asPng();
  } finally {
    image.free();
    resvg.free();
  }
}
