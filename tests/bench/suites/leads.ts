// The lead loop (issue 21): time from a prospect's first open of the shared report (the beacon POST) to the
// `report.opened` webhook at a loopback receiver and to the owner's alert mail at the fake provider (queued on mail-out,
// delivered by its consumer: an upper bound of "queued"), with the queues' settings as wrangler.toml writes them.
// Runs on its own `wrangler dev` (mail and webhooks configured; the other suites' server keeps mail in the outbox).
import { startMailFake, startWebhookReceiverFake, type MailFake, type WebhookReceiverFake } from "../../fakes";
import { startOpenAiFake } from "../../fakes/openai-fake";
import { deliveredLink, run, startDevServer, type DevServer } from "../../e2e/dev-server";
import { VISIT_TOKEN_META } from "../../../worker/features/reports/visit-token";
import { dropStaleSockets, json, percentile, round, signUp, type Figure, type Suite } from "../lib";

const RUNS = 30;
const STATE = ".e2e/bench-leads-state";
export const LEADS_ADMIN = "leads-admin@agency.test";
const ADMIN = LEADS_ADMIN;
export const PASSWORD = "correct-horse-battery";
const BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";
const HOOK = "/hooks/bench";

export type LeadsServer = { server: DevServer; mail: MailFake; hooks: WebhookReceiverFake; adminToken: string; close(): Promise<void> };

/** A dev server with mail (fake Resend) and loopback webhooks allowed, and its admin signed up and confirmed by mail. */
export async function startLeadsServer(port: number, state = STATE): Promise<LeadsServer> {
  const [mail, hooks, ai] = await Promise.all([startMailFake(0), startWebhookReceiverFake(0), startOpenAiFake({ port: 0, latencyMs: 0 })]);
  const server = await startDevServer({
    port,
    state,
    logs: "all",
    vars: {
      ENVIRONMENT: "development",
      JWT_SECRET: "leads-secret-leads-secret-leads-secret-0123",
      ENCRYPTION_KEY: "leads-encryption-key-leads-encryption-key-0",
      ADMIN_EMAILS: ADMIN,
      AI_API_KEY: "fake-key",
      AI_BASE_URL: ai.url,
      MAIL_PROVIDER: "resend",
      MAIL_API_KEY: "fake-key",
      MAIL_FROM: "Porchlight <hello@porchlight.test>",
      MAIL_BASE_URL: mail.url,
      WEBHOOKS_ALLOW_LOOPBACK: "1",
    },
  });
  await signUp(server.baseUrl, ADMIN, PASSWORD);
  const link = await deliveredLink(mail.url, ADMIN, "Confirm your Porchlight email address");
  const confirm = await fetch(new URL(new URL(link).pathname + new URL(link).search, server.baseUrl), { redirect: "manual" });
  const token = /access_token=([^&]+)/.exec(confirm.headers.get("Location") ?? "")?.[1];
  if (!token) throw new Error(`admin confirmation failed: ${confirm.status}`);
  return {
    server,
    mail,
    hooks,
    adminToken: token,
    async close() {
      await server.stop();
      await Promise.all([mail.close(), hooks.close(), ai.close()]);
    },
  };
}

async function api(baseUrl: string, token: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const out = await json(res);
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(out)}`);
  return out;
}

/** A generated report (fake AI) and the visit token its shared page was served with. */
export async function readyReportWithVisit(baseUrl: string, token: string, name: string) {
  const created = await api(baseUrl, token, "/api/reports", { name, company_name: `${name} LLC`, area: "Austin, TX", keyword: "plumber in austin", phone: "(512) 555-0142", generate: true });
  const id = created.report.id as string;
  for (let i = 0; i < 200; i++) {
    const s = (await json(await fetch(`${baseUrl}/api/shared/reports/${id}`))) as { report: { status: string } };
    if (s.report.status === "ready") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const page = await (await fetch(`${baseUrl}/shared/reports/${id}`, { headers: { "User-Agent": BROWSER } })).text();
  const visit = new RegExp(`<meta name="${VISIT_TOKEN_META}" content="([^"]+)">`).exec(page)?.[1];
  if (!visit) throw new Error("the shared page carries no visit token");
  return { id, visit };
}

export function openBeacon(baseUrl: string, reportId: string, visit: string, ip: string) {
  return fetch(`${baseUrl}/api/shared/reports/${reportId}/events`, {
    method: "POST",
    headers: { "Content-Type": "text/plain;charset=UTF-8", "User-Agent": BROWSER, "CF-Connecting-IP": ip },
    body: JSON.stringify({ event: "opened", visit }),
  });
}

async function waitForMail(mailUrl: string, to: string, subject: string, deadline: number): Promise<number> {
  for (;;) {
    const { messages } = (await (await fetch(`${mailUrl}/__messages?to=${encodeURIComponent(to)}`)).json()) as { messages: { subject: string }[] };
    if (messages.some((m) => m.subject === subject)) return performance.now();
    if (Date.now() > deadline) throw new Error(`no "${subject}" mail for ${to}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const leadsSuite: Suite = {
  name: "leads",
  async run() {
    const leads = await startLeadsServer(Number(process.env.BENCH_LEADS_PORT ?? 8797));
    const { baseUrl } = leads.server;
    try {
      await api(baseUrl, leads.adminToken, "/api/webhooks", { url: `${leads.hooks.url}${HOOK}`, events: ["report.opened"] });
      // Each run's prospect belongs to a user of its own, so each first open is that user's first alert of the hour
      // (a digest of one, mailed at once); later opens in the hour would wait for the hourly digest by design.
      const reports: { id: string; visit: string; owner: string }[] = [];
      const owners: string[] = [];
      for (let i = 0; i < RUNS; i++) {
        const owner = `leads-owner-${i}-${Date.now().toString(36)}@example.test`;
        const user = await signUp(baseUrl, owner, PASSWORD);
        const r = await readyReportWithVisit(baseUrl, leads.adminToken, `Bench Plumbing ${i}`);
        owners.push(`update prospects set user_id = '${user.user.id}' where id = (select prospect_id from seo_reports where id = '${r.id}');`);
        reports.push({ ...r, owner });
      }
      run("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", STATE, "--command", owners.join(" ")]);
      // The execute takes seconds: kept-alive sockets from before it have been closed by the server.
      await dropStaleSockets(baseUrl);
      const toWebhook: number[] = [];
      const toMail: number[] = [];
      for (const [i, r] of reports.entries()) {
        const t0 = performance.now();
        const started = Date.now();
        const res = await openBeacon(baseUrl, r.id, r.visit, `10.44.${i}.1`);
        if (res.headers.get("X-Beacon") !== "recorded") throw new Error(`beacon answered ${res.status} ${res.headers.get("X-Beacon")}`);
        const [hook, mailAt] = await Promise.all([
          leads.hooks.waitFor(HOOK, (h) => JSON.parse(h.body).data.report_id === r.id, 30_000),
          waitForMail(leads.mail.url, r.owner, "Your prospects' activity", Date.now() + 30_000),
        ]);
        toWebhook.push(hook.at - started);
        toMail.push(mailAt - t0);
      }
      toWebhook.sort((a, b) => a - b);
      toMail.sort((a, b) => a - b);
      const note = `${RUNS} first opens, one at a time; wrangler.toml queue settings`;
      const figures: Figure[] = [
        { name: "first open → report.opened webhook delivered p50", value: round(percentile(toWebhook, 50), 0), unit: "ms", note },
        { name: "first open → report.opened webhook delivered p95", value: round(percentile(toWebhook, 95), 0), unit: "ms", note: "target ≤ 2000" },
        { name: "first open → alert mail at the provider p50", value: round(percentile(toMail, 50), 0), unit: "ms", note: "queued on mail-out, then delivered: an upper bound of queued" },
        { name: "first open → alert mail at the provider p95", value: round(percentile(toMail, 95), 0), unit: "ms", note: "target ≤ 2000" },
      ];
      return figures;
    } finally {
      await leads.close();
    }
  },
};
