// /tools/social-post-generator (issue 20): one idea → a post per chosen network (Facebook, Instagram, LinkedIn, X,
// Google Business, Nextdoor), each held to that network's limits, each with its own preview, edit and copy.
import { useState } from "react";
import { useSearchParams } from "react-router";
import type { ContentItem } from "../../../../worker/features/content/rules/content";
import { charCount, NETWORK_CHAR_LIMITS, NETWORK_HASHTAG_LIMITS, NETWORK_LABELS, NETWORKS, postText, type Network } from "../../../../worker/features/content/rules/length";
import type { SocialPostsRequestInput, SocialPostsResult } from "../../../../worker/features/content/rules/social-posts";
import { CompanyLogo } from "../../../design/company-logo";
import { ContentToolPage } from "../content-tool";
import { EditableText } from "../editable-text";
import { CheckboxField, NetworkChoice, TextAreaField, ToneSelect } from "../../../design/form-fields";
import { ShareIcon } from "../../../design/icons";
import { useContentTool, type ContentToolState } from "../use-content-tool";
import "../content.css";

type Form = Required<SocialPostsRequestInput>;

export function socialPostsText(result: SocialPostsResult): string {
  return result.posts.map((p) => `${NETWORK_LABELS[p.network]}\n${postText(p.content, p.hashtags)}`).join("\n\n---\n\n");
}

export default function SocialPostGeneratorPage() {
  const [params] = useSearchParams();
  const state = useContentTool<SocialPostsResult>("social-posts");
  const asked = params.get("network");
  const [form, setForm] = useState<Form>({
    idea: params.get("idea")?.slice(0, 1000) ?? "",
    networks: asked && (NETWORKS as readonly string[]).includes(asked) ? [asked as Network] : ["facebook", "instagram", "google-business"],
    tone: "friendly",
    includeHashtags: true,
    includeEmoji: true,
  });
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const [formError, setFormError] = useState<string | null>(null);

  return (
    <ContentToolPage
      tool="social-posts"
      state={state}
      eyebrow="Tools · Social"
      title="Social Post Generator"
      subtitle="One idea, a post for every network you use, each within that network's limits."
      generateLabel="Generate Posts"
      onGenerate={() => {
        setFormError(form.networks.length ? null : "Pick at least one network");
        if (form.networks.length) void state.run(form);
      }}
      empty={{ icon: ShareIcon, title: "No Posts Generated Yet", text: "Write your idea, pick the networks and get one post for each." }}
      copyText={(item) => socialPostsText(item.result)}
      form={
        <>
          <TextAreaField label="Your idea" value={form.idea} maxLength={1000} onChange={(v) => set("idea", v)} placeholder="e.g. We just finished a full roof replacement in Oak Hill" />
          <NetworkChoice value={form.networks} onChange={(v) => set("networks", v)} error={formError} />
          <ToneSelect value={form.tone} onChange={(v) => set("tone", v)} />
          <CheckboxField label="Include hashtags" checked={form.includeHashtags} onChange={(v) => set("includeHashtags", v)} />
          <CheckboxField label="Include emoji" checked={form.includeEmoji} onChange={(v) => set("includeEmoji", v)} />
        </>
      }
    >
      {(item) => <SocialPosts item={item} state={state} />}
    </ContentToolPage>
  );
}

function SocialPosts({ item, state }: { item: ContentItem<SocialPostsResult>; state: ContentToolState<SocialPostsResult> }) {
  const name = state.business?.company_name?.trim() || "Your Business";
  return (
    <div className="fb-preview-wrap">
      {item.result.posts.map((post, i) => {
        const tags = post.hashtags.join(" ");
        return (
          <article key={post.network} className="fb-post" aria-label={`${NETWORK_LABELS[post.network]} post`}>
            <header className="post-head">
              <CompanyLogo url={state.business?.company_logo_url ?? null} name={name} className="post-avatar" />
              <div>
                <p className="post-author">{name}</p>
                <p className="post-meta">
                  {NETWORK_LABELS[post.network]} · up to {NETWORK_CHAR_LIMITS[post.network].toLocaleString("en-US")} characters
                  {NETWORK_HASHTAG_LIMITS[post.network] ? ` and ${NETWORK_HASHTAG_LIMITS[post.network]} hashtags` : ""}
                </p>
              </div>
            </header>
            <EditableText
              text={post.content}
              label={`${NETWORK_LABELS[post.network]} post`}
              limit={NETWORK_CHAR_LIMITS[post.network]}
              extraChars={tags ? charCount(tags) + 2 : 0}
              copyText={postText(post.content, post.hashtags)}
              copyLabel={`Copy ${NETWORK_LABELS[post.network]}`}
              readOnly={state.readOnly}
              saving={state.saving}
              saveError={state.saveError}
              onSave={(content) => state.save({ posts: item.result.posts.map((p, j) => (j === i ? { ...p, content } : p)) })}
              after={tags ? <p className="fb-tags">{tags}</p> : null}
            />
          </article>
        );
      })}
    </div>
  );
}
