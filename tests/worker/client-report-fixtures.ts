// A built monthly client report as the builder stores it (issue 30): a realistic payload with every section, and a
// client_reports row holding it, for the shared page, PDF and beacon tests (they do not wait for the builder).
import { env } from "cloudflare:test";
import type { ClientReportPayload } from "../../worker/domain/client-report";
import { clientReportPayload } from "./client-report-payload";

export { clientReportPayload };

export function shareToken(): string {
  return crypto.randomUUID().replace(/-/g, "") + crypto.randomUUID().replace(/-/g, "").slice(0, 8);
}

/** Inserts a report row for `userId` (a unique month each time) and answers its id and share token. */
let monthSeq = 0;
export async function seedClientReport(userId: string, opts: { payload?: ClientReportPayload | null; status?: "queued" | "building" | "ready" | "failed"; version?: number } = {}) {
  const id = crypto.randomUUID();
  const token = shareToken();
  const payload = opts.payload === undefined ? clientReportPayload() : opts.payload;
  monthSeq++;
  const month = `20${String(10 + Math.floor(monthSeq / 12)).padStart(2, "0")}-${String((monthSeq % 12) + 1).padStart(2, "0")}`;
  await env.DB.prepare("insert into client_reports (id, user_id, month, status, version, share_token, payload, built_at) values (?, ?, ?, ?, ?, ?, ?, ?)")
    .bind(id, userId, month, opts.status ?? "ready", opts.version ?? 1, token, payload ? JSON.stringify(payload) : null, payload?.builtAt ?? null)
    .run();
  return { id, token, payload };
}

/** WinAnsi's codes 0x80–0x9f that are not Latin-1 (the rest of the standard fonts' encoding is). */
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
