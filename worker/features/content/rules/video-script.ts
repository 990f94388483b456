// The Video Script Generator's rules (issue 20): a 15, 30 or 60-second short-form script — the hook (first 3 s),
// scenes (what is said, on-screen text, the shot), the call to action, a caption with hashtags — held to its length.
import { z } from "zod";
import {
  businessFacts,
  businessPromptLines,
  CONTENT_TONES,
  JSON_RULES,
  modelList,
  modelText,
  parseModelJson,
  topicField,
  type ContentBusiness,
  type ContentRules,
} from "./content";
import { cleanHashtags, shortenToLimit, shortenToWords, spokenSeconds, wordCount, wordsFor } from "./length";

export const VIDEO_LENGTHS = [15, 30, 60] as const;
export type VideoLength = (typeof VIDEO_LENGTHS)[number];
export const HOOK_SECONDS = 3;
export const CAPTION_MAX = 2200;
export const VIDEO_HASHTAGS_MAX = 10;
/** A script may run this much over its length before it is shortened (delivery pace varies). */
export const VIDEO_SLACK = 1.1;

export const VideoScriptRequest = z.object({
  topic: topicField,
  seconds: z.union([z.literal(15), z.literal(30), z.literal(60)]).default(30),
  tone: z.enum(CONTENT_TONES).default("friendly"),
});
export type VideoScriptRequestInput = z.input<typeof VideoScriptRequest>;
export type VideoScriptRequest = z.output<typeof VideoScriptRequest>;

const line = z.string().trim().max(2000);
export const VideoScene = z.object({ said: line, onScreen: line, shot: line });
export type VideoScene = z.infer<typeof VideoScene>;
export const VideoScript = z.object({
  title: z.string().trim().min(1).max(200),
  seconds: z.union([z.literal(15), z.literal(30), z.literal(60)]),
  hook: VideoScene,
  scenes: z.array(VideoScene).max(12),
  cta: z.object({ said: line, onScreen: line }),
  caption: z.string().trim().max(CAPTION_MAX),
  hashtags: z.array(z.string().max(140)).max(VIDEO_HASHTAGS_MAX),
});
export type VideoScript = z.infer<typeof VideoScript>;

/** Everything said, in order: hook, scenes, call to action (what the teleprompter scrolls). */
export function spokenLines(script: Pick<VideoScript, "hook" | "scenes" | "cta">): string[] {
  return [script.hook.said, ...script.scenes.map((s) => s.said), script.cta.said].filter((s) => s.trim());
}

/** The spoken-length estimate of a script, in seconds. */
export function scriptSeconds(script: Pick<VideoScript, "hook" | "scenes" | "cta">): number {
  return spokenSeconds(spokenLines(script).join(" "));
}

export function buildVideoPrompt(business: ContentBusiness, req: VideoScriptRequest, findings: Parameters<typeof businessPromptLines>[1]): string {
  const scenes = req.seconds === 15 ? "1-2" : req.seconds === 30 ? "2-4" : "4-6";
  return [
    ...businessPromptLines(business, findings),
    `Write a ${req.seconds}-second vertical short-form video script (Reels, TikTok, Shorts) for this business.`,
    `Topic: ${req.topic || "a useful tip that shows the business's expertise"}`,
    `Tone: ${req.tone}`,
    `Spoken words in total: at most ${wordsFor(req.seconds)} (about 150 words a minute).`,
    "",
    JSON_RULES,
    "Fields: title, hook, scenes, cta, caption, hashtags.",
    `- hook: {said, onScreen, shot} for the first ${HOOK_SECONDS} seconds: one line that stops the scroll.`,
    `- scenes: ${scenes} objects {said, onScreen, shot}: what is said, the short on-screen text, and what the camera shows.`,
    "- cta: {said, onScreen}: the call to action.",
    "- caption: the post caption, 1-3 sentences.",
    "- hashtags: 3-8 hashtags starting with #.",
  ].join("\n");
}

const ModelScene = z.object({ said: modelText(2000), onScreen: modelText(500), shot: modelText(500) }).catch({ said: undefined, onScreen: undefined, shot: undefined });
const ModelVideo = z.object({
  title: modelText(200),
  hook: ModelScene.optional().catch(undefined),
  scenes: z.array(ModelScene).optional().catch(undefined),
  cta: z.object({ said: modelText(2000), onScreen: modelText(500) }).optional().catch(undefined),
  caption: modelText(CAPTION_MAX),
  hashtags: modelList(30),
});

/** A script without AI: a tip-style walkthrough for the trade, sized to the length. */
export function templateVideoScript(business: ContentBusiness, req: VideoScriptRequest): VideoScript {
  const f = businessFacts(business);
  const trade = f.trade.toLowerCase();
  const topic = req.topic ? req.topic.replace(/[.!?]*$/, "") : `one ${trade} mistake homeowners make`;
  const scenes: VideoScene[] = [
    { said: `Here is the thing about ${topic}.`, onScreen: topic, shot: `You on site, talking to camera, the work behind you.` },
    { said: `Most people only call a pro when it is already a big problem, and that is what makes it expensive.`, onScreen: "Small problem → big bill", shot: "Close-up of the worn or damaged part." },
    { said: `A quick check once a year catches it early. It takes us less than an hour.`, onScreen: "Check it once a year", shot: "Your hands doing the check, step by step." },
    { said: `Keep photos of past work, so the next visit starts where the last one ended.`, onScreen: "Keep photos & notes", shot: "Phone camera snapping the finished job." },
    { said: `And always ask for a written estimate before any work begins.`, onScreen: "Get it in writing", shot: "Handing a written estimate to a homeowner." },
    { said: `That is how ${f.name} keeps homes across ${f.area} out of trouble.`, onScreen: f.name, shot: "Wide shot of the crew and the van." },
  ];
  const count = req.seconds === 15 ? 1 : req.seconds === 30 ? 3 : 6;
  const script: VideoScript = {
    title: req.topic ? shortenToLimit(req.topic, 80).text : `${f.trade} tip from ${f.name}`,
    seconds: req.seconds,
    hook: { said: `Stop! Before you call a ${trade} pro, watch this.`, onScreen: "Watch this first", shot: "Tight shot of your face, then snap to the job site." },
    scenes: scenes.slice(0, count),
    cta: { said: `Need a hand in ${f.area}? Call ${f.name} today.`, onScreen: `Book ${f.name}` },
    caption: `${topic[0]!.toUpperCase()}${topic.slice(1)}: a ${req.seconds}-second tip from ${f.name}, your ${trade} team in ${f.area}.`,
    hashtags: cleanHashtags([f.trade.replace(/&/g, "and"), f.area, "HomeTips", "DIY", "LocalBusiness"], VIDEO_HASHTAGS_MAX),
  };
  return fitScript(script).script;
}

/**
 * Holds a script to its length: while the spoken estimate passes the length (with VIDEO_SLACK), the last scene goes
 * (at least one stays), then the last scene is shortened on a sentence boundary. The caption is cut to 2,200.
 */
export function fitScript(script: VideoScript): { script: VideoScript; notes: string[] } {
  const notes: string[] = [];
  const budget = Math.floor(script.seconds * VIDEO_SLACK);
  let scenes = script.scenes;
  const over = () => scriptSeconds({ ...script, scenes }) > budget;
  if (over()) {
    while (scenes.length > 1 && over()) scenes = scenes.slice(0, -1);
    if (over() && scenes.length) {
      const others = wordCount(spokenLines({ ...script, scenes: scenes.slice(0, -1) }).join(" "));
      const room = Math.max(4, Math.floor(budget * 2.5) - others);
      const last = scenes[scenes.length - 1]!;
      scenes = [...scenes.slice(0, -1), { ...last, said: shortenToWords(last.said, room).text }];
    }
    notes.push(`Shortened to fit ${script.seconds} seconds of speech (about ${wordsFor(script.seconds)} words).`);
  }
  const caption = shortenToLimit(script.caption, CAPTION_MAX);
  if (caption.shortened) notes.push(`Caption shortened on a sentence boundary to ${CAPTION_MAX.toLocaleString("en-US")} characters.`);
  return { script: { ...script, scenes, caption: caption.text, hashtags: cleanHashtags(script.hashtags, VIDEO_HASHTAGS_MAX) }, notes };
}

export const videoScriptRules: ContentRules<VideoScriptRequest, VideoScript> = {
  tool: "video-script",
  request: VideoScriptRequest,
  result: VideoScript,
  maxTokens: 1500,
  temperature: 0.8,
  prompt: (business, req, findings) => buildVideoPrompt(business, req, findings),
  fromAnswer(content, business, req) {
    const answer = parseModelJson(content, ModelVideo);
    if (!answer.ok) return answer;
    const a = answer.value;
    const scenes = (a.scenes ?? []).filter((s) => s.said).map((s) => ({ said: s.said!, onScreen: s.onScreen ?? "", shot: s.shot ?? "" }));
    if (!a.hook?.said || !scenes.length) return { ok: false, message: "The answer has no hook or scenes" };
    const fallback = templateVideoScript(business, req);
    return {
      ok: true,
      value: {
        title: a.title ?? fallback.title,
        seconds: req.seconds,
        hook: { said: a.hook.said, onScreen: a.hook.onScreen ?? "", shot: a.hook.shot ?? "" },
        scenes: scenes.slice(0, 12),
        cta: a.cta?.said ? { said: a.cta.said, onScreen: a.cta.onScreen ?? "" } : fallback.cta,
        caption: a.caption ?? fallback.caption,
        hashtags: a.hashtags?.length ? a.hashtags : fallback.hashtags,
      },
    };
  },
  template: (business, req) => templateVideoScript(business, req),
  enforce(script) {
    const fitted = fitScript(script);
    return { result: fitted.script, notes: fitted.notes };
  },
  title: (script) => `${script.seconds}s · ${script.title}`,
};
