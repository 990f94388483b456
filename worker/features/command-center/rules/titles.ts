// What each attention item says happened, from the facts it keeps. Pure: the web, the mails and the webhooks read it.
import { GUARDED_FIELD_LABELS, type GuardedField } from "../../../platform/providers/rules/gbp-location";
import type { AttentionKind } from "./attention";

const quote = (text: string, max = 90) => {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? `“${t.slice(0, max - 1).trimEnd()}…”` : `“${t}”`;
};

const fieldLabel = (field: unknown) => GUARDED_FIELD_LABELS[field as GuardedField] ?? String(field ?? "A field");

/** What happened, in one line. `withWords`: a review's own words quoted in it (the bell and mail; the card shows them below). */
export function attentionTitle(kind: AttentionKind, data: Record<string, unknown>, withWords = true): string {
  const where = data.locationTitle ? ` (${String(data.locationTitle)})` : "";
  switch (kind) {
    case "verification_lost":
      return data.action === "comply_with_guidelines" ? `Google suspended the profile${where}` : `The profile lost its verification${where}`;
    case "google_updated":
      return data.source === "outside"
        ? `${fieldLabel(data.field)} changed outside Porchlight${where}: ${quote(String(data.afterText ?? ""))}`
        : `Google changed the ${fieldLabel(data.field).toLowerCase()}${where}: ${quote(String(data.afterText ?? ""))}`;
    case "low_review": {
      const stars = Number(data.stars ?? 0);
      return `${stars}-star review from ${String(data.reviewer ?? "a customer")} unanswered${withWords && data.comment ? `: ${quote(String(data.comment), 70)}` : ""}`;
    }
    case "google_reconnect":
      return "The Google connection needs reconnecting";
    case "rank_fell":
      return `Map ranking fell ${Math.abs(Math.round(Number(data.solvChange ?? 0)))} points${typeof data.solv === "number" ? ` (share of local voice ${data.solv}%)` : ""}`;
    case "keyword_left_top3":
      return `“${String(data.keyword ?? "A keyword")}” left the map pack's top 3 (${data.to === null || data.to === undefined ? "now not in the top 20" : `now #${Number(data.to)}`}, was #${Number(data.from ?? 3)})`;
    case "listing_wrong": {
      // Kept as an array, or as its JSON text (SQLite's json_object quotes a value read through a subquery).
      const raw = typeof data.sources === "string" ? (JSON.parse(data.sources) as unknown) : data.sources;
      const sources = Array.isArray(raw) ? raw.map(String) : [];
      const names = sources.length <= 2 ? sources.join(" and ") : `${sources.slice(0, 2).join(", ")} and ${sources.length - 2} more`;
      return sources.length ? `Wrong details on ${names}` : `${Number(data.wrong ?? 0)} listing${Number(data.wrong) === 1 ? "" : "s"} with wrong details`;
    }
    case "ai_fell":
      return `Named less often by AI assistants${typeof data.mentionRate === "number" && typeof data.previousRate === "number" ? ` (${Math.round(data.mentionRate * 100)}%, was ${Math.round(data.previousRate * 100)}%)` : ""}`;
    case "report_unopened":
      return `The ${String(data.month ?? "monthly")} report was not opened 7 days after it was sent`;
    case "allowance_high":
      return `${Math.round(Number(data.share ?? 0.9) * 100)}% of the monthly AI allowance used`;
    case "post_failed":
      return data.state === "rejected" ? `Google rejected a scheduled post${data.location ? ` (${String(data.location)})` : ""}` : `A scheduled post failed${data.location ? ` (${String(data.location)})` : ""}`;
  }
}
