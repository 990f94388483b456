// The Facebook-style preview of a generated post (spec part 1 §2): desktop/mobile, Edit Post / Save Changes / Cancel,
// the fixed fake engagement and the three copy buttons.
import { useState } from "react";
import { fullPostText, type GeneratedPost } from "../../../worker/features/content/rules/facebook-post";
import { Alert } from "../../design/alert";
import { Button } from "../../design/button";
import { CompanyLogo } from "../../design/company-logo";
import { PenIcon } from "../../design/icons";
import { CopyButton } from "../reports";
import { PostImage, PostStats } from "../reports";
import { Segmented } from "../../design/segmented";
import "./content.css";
import { EditActions } from "./editable-text";

/** Spec §9: fixed fake engagement. */
export const FAKE_ENGAGEMENT = { likes: 24, comments: 5, shares: 2 } as const;

type Props = {
  post: GeneratedPost;
  business: { name: string; logoUrl: string | null };
  notice: string | null;
  readOnly: boolean;
  saving: boolean;
  saveError: string | null;
  onSave: (content: string) => Promise<boolean>;
};

const DEVICES = [
  { value: "desktop", label: "Desktop" },
  { value: "mobile", label: "Mobile" },
] as const;

export function FacebookPostPreview({ post, business, notice, readOnly, saving, saveError, onSave }: Props) {
  const [device, setDevice] = useState<"desktop" | "mobile">("desktop");
  const [draft, setDraft] = useState<string | null>(null);
  const editing = draft !== null;

  return (
    <div className="fb-preview-wrap">
      <div className="fb-toolbar">
        <Segmented label="Preview size" options={DEVICES} value={device} onChange={setDevice} />
        {editing || readOnly ? null : (
          <Button size="sm" onClick={() => setDraft(post.content)}>
            <PenIcon size="sm" /> Edit Post
          </Button>
        )}
      </div>

      {post.source === "template" ? (
        <Alert tone="info" title="Written from a template">
          {notice ?? "This post was written from a template, not by the AI."}
        </Alert>
      ) : null}

      <article className={device === "mobile" ? "fb-post is-mobile" : "fb-post"} aria-label="Facebook post preview">
        <header className="post-head">
          <CompanyLogo url={business.logoUrl} name={business.name} className="post-avatar" />
          <div>
            <p className="post-author">{business.name}</p>
            <p className="post-meta">Just now · Public</p>
          </div>
        </header>
        <h3 className="post-title">{post.title}</h3>
        {editing ? (
          <div className="fb-edit">
            <label className="visually-hidden" htmlFor="fb-draft">
              Post content
            </label>
            <textarea id="fb-draft" className="input new-report-textarea" rows={10} value={draft} onChange={(e) => setDraft(e.target.value)} />
            {saveError ? <Alert tone="error">{saveError}</Alert> : null}
            <div className="fb-edit-actions">
              <EditActions
                saving={saving}
                canSave={Boolean(draft.trim())}
                onCancel={() => setDraft(null)}
                onSave={async () => {
                  if (await onSave(draft)) setDraft(null);
                }}
              />
            </div>
          </div>
        ) : (
          <p className="post-content">{post.content}</p>
        )}
        {post.tags.length ? <p className="fb-tags">{post.tags.join(" ")}</p> : null}
        <PostImage image={post.image} title={post.imagePrompt || post.title} />
        <PostStats {...FAKE_ENGAGEMENT} label="Engagement" />
      </article>

      <div className="fb-copy">
        <CopyButton text={post.title} label="Copy Title" copiedLabel="Title Copied" />
        <CopyButton text={post.content} label="Copy Content" copiedLabel="Content Copied" />
        <CopyButton text={fullPostText(post)} label="Copy Full Post" copiedLabel="Full Post Copied" variant="primary" />
      </div>
    </div>
  );
}
