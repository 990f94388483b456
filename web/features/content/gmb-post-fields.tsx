// The Google Business Profile post editor (a GmbPost): type, text with its 1,500-character count, button, offer or
// event details, image idea. Validated with the same schema the server uses (worker/platform/providers/rules/gmb-post.ts).
import { useId } from "react";
import {
  GMB_CTA_LABELS,
  GMB_CTA_TYPES,
  GMB_POST_TYPE_LABELS,
  GMB_POST_TYPES,
  GMB_SUMMARY_MAX,
  GMB_TITLE_MAX,
  type GmbCtaType,
  type GmbPost,
  type GmbPostType,
} from "../../../worker/platform/providers/rules/gmb-post";
import { Segmented } from "../../design/segmented";
import { TextField } from "../../design/text-field";
import { Options } from "../../design/form-fields";
import "./content.css";

export type GmbPostDraft = {
  type: GmbPostType;
  summary: string;
  ctaType: GmbCtaType | "";
  ctaUrl: string;
  title: string;
  couponCode: string;
  terms: string;
  startDate: string;
  endDate: string;
  imageIdea: string;
};

export const EMPTY_GMB_DRAFT: GmbPostDraft = { type: "STANDARD", summary: "", ctaType: "", ctaUrl: "", title: "", couponCode: "", terms: "", startDate: "", endDate: "", imageIdea: "" };

export function draftFromPost(post: GmbPost): GmbPostDraft {
  const span = post.offer ?? post.event;
  return {
    type: post.type,
    summary: post.summary,
    ctaType: post.callToAction?.actionType ?? "",
    ctaUrl: post.callToAction?.url ?? "",
    title: span?.title ?? "",
    couponCode: post.offer?.couponCode ?? "",
    terms: post.offer?.terms ?? "",
    startDate: span?.startDate ?? "",
    endDate: span?.endDate ?? "",
    imageIdea: post.imageIdea ?? "",
  };
}

/** The draft as the API's GmbPost (not yet validated: GmbPost.safeParse says what is missing). */
export function postFromDraft(d: GmbPostDraft): unknown {
  const span = { title: d.title, startDate: d.startDate, endDate: d.endDate };
  return {
    type: d.type,
    summary: d.summary,
    callToAction: d.ctaType ? { actionType: d.ctaType, url: d.ctaType === "CALL" ? null : d.ctaUrl.trim() || null } : null,
    offer: d.type === "OFFER" ? { ...span, couponCode: d.couponCode.trim() || null, terms: d.terms.trim() || null } : null,
    event: d.type === "EVENT" ? span : null,
    imageIdea: d.imageIdea.trim() || null,
  };
}

/** The post as text to paste on the listing by hand (a reminder's copy button). */
export function gmbPostText(post: GmbPost): string {
  const span = post.offer ?? post.event;
  const lines = [span ? `${span.title} (${span.startDate} – ${span.endDate})` : null, post.summary, post.offer?.couponCode ? `Code: ${post.offer.couponCode}` : null, post.offer?.terms ? `Terms: ${post.offer.terms}` : null];
  if (post.callToAction) lines.push(`${GMB_CTA_LABELS[post.callToAction.actionType]}${post.callToAction.url ? `: ${post.callToAction.url}` : ""}`);
  return lines.filter(Boolean).join("\n\n");
}

export function GmbPostFields({ value, onChange, errors = {}, disabled }: { value: GmbPostDraft; onChange: (next: GmbPostDraft) => void; errors?: Record<string, string>; disabled?: boolean }) {
  const id = useId();
  const set = <K extends keyof GmbPostDraft>(key: K, v: GmbPostDraft[K]) => onChange({ ...value, [key]: v });
  const left = GMB_SUMMARY_MAX - value.summary.length;
  return (
    <div className="gmb-fields">
      <Segmented label="Post type" options={GMB_POST_TYPES.map((t) => ({ value: t, label: GMB_POST_TYPE_LABELS[t] }))} value={value.type} onChange={(t) => set("type", t)} />
      {value.type !== "STANDARD" ? (
        <>
          <TextField label={value.type === "OFFER" ? "Offer title" : "Event title"} value={value.title} maxLength={GMB_TITLE_MAX} onChange={(e) => set("title", e.target.value)} error={errors.title} disabled={disabled} />
          <div className="gmb-fields-row">
            <TextField label="Starts" type="date" value={value.startDate} onChange={(e) => set("startDate", e.target.value)} error={errors.startDate} disabled={disabled} />
            <TextField label="Ends" type="date" value={value.endDate} onChange={(e) => set("endDate", e.target.value)} error={errors.endDate} disabled={disabled} />
          </div>
        </>
      ) : null}
      <div className="field">
        <label className="field-label" htmlFor={`${id}-summary`}>
          Post text
        </label>
        <textarea
          id={`${id}-summary`}
          className="input new-report-textarea"
          rows={5}
          value={value.summary}
          disabled={disabled}
          aria-invalid={errors.summary ? true : undefined}
          aria-describedby={`${id}-count`}
          onChange={(e) => set("summary", e.target.value)}
          placeholder="e.g. Spring is here: book a free roof inspection before the storms."
        />
        <p className={left < 0 ? "field-error" : "field-hint"} id={`${id}-count`}>
          {errors.summary ?? (left < 0 ? `${(-left).toLocaleString("en-US")} characters over Google's 1,500` : `${left.toLocaleString("en-US")} of 1,500 characters left`)}
        </p>
      </div>
      {value.type === "OFFER" ? (
        <div className="gmb-fields-row">
          <TextField label="Coupon code (optional)" value={value.couponCode} maxLength={60} onChange={(e) => set("couponCode", e.target.value)} disabled={disabled} />
          <TextField label="Terms (optional)" value={value.terms} maxLength={5000} onChange={(e) => set("terms", e.target.value)} disabled={disabled} />
        </div>
      ) : null}
      <div className="gmb-fields-row">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-cta`}>
            Button
          </label>
          <select id={`${id}-cta`} className="input" value={value.ctaType} disabled={disabled} onChange={(e) => set("ctaType", e.target.value as GmbCtaType | "")}>
            <option value="">No button</option>
            <Options values={GMB_CTA_TYPES} label={(t) => GMB_CTA_LABELS[t]} />
          </select>
        </div>
        {value.ctaType && value.ctaType !== "CALL" ? (
          <TextField label="Button link" type="url" value={value.ctaUrl} placeholder="https://" onChange={(e) => set("ctaUrl", e.target.value)} error={errors.url} disabled={disabled} />
        ) : null}
      </div>
    </div>
  );
}

/** Schema issues of a draft, by the editor's field name. */
export function draftErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[issue.path.length - 1] ?? "summary");
    const name = key === "offer" || key === "event" ? "title" : key;
    out[name] ??= issue.message;
  }
  return out;
}
