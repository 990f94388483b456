// A built monthly client report as the builder stores it (issue 30): a realistic payload with every section, and a
// client_reports row holding it, for the shared page, PDF and beacon tests (they do not wait for the builder).
import { env } from "cloudflare:test";
import type { ClientReportPayload } from "../../../worker/features/client-reports/rules/client-report";
import type { ClientReportsMessage, Env } from "../../../worker/platform/env";
import { clientReportPayload } from "./client-report-payload";
import { callWorker } from "../helpers";
import { deliver, recorder } from "../reports/reports-fixtures";
export { pdfText } from "../pdf-text";

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

/** The worker's env with the client-reports queue recorded (so a test delivers its messages itself), and `overrides`. */
export function clientReportsEnv(overrides: Record<string, unknown> = {}) {
  const q = recorder<ClientReportsMessage>();
  return { env: { ...env, ...overrides, CLIENT_REPORTS: q.queue } as unknown as Env, sent: q.sent };
}
export type ClientReportsEnv = ReturnType<typeof clientReportsEnv>;

/** A request through the worker with that env. */
export const callWith = (t: ClientReportsEnv, path: string, init: Parameters<typeof callWorker>[1] = {}) =>
  callWorker(path, init, t.env as unknown as Record<string, unknown>);

/** Delivers what was queued, one message at a time, until nothing more is (at most five rounds). */
export async function drainClientReports(t: ClientReportsEnv) {
  for (let round = 0; t.sent.length > 0 && round < 5; round++) for (const body of t.sent.splice(0)) await deliver("client-reports", [{ body }], t.env);
}
