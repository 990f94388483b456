// /tools/gmb-post-generator (issue 20): an Update, Offer or Event for the Google Business Profile — at most 1,500
// characters, a button with its link, an image idea — previewed as it shows on a Google listing, with edit, copy
// and a "Schedule" link that opens the post in the GMB Post Scheduler.
import { useState, type ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import { schedulerLink, type ContentItem } from "../../../../worker/features/content/rules/content";
import { GMB_CTA_LABELS, GMB_CTA_TYPES, GMB_POST_TYPE_LABELS, GMB_POST_TYPES, GMB_SUMMARY_MAX, type GmbCtaType, type GmbPost, type GmbPostType } from "../../../../worker/platform/providers/rules/gmb-post";
import { GmbPostRequest, type GmbPostRequestInput } from "../../../../worker/features/content/rules/gmb-generator";
import { issuesByField } from "../../../../worker/domain/form-rules";
import { buttonClass } from "../../../design/button";
import { CompanyLogo } from "../../../design/company-logo";
import { ContentToolPage } from "../content-tool";
import { EditableText } from "../editable-text";
import { CalendarIcon, StoreIcon } from "../../../design/icons";
import { Options, SelectField, TextAreaField, ToneSelect } from "../../../design/form-fields";
import { Segmented } from "../../../design/segmented";
import { TextField } from "../../../design/text-field";
import { formatDay } from "../../../lib/format-date";
import { useContentTool } from "../use-content-tool";
import "../content.css";

type Form = Required<Omit<GmbPostRequestInput, "ctaType">> & { ctaType: GmbCtaType | "" };

/** The text a person pastes into Google: the post, then the offer's details. */
export function gmbPostText(post: GmbPost): string {
  const span = post.offer ?? post.event;
  return [
    span?.title,
    post.summary,
    post.offer?.couponCode ? `Code: ${post.offer.couponCode}` : null,
    span ? `${span.startDate} – ${span.endDate}` : null,
    post.offer?.terms ? `Terms: ${post.offer.terms}` : null,
  ]
    .filter(Boolean)
    .join("\n\n");
}

export default function GmbPostGeneratorPage() {
  const [params] = useSearchParams();
  const state = useContentTool<GmbPost>("gmb-post");
  const [form, setForm] = useState<Form>({
    postType: "STANDARD",
    topic: params.get("topic")?.slice(0, 1000) ?? "",
    tone: "friendly",
    title: "",
    couponCode: "",
    terms: "",
    startDate: "",
    endDate: "",
    ctaType: "CALL",
    ctaUrl: "",
  });
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const dated = form.postType !== "STANDARD";

  function generate() {
    const input = { ...form, ctaType: form.ctaType || null };
    const checked = GmbPostRequest.safeParse(input);
    setFieldErrors(checked.success ? {} : issuesByField(checked.error));
    if (checked.success) void state.run(input);
  }

  return (
    <ContentToolPage
      tool="gmb-post"
      state={state}
      eyebrow="Tools · Content"
      title="GMB Post Generator"
      subtitle="Updates, offers and events for your Google Business Profile, ready to post."
      generateLabel="Generate GMB Post"
      onGenerate={generate}
      empty={{ icon: StoreIcon, title: "No Post Generated Yet", text: "Pick a post type, say what it is about and generate a post for your Google listing." }}
      copyText={(item) => gmbPostText(item.result)}
      form={
        <>
          <h2 className="fb-card-title">Post Type</h2>
          <Segmented label="Post type" options={GMB_POST_TYPES.map((t) => ({ value: t, label: GMB_POST_TYPE_LABELS[t] }))} value={form.postType} onChange={(v: GmbPostType) => set("postType", v)} />
          <TextAreaField label="What is it about?" value={form.topic} maxLength={1000} onChange={(v) => set("topic", v)} placeholder="e.g. Free gutter check with every roof inspection this month" />
          {dated ? (
            <div className="content-fields">
              <TextField label={form.postType === "OFFER" ? "Offer title" : "Event title"} value={form.title} maxLength={58} onChange={(e) => set("title", e.target.value)} hint="Left empty, the AI writes one." error={fieldErrors.title?.[0]} />
              {form.postType === "OFFER" ? (
                <>
                  <TextField label="Coupon code" value={form.couponCode} maxLength={60} onChange={(e) => set("couponCode", e.target.value)} />
                  <TextField label="Terms" value={form.terms} maxLength={1000} onChange={(e) => set("terms", e.target.value)} />
                </>
              ) : null}
              <TextField label="Start date" type="date" value={form.startDate} onChange={(e) => set("startDate", e.target.value)} error={fieldErrors.startDate?.[0]} />
              <TextField label="End date" type="date" value={form.endDate} onChange={(e) => set("endDate", e.target.value)} error={fieldErrors.endDate?.[0]} />
            </div>
          ) : null}
          <div className="content-fields">
            <ToneSelect value={form.tone} onChange={(v) => set("tone", v)} />
            <SelectField label="Button" value={form.ctaType} onChange={(v) => set("ctaType", v as Form["ctaType"])}>
              <option value="">No button</option>
              <Options values={GMB_CTA_TYPES} label={(t) => GMB_CTA_LABELS[t]} />
            </SelectField>
          </div>
          {form.ctaType && form.ctaType !== "CALL" ? (
            <TextField label="Button link" type="url" value={form.ctaUrl} placeholder="https://" onChange={(e) => set("ctaUrl", e.target.value)} error={fieldErrors.ctaUrl?.[0]} />
          ) : null}
        </>
      }
    >
      {(item) => <GmbResult item={item} state={state} />}
    </ContentToolPage>
  );
}

function GmbResult({ item, state }: { item: ContentItem<GmbPost>; state: ReturnType<typeof useContentTool<GmbPost>> }) {
  const post = item.result;
  const span = post.offer ?? post.event;
  const name = state.business?.company_name?.trim() || "Your Business";
  return (
    <div className="fb-preview-wrap">
      <article className="fb-post gmb-post" aria-label="Google listing preview">
        <header className="post-head">
          <CompanyLogo url={state.business?.company_logo_url ?? null} name={name} className="post-avatar" />
          <div>
            <p className="post-author">{name}</p>
            <p className="post-meta">{GMB_POST_TYPE_LABELS[post.type]} · Just now</p>
          </div>
        </header>
        {post.imageIdea ? (
          <div className="gmb-image">
            <strong>Photo idea</strong>
            <span>{post.imageIdea}</span>
          </div>
        ) : null}
        {span ? <h3 className="post-title">{span.title}</h3> : null}
        {span ? (
          <p className="post-meta">
            {post.offer ? "Valid " : ""}
            {formatDay(span.startDate)} – {formatDay(span.endDate)}
          </p>
        ) : null}
        <EditableText
          text={post.summary}
          label="Post text"
          limit={GMB_SUMMARY_MAX}
          copyText={gmbPostText(post)}
          copyLabel="Copy Post"
          readOnly={state.readOnly}
          saving={state.saving}
          saveError={state.saveError}
          onSave={(summary) => state.save({ ...post, summary })}
        />
        {post.offer?.couponCode ? (
          <GmbBox label="Show this code at the store">
            <strong>{post.offer.couponCode}</strong>
          </GmbBox>
        ) : null}
        {post.offer?.terms ? <p className="post-meta">Terms: {post.offer.terms}</p> : null}
        {post.callToAction ? <span className="gmb-cta">{GMB_CTA_LABELS[post.callToAction.actionType]}</span> : null}
      </article>
      <div className="fb-copy">
        <Link to={schedulerLink(item.id)} className={buttonClass("primary", "md")}>
          <CalendarIcon size="sm" /> Schedule
        </Link>
      </div>
    </div>
  );
}

function GmbBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="gmb-coupon">
      <span className="post-meta">{label}</span>
      {children}
    </div>
  );
}
