// A PDF's shown text, read back without a PDF library: shared by the worker tests and the journeys (plain module, no
// bindings).
const WIN_ANSI: Record<number, string> = { 0x80: "€", 0x85: "…", 0x91: "‘", 0x92: "’", 0x93: "“", 0x94: "”", 0x95: "•", 0x96: "–", 0x97: "—", 0x99: "™" };

/** The text a PDF shows: each content stream inflated and its `<hex> Tj` strings decoded (pdf-lib writes hex strings). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const raw = new TextDecoder("latin1").decode(bytes);
  const out: string[] = [];
  const re = /(?<!end)stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw))) {
    const start = m.index + m[0].length;
    const end = raw.indexOf("endstream", start);
    if (end < 0) break;
    const dict = raw.slice(Math.max(0, m.index - 200), m.index);
    const length = /\/Length (\d+)/.exec(dict.slice(dict.lastIndexOf("<<")));
    const chunk = bytes.slice(start, length ? start + Number(length[1]) : end);
    let text: string;
    if (/\/FlateDecode/.test(dict.slice(dict.lastIndexOf("<<")))) {
      try {
        const stream = new Blob([chunk]).stream().pipeThrough(new DecompressionStream("deflate"));
        text = new TextDecoder("latin1").decode(await new Response(stream).arrayBuffer());
      } catch {
        continue;
      }
    } else text = new TextDecoder("latin1").decode(chunk);
    for (const t of text.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) {
      out.push(t[1]!.replace(/../g, (h) => WIN_ANSI[parseInt(h, 16)] ?? String.fromCharCode(parseInt(h, 16))));
    }
    re.lastIndex = end;
  }
  return out.join("\n");
}
