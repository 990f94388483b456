// When an AI Visibility scan's last answer is in (issue 29): its figures, the cited domains flagged where the Citation
// Tracker did not find the business, "What to do" (written by the AI from the figures only, metered and marked "ai",
// or from templates when AI is unavailable), the prospect's report refreshed, and a weekly scan's alert.
import { beginFinishAiScan, finishAiScan, getAiScanWithAnswers, type AiScanRow } from "./queries";
import { getCitationScan, latestFinishedCitationScan } from "../citations";
import { getDb, type Db } from "../../platform/db/client";
import { CITATION_SOURCES } from "../citations/rules/sources";
import { AI_ENGINE_LABELS } from "./rules/contract";
import { actionTemplates } from "./rules/ai-visibility";
import { estimateTokens } from "../../domain/usage-cost";
import { postModel } from "../content";
import { sourceResults } from "../citations";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { reserveCall, userPayer } from "../../platform/metering/meter";
import { aiConfigured, AiError, billedOnFailure, chatCompletion, usageEvent } from "../../platform/providers/ai";
import { announce } from "../../platform/events";
import { AI_VISIBILITY_TOOL } from "./config";
import { alertIfIntervalsSeparate } from "./alert";
import { answersCostMicro, businessOfScan, parseList, summarize, type AiScanStored } from "./view";
import type { AiParty } from "./business";

const ACTIONS_MAX_TOKENS = 500;

/** Citation Tracker findings by domain: false where it did not find the business, true where it did, null unchecked. */
async function citationFinder(db: Db, ownerKey: string): Promise<(domain: string) => boolean | null> {
  const latest = await latestFinishedCitationScan(db, ownerKey);
  const found = latest ? await getCitationScan(db, latest.id) : null;
  if (!found) return () => null;
  const byDomain = new Map<string, boolean | null>();
  for (const r of sourceResults(found.checks)) {
    const source = CITATION_SOURCES.find((s) => s.id === r.source);
    if (!source) continue;
    byDomain.set(source.domain.replace(/^www\./, ""), r.verdict === "not_found" ? false : r.verdict === "unknown" ? null : true);
  }
  return (domain) => {
    for (const [d, v] of byDomain) if (domain === d || domain.endsWith(`.${d}`)) return v;
    return null;
  };
}

/** The figures only, as the AI reads them (no answer texts: it writes from what was measured). */
export function actionsPrompt(scan: AiScanRow, stored: AiScanStored): string {
  const business = businessOfScan(scan);
  const lines = stored.figures
    .filter((f) => f.n > 0)
    .map((f) => {
      const rivals = f.named.filter((n) => !n.self).slice(0, 3).map((n) => `${n.name} ${n.mentions}/${f.n}`).join(", ");
      return `- "${f.question}" on ${AI_ENGINE_LABELS[f.engine]}: named in ${f.k} of ${f.n} answers (95% interval ${Math.round(f.low * 100)}–${Math.round(f.high * 100)}%); own site cited in ${f.own_site_cited}; most named: ${rivals || "none"}`;
    });
  const cited = stored.citedDomains.slice(0, 8).map((d) => `- ${d.domain}: cited in ${d.answers} of ${d.of} answers${d.missing === true ? " (the business is NOT listed there)" : d.missing === false ? " (listed)" : ""}`);
  const competitors = parseList<AiParty>(scan.competitors);
  const named = new Map<string, number>();
  for (const f of stored.figures) for (const n of f.named) if (!n.self) named.set(n.name, (named.get(n.name) ?? 0) + n.mentions);
  const leaders = [...named.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([name]) => {
    const reviews = competitors.find((c) => c.name.toLowerCase() === name.toLowerCase())?.reviewCount;
    return `${name}${typeof reviews === "number" ? ` (${reviews} Google reviews)` : ""}`;
  });
  const reviews = typeof business.reviewCount === "number" ? [`${business.name} has ${business.reviewCount} Google reviews; the businesses named most: ${leaders.join(", ") || "none"}.`] : [];
  const gaps = (business.auditGaps ?? []).slice(0, 5).map((g) => `- ${g}`);
  return [
    `You advise ${business.name}, a ${business.category} business in ${business.area}, on being recommended by AI assistants.`,
    "Figures from asking AI assistants several times each:",
    ...lines,
    "Sources the answers cite:",
    ...(cited.length > 0 ? cited : ["- none"]),
    ...reviews,
    ...(gaps.length > 0 ? ["What the website audit found missing:", ...gaps] : []),
    'Write 3 to 5 short, concrete actions grounded only in these figures (where to get listed, the review gap to the businesses named most, website pages and schema). Answer JSON: {"items": ["..."]}.',
  ].join("\n");
}

function parseItems(content: string): string[] | null {
  try {
    const v = JSON.parse(content) as { items?: unknown };
    const items = Array.isArray(v.items) ? v.items.filter((i): i is string => typeof i === "string" && i.trim() !== "").map((i) => i.trim().slice(0, 300)) : [];
    return items.length > 0 ? items.slice(0, 6) : null;
  } catch {
    return null;
  }
}

/** "What to do": the AI's (metered) when it answers, the templates' otherwise. */
async function writeActions(env: Env, db: Db, scan: AiScanRow, stored: AiScanStored): Promise<{ items: string[]; source: "ai" | "template" }> {
  const business = businessOfScan(scan);
  const competitors = parseList<AiParty>(scan.competitors);
  const templates = () => ({
    items: actionTemplates({
      businessName: business.name,
      overall: stored.overall,
      figures: stored.figures,
      citedDomains: stored.citedDomains,
      ownReviews: business.reviewCount ?? null,
      competitorReviews: competitors.map((c) => ({ name: c.name, reviews: c.reviewCount ?? null })),
      auditGaps: business.auditGaps ?? [],
    }),
    source: "template" as const,
  });
  if (!aiConfigured(env) || stored.figures.every((f) => f.n === 0)) return templates();
  const prompt = actionsPrompt(scan, stored);
  const model = postModel(env);
  const payer = await userPayer(env, db, scan.userId);
  const reserved = await reserveCall(env, payer, { kind: "ai", model, prompt, maxTokens: ACTIONS_MAX_TOKENS });
  if (!reserved.ok) return templates();
  try {
    const result = await chatCompletion(env, { model, messages: [{ role: "user", content: prompt }], maxTokens: ACTIONS_MAX_TOKENS, temperature: 0.3, json: true });
    await reserved.ticket.settle({ kind: "ai", model: result.model, inputTokens: result.usage.input_tokens, outputTokens: result.usage.output_tokens });
    await env.USAGE_EVENTS.send(usageEvent({ userId: scan.userId, toolName: AI_VISIBILITY_TOOL, model: result.model, prompt, response: result.content, usage: result.usage })).catch((error) => log.error("usage-events send failed", {}, error));
    const items = parseItems(result.content);
    return items ? { items, source: "ai" } : templates();
  } catch (error) {
    const aiError = error instanceof AiError ? error : new AiError("connection", String(error));
    await (billedOnFailure(aiError) ? reserved.ticket.settle({ kind: "ai", model, inputTokens: estimateTokens(prompt), outputTokens: 0 }) : reserved.ticket.release());
    log.warn("ai-visibility: actions by AI failed; templates", { kind: aiError.kind });
    return templates();
  }
}

/** Finishes the scan once every answer is in; only one caller does (compare-and-set). Never throws. */
export async function finishAiScanIfComplete(env: Env, scanId: string): Promise<void> {
  const db = getDb(env);
  try {
    const claimed = await beginFinishAiScan(db, scanId, new Date().toISOString());
    if (!claimed) return;
    const found = (await getAiScanWithAnswers(db, scanId))!;
    const { scan, answers } = found;
    const stored = summarize(scan, answers, await citationFinder(db, scan.ownerKey));
    const allFailed = answers.length > 0 && answers.every((a) => a.status === "failed");
    const actions = allFailed ? null : await writeActions(env, db, scan, stored);
    await finishAiScan(db, scanId, {
      status: allFailed ? "failed" : "done",
      summary: JSON.stringify(stored),
      actions: actions ? JSON.stringify(actions.items) : null,
      actionsSource: actions?.source ?? null,
      costMicro: answersCostMicro(answers),
    });
    if (scan.prospectId && !allFailed) await announce("prospect.findings-changed", { env, db, prospectId: scan.prospectId });
    if (scan.kind === "own" && !allFailed) await announce("client.figures-changed", { env, db, userId: scan.userId, group: "ai" });
    if (scan.trigger === "weekly" && !allFailed) await alertIfIntervalsSeparate(env, db, scan, stored);
  } catch (error) {
    log.error("ai-visibility: finishing failed; the sweep finishes it", { scanId }, error);
  }
}
