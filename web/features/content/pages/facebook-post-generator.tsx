// /tools/facebook-post-generator (spec part 1 §2): post type cards, advanced options, the description, the Business
// Profile card; the empty state, the skeleton while generating, the preview; and "Recent posts" to reopen, copy or delete.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import {
  LENGTHS,
  POST_TYPES,
  POST_TYPE_LABELS,
  PROFILE_REQUIRED_MESSAGE,
  TONES,
  failedMessage,
  fullPostText,
  lengthLabel,
  retryNotice,
  type GeneratedPost,
  type PostRequestInput,
} from "../../../../worker/features/content/rules/facebook-post";
import { Alert } from "../../../design/alert";
import { Button } from "../../../design/button";
import { BusinessCard } from "../business-card";
import { CheckboxField, Options, SelectField, TextAreaField } from "../../../design/form-fields";
import { GeneratingSkeleton } from "../generating-skeleton";
import { RecentList } from "../content-recent";
import { FacebookPostPreview } from "../facebook-post-preview";
import { BookIcon, CalendarIcon, ChatIcon, ChevronRightIcon, MegaphoneIcon, SparklesIcon, ThumbsUpIcon } from "../../../design/icons";
import { Placeholder } from "../../../design/placeholder";
import { ApiError } from "../../../lib/api";
import { formatDateTime } from "../../../lib/format-date";
import { useViewAs } from "../../../lib/view-as";
import { postsQuery, useDeletePost, useEditPost, useGeneratePost } from "../posts-queries";
import { profileQuery } from "../../profile";
import "../content.css";
import { PageHead } from "../../brand";

const TYPE_ICONS = { promotional: MegaphoneIcon, educational: BookIcon, engagement: ChatIcon, story: ThumbsUpIcon, event: CalendarIcon };

/** Said while the topic is empty: Generate still works, and writes a general post. */
const GENERAL_POST_HINT = "No topic yet: you will get a general post about your business. Name an offer, a job or a season to make it specific.";

type Options = Required<PostRequestInput>;
const DEFAULTS: Options = {
  description: "",
  postType: "promotional",
  tone: "professional",
  length: "medium",
  includeHashtags: true,
  includeEmoji: true,
  specialInstructions: "",
};

/** Spec §8: server and network failures in the spec's words. */
function generationError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === "profile_required" || error.status === 401) return error.message;
    if (error.message.startsWith("All attempts timed out")) return error.message;
  }
  return failedMessage(error instanceof Error && error.message ? error.message : "Unknown error");
}

export default function FacebookPostGeneratorPage() {
  const viewAs = useViewAs();
  const viewAsId = viewAs?.viewingUserId ?? null;
  const readOnly = Boolean(viewAs);
  const profile = useQuery(profileQuery(viewAsId));
  const [options, setOptions] = useState<Options>(DEFAULTS);
  const [advanced, setAdvanced] = useState(false);
  const [retry, setRetry] = useState<number | null>(null);
  const [shown, setShown] = useState<{ post: GeneratedPost; notice: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const generate = useGeneratePost(setRetry);
  const edit = useEditPost();

  const p = profile.data?.profile;
  // Until the profile has loaded nobody can say it is missing: Generate waits for it (issue 26).
  const profileLoading = profile.isPending;
  const hasProfile = Boolean(p?.company_name?.trim());
  const business = { name: p?.company_name?.trim() || "Your Business", logoUrl: p?.company_logo_url ?? null };
  const set = <K extends keyof Options>(key: K, value: Options[K]) => setOptions((o) => ({ ...o, [key]: value }));

  async function run(input: Options) {
    setError(null);
    setRetry(null);
    if (profileLoading) return;
    if (!hasProfile) {
      setError(PROFILE_REQUIRED_MESSAGE);
      return;
    }
    try {
      const result = await generate.mutateAsync(input);
      setShown(result);
    } catch (err) {
      setError(generationError(err));
    } finally {
      setRetry(null);
    }
  }

  async function saveEdit(content: string): Promise<boolean> {
    if (!shown) return false;
    try {
      const { post } = await edit.mutateAsync({ id: shown.post.id, content });
      setShown({ post, notice: shown.notice });
      return true;
    } catch {
      return false;
    }
  }

  return (
    <>
      <PageHead
        eyebrow="Tools · Social"
        title="Facebook Post Generator"
        subtitle="Ready-to-publish Facebook posts about your business, written for your area."
      />

      <div className="fb-layout">
        <div className="fb-controls">
          <section className="card card-pad fb-card" aria-labelledby="post-type-title">
            <h2 className="fb-card-title" id="post-type-title">
              Post Type
            </h2>
            <div className="choice-grid" role="radiogroup" aria-labelledby="post-type-title">
              {POST_TYPES.map((type) => {
                const Icon = TYPE_ICONS[type];
                return (
                  <button
                    key={type}
                    type="button"
                    role="radio"
                    aria-checked={options.postType === type}
                    className="choice-card"
                    onClick={() => set("postType", type)}
                  >
                    <Icon />
                    <span className="choice-card-label">{POST_TYPE_LABELS[type].label}</span>
                    <span className="choice-card-text">{POST_TYPE_LABELS[type].description}</span>
                  </button>
                );
              })}
            </div>

            <button type="button" className="fb-advanced-toggle" aria-expanded={advanced} aria-controls="fb-advanced fb-instructions-field" onClick={() => setAdvanced(!advanced)}>
              <ChevronRightIcon className="chevron" size="sm" />
              Advanced Options
            </button>
            <div id="fb-advanced" className="fb-advanced" hidden={!advanced}>
              <SelectField label="Tone" value={options.tone} onChange={(v) => set("tone", v as Options["tone"])}>
                <Options values={TONES} label={(t) => t[0]!.toUpperCase() + t.slice(1)} />
              </SelectField>
              <SelectField label="Length" value={options.length} onChange={(v) => set("length", v as Options["length"])}>
                <Options values={LENGTHS} label={lengthLabel} />
              </SelectField>
              <CheckboxField label="Include hashtags" checked={options.includeHashtags} onChange={(v) => set("includeHashtags", v)} />
              <CheckboxField label="Include emoji" checked={options.includeEmoji} onChange={(v) => set("includeEmoji", v)} />
            </div>

            <TextAreaField
              label="What should the post be about?"
              rows={4}
              maxLength={2000}
              value={options.description}
              onChange={(v) => set("description", v)}
              placeholder="e.g. Our spring roof inspection special: free inspection with any repair booked this month."
              hint={options.description.trim() ? undefined : GENERAL_POST_HINT}
            />
            {/* An advanced option, but it refines the description: it sits below it (toggle above, per spec §2). */}
            <div className="field" id="fb-instructions-field" hidden={!advanced}>
              <label className="field-label" htmlFor="fb-instructions">
                Special Instructions
              </label>
              <textarea
                id="fb-instructions"
                className="input new-report-textarea"
                rows={3}
                maxLength={1000}
                value={options.specialInstructions}
                onChange={(e) => set("specialInstructions", e.target.value)}
                placeholder="e.g. Mention our 10-year warranty"
              />
            </div>
            <Button variant="primary" block busy={generate.isPending} disabled={readOnly || profileLoading} onClick={() => void run(options)}>
              <SparklesIcon size="sm" />
              {generate.isPending ? "Generating..." : "Generate Facebook Post"}
            </Button>
            {readOnly ? <p className="field-hint">Generating is off while you view as another user.</p> : null}
          </section>

          <BusinessCard loading={profile.isPending} failed={profile.isError} profile={p ?? null} onRetry={() => void profile.refetch()} />
        </div>

        <div className="fb-output" aria-live="polite">
          {retry !== null ? <Alert tone="warning">{retryNotice(retry)}</Alert> : null}
          {error ? <Alert tone="error">{error}</Alert> : null}
          {generate.isPending ? (
            <GeneratingSkeleton label="Generating your post" status={retry ? `Writing your post... (retry ${retry} of 3)` : "Writing your post..."} />
          ) : shown ? (
            <FacebookPostPreview
              key={`${shown.post.id}:${shown.post.updated_at}`}
              post={shown.post}
              business={business}
              notice={shown.notice}
              readOnly={readOnly}
              saving={edit.isPending}
              saveError={edit.error ? `Failed to save the post: ${edit.error.message}` : null}
              onSave={saveEdit}
            />
          ) : (
            <Placeholder icon={ThumbsUpIcon} title="No Post Generated Yet" className="empty-state">
              <p className="placeholder-text">Pick a post type, describe what you want to say and generate a post, or try a sample first.</p>
              <Button variant="secondary" onClick={() => void run({ ...options, description: "" })} disabled={readOnly || profileLoading}>
                Generate Sample Post
              </Button>
            </Placeholder>
          )}
        </div>
      </div>

      <RecentPosts viewAsId={viewAsId} readOnly={readOnly} openId={shown?.post.id ?? null} onOpen={(post) => setShown({ post, notice: null })} onDeleted={(id) => shown?.post.id === id && setShown(null)} />
    </>
  );
}

function RecentPosts({
  viewAsId,
  readOnly,
  openId,
  onOpen,
  onDeleted,
}: {
  viewAsId: string | null;
  readOnly: boolean;
  openId: string | null;
  onOpen: (post: GeneratedPost) => void;
  onDeleted: (id: string) => void;
}) {
  const posts = useQuery(postsQuery(viewAsId));
  const remove = useDeletePost();
  return (
    <RecentList
      title="Recent posts"
      query={posts}
      items={posts.data?.posts}
      remove={remove}
      texts={{
        loading: "Loading your recent posts...",
        failed: "Failed to load your posts: ",
        empty: "Posts you generate are kept here, to reopen, copy or delete later.",
        deleteFailed: "Failed to delete the post: ",
      }}
      meta={(post) => `${formatDateTime(post.created_at)} · ${POST_TYPE_LABELS[post.postType]?.label ?? post.postType}`}
      copyText={fullPostText}
      openId={openId}
      readOnly={readOnly}
      onOpen={onOpen}
      onDeleted={onDeleted}
    />
  );
}
