// /tools/video-script-generator (issue 20): a 15, 30 or 60-second short-form script — the hook (first 3 seconds),
// scenes (what is said, on-screen text, the shot), the call to action, a caption with hashtags — with an estimate
// of its spoken length and a teleprompter (large text, adjustable speed).
import { useState } from "react";
import type { ContentItem } from "../../../../worker/features/content/rules/content";
import { HOOK_SECONDS, scriptSeconds, spokenLines, VIDEO_LENGTHS, CAPTION_MAX, type VideoLength, type VideoScript, type VideoScriptRequestInput } from "../../../../worker/features/content/rules/video-script";
import { Button } from "../../../design/button";
import { ContentToolPage } from "../content-tool";
import { EditableText } from "../editable-text";
import { TextAreaField, ToneSelect } from "../../../design/form-fields";
import { EyeIcon, VideoIcon } from "../../../design/icons";
import { CopyButton } from "../../reports";
import { Segmented } from "../../../design/segmented";
import { Teleprompter } from "../teleprompter";
import { useContentTool, type ContentToolState } from "../use-content-tool";
import "../content.css";

type Form = Required<VideoScriptRequestInput>;

export function scriptText(script: VideoScript): string {
  const scene = (label: string, s: { said: string; onScreen: string; shot?: string }) =>
    [`${label}`, `Say: ${s.said}`, s.onScreen ? `On screen: ${s.onScreen}` : "", s.shot ? `Shot: ${s.shot}` : ""].filter(Boolean).join("\n");
  return [
    `${script.title} (${script.seconds} s)`,
    scene(`Hook (first ${HOOK_SECONDS} s)`, script.hook),
    ...script.scenes.map((s, i) => scene(`Scene ${i + 1}`, s)),
    scene("Call to action", script.cta),
    `Caption: ${script.caption}\n${script.hashtags.join(" ")}`,
  ].join("\n\n");
}

export default function VideoScriptGeneratorPage() {
  const state = useContentTool<VideoScript>("video-script");
  const [form, setForm] = useState<Form>({ topic: "", seconds: 30, tone: "friendly" });
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  return (
    <ContentToolPage
      tool="video-script"
      state={state}
      eyebrow="Tools · Social"
      title="Video Script Generator"
      subtitle="Short scripts for Reels, TikTok and Shorts: hook, scenes, call to action and caption."
      generateLabel="Generate Script"
      onGenerate={() => void state.run(form)}
      empty={{ icon: VideoIcon, title: "No Script Generated Yet", text: "Pick a length, say what the video is about and get a shot-by-shot script." }}
      copyText={(item) => scriptText(item.result)}
      form={
        <>
          <TextAreaField label="What is the video about?" value={form.topic} maxLength={1000} onChange={(v) => set("topic", v)} placeholder="e.g. Three signs your roof needs a check after a storm" />
          <div className="field">
            <span className="field-label">Length</span>
            <Segmented label="Length" options={VIDEO_LENGTHS.map((s) => ({ value: String(s), label: `${s} s` }))} value={String(form.seconds)} onChange={(v) => set("seconds", Number(v) as VideoLength)} />
          </div>
          <ToneSelect value={form.tone} onChange={(v) => set("tone", v)} />
        </>
      }
    >
      {(item) => <Script item={item} state={state} />}
    </ContentToolPage>
  );
}

function Script({ item, state }: { item: ContentItem<VideoScript>; state: ContentToolState<VideoScript> }) {
  const script = item.result;
  const [prompter, setPrompter] = useState(false);
  const spoken = scriptSeconds(script);
  return (
    <div className="fb-preview-wrap">
      <div className="card card-pad fb-card">
        <div className="fb-toolbar">
          <h3 className="post-title">{script.title}</h3>
          <Button size="sm" variant="primary" onClick={() => setPrompter(true)}>
            <EyeIcon size="sm" /> Teleprompter
          </Button>
        </div>
        <p className="post-meta">
          About {spoken} s spoken · {script.seconds} s video
        </p>
        <ol className="video-scenes">
          <Scene label={`Hook · first ${HOOK_SECONDS} s`} said={script.hook.said} onScreen={script.hook.onScreen} shot={script.hook.shot} />
          {script.scenes.map((s, i) => (
            <Scene key={i} label={`Scene ${i + 1}`} said={s.said} onScreen={s.onScreen} shot={s.shot} />
          ))}
          <Scene label="Call to action" said={script.cta.said} onScreen={script.cta.onScreen} />
        </ol>
        <h4 className="field-label">Caption</h4>
        <EditableText
          text={script.caption}
          label="Caption"
          limit={CAPTION_MAX}
          copyText={`${script.caption}\n\n${script.hashtags.join(" ")}`}
          copyLabel="Copy Caption"
          readOnly={state.readOnly}
          saving={state.saving}
          saveError={state.saveError}
          onSave={(caption) => state.save({ ...script, caption })}
          after={<p className="fb-tags">{script.hashtags.join(" ")}</p>}
        />
      </div>
      <div className="fb-copy">
        <CopyButton text={scriptText(script)} label="Copy Script" copiedLabel="Script Copied" variant="primary" />
      </div>
      {prompter ? <Teleprompter title={script.title} lines={spokenLines(script)} onClose={() => setPrompter(false)} /> : null}
    </div>
  );
}

function Scene({ label, said, onScreen, shot }: { label: string; said: string; onScreen: string; shot?: string }) {
  return (
    <li className="video-scene">
      <p className="post-meta">{label}</p>
      <p className="post-content">“{said}”</p>
      {onScreen ? <p className="post-meta">On screen: {onScreen}</p> : null}
      {shot ? <p className="post-meta">Shot: {shot}</p> : null}
    </li>
  );
}
