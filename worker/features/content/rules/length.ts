// Length rules of the content suite (issue 20), enforced after generation and never trusted to the model: each
// network's character limit, hashtag caps, shortening on a sentence boundary, and a script's spoken length.

/** The networks a post can be written for, in the order the product shows them. */
export const NETWORKS = ["facebook", "instagram", "linkedin", "x", "google-business", "nextdoor"] as const;
export type Network = (typeof NETWORKS)[number];

export const NETWORK_LABELS: Record<Network, string> = {
  facebook: "Facebook",
  instagram: "Instagram",
  linkedin: "LinkedIn",
  x: "X",
  "google-business": "Google Business",
  nextdoor: "Nextdoor",
};

/**
 * Characters a post may have on each network, hashtags included. X, Instagram, LinkedIn and Google Business are
 * the figures; Facebook's is its documented post limit; Nextdoor publishes none, so its posts are held to
 * Google Business's length, which neighbours read comfortably.
 */
export const NETWORK_CHAR_LIMITS: Record<Network, number> = {
  facebook: 63_206,
  instagram: 2_200,
  linkedin: 3_000,
  x: 280,
  "google-business": 1_500,
  nextdoor: 1_500,
};

/** Hashtags a network allows (Instagram: 30); the others get at most a handful, which is what reads well. */
export const NETWORK_HASHTAG_LIMITS: Record<Network, number> = {
  facebook: 5,
  instagram: 30,
  linkedin: 5,
  x: 3,
  "google-business": 0,
  nextdoor: 0,
};

/** Counts characters as the networks do: by code point, so an emoji is one, not two. */
export function charCount(text: string): number {
  return [...text].length;
}

function sliceChars(text: string, max: number): string {
  return [...text].slice(0, max).join("");
}

export type Shortened = { text: string; shortened: boolean };

/**
 * Cuts text to at most `max` characters on a sentence boundary (., !, ? or a line break, followed by space or the
 * end). When no sentence ends early enough, cuts on a word boundary and ends with "…". Text within the limit is
 * returned as it is.
 */
export function shortenToLimit(text: string, max: number): Shortened {
  const trimmed = text.trim();
  if (charCount(trimmed) <= max) return { text: trimmed, shortened: false };
  if (max <= 0) return { text: "", shortened: true };
  const head = sliceChars(trimmed, max);
  // The last sentence end inside the limit: punctuation (and any closing quote or bracket) then a space or the end.
  let cut = -1;
  const ends = /[.!?…]["')\]]*(?=\s|$)|\n/g;
  for (const match of head.matchAll(ends)) {
    const end = match.index + match[0].length;
    if (end <= head.length) cut = end;
  }
  // A sentence boundary that keeps less than a third of the room is a poor cut: prefer a word boundary then.
  if (cut >= Math.min(max / 3, head.length)) return { text: head.slice(0, cut).trim(), shortened: true };
  const room = sliceChars(trimmed, max - 1);
  const space = room.lastIndexOf(" ");
  const words = (space > 0 ? room.slice(0, space) : room).replace(/[\s,;:–-]+$/, "");
  return { text: `${words}…`, shortened: true };
}

/** "#tag" with letters, digits and underscores only; "" when nothing is left. */
export function normaliseHashtag(tag: string): string {
  const word = tag.trim().replace(/^#+/, "").replace(/[^\p{L}\p{N}_]+/gu, "");
  return word ? `#${word}` : "";
}

/** Unique, normalised hashtags, at most `max`. */
export function cleanHashtags(tags: readonly string[], max: number): string[] {
  return [...new Set(tags.map(normaliseHashtag).filter(Boolean))].slice(0, Math.max(0, max));
}

/** The text as it is posted: the body, then the hashtags on their own line. */
export function postText(content: string, hashtags: readonly string[]): string {
  return hashtags.length ? `${content.trim()}\n\n${hashtags.join(" ")}` : content.trim();
}

export type FittedPost = { content: string; hashtags: string[]; notes: string[] };

const HASHTAG = /#[\p{L}\p{N}_]+/gu;
const TAG_RUN = /(?:^|\s)((?:#[\p{L}\p{N}_]+[ \t]*)+)$/u;

/** The hashtags in a text as it is posted, counted as the network counts them: every one, wherever it stands. */
export function hashtagsIn(text: string): string[] {
  return text.match(HASHTAG) ?? [];
}

/**
 * Moves the runs of hashtags that end a line ("… for spring. #hvac #austin") out of the text into the list, and
 * returns the prose with the hashtags that stand inside sentences.
 */
function liftTrailingHashtags(content: string): { text: string; lifted: string[] } {
  const lifted: string[] = [];
  const lines = content.split("\n").map((line) => {
    const run = TAG_RUN.exec(line);
    if (!run) return line;
    lifted.push(...hashtagsIn(run[1]!));
    return line.slice(0, run.index).trimEnd();
  });
  return { text: lines.join("\n").replace(/\n{3,}/g, "\n\n").trim(), lifted };
}

/**
 * Fits one network's post within that network's limits, counting every hashtag of the text as posted (the body
 * and the list; what Copy copies): runs of hashtags that end a line join the list, hashtags inside sentences
 * beyond the network's cap lose their "#" (the word stays), the list keeps what room is left; hashtags that leave
 * no room for the text are dropped from the end, then the text is shortened on a sentence boundary so that text
 * and hashtags together stay within the character limit. Each change is said in `notes`.
 */
export function fitToNetwork(network: Network, content: string, hashtags: readonly string[]): FittedPost {
  const notes: string[] = [];
  const limit = NETWORK_CHAR_LIMITS[network];
  const label = NETWORK_LABELS[network];
  const cap = NETWORK_HASHTAG_LIMITS[network];
  const { text: prose, lifted } = liftTrailingHashtags(content);
  // Hashtags inside sentences count first; past the cap they become plain words.
  let inline = 0;
  const body = prose.replace(HASHTAG, (tag) => (++inline <= cap ? tag : tag.slice(1)));
  const kept = Math.min(inline, cap);
  const unique = cleanHashtags([...lifted, ...hashtags], Number.MAX_SAFE_INTEGER).filter(
    (tag) => !hashtagsIn(body).some((inBody) => inBody.toLowerCase() === tag.toLowerCase()),
  );
  let tags = unique.slice(0, cap - kept);
  if (tags.length < unique.length || kept < inline) {
    notes.push(cap === 0 ? `Hashtags removed: ${label} posts do not use them.` : `Hashtags cut to ${cap} for ${label}.`);
  }
  const tagRoom = () => (tags.length ? charCount(tags.join(" ")) + 2 : 0);
  // Keep at least half the room for the text itself.
  const tagsBefore = tags.length;
  while (tags.length && tagRoom() > limit / 2) tags = tags.slice(0, -1);
  if (tags.length < tagsBefore && !notes.length) notes.push(`Hashtags cut to ${tags.length + kept} to leave room for the text on ${label}.`);
  const fitted = shortenToLimit(body, limit - tagRoom());
  if (fitted.shortened) notes.push(`Shortened on a sentence boundary to fit ${label}'s ${limit.toLocaleString("en-US")}-character limit.`);
  return { content: fitted.text, hashtags: tags, notes };
}

/** A comfortable speaking pace for short-form video: 150 words a minute. */
export const WORDS_PER_SECOND = 2.5;

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Seconds it takes to say the text at WORDS_PER_SECOND, rounded up to a whole second. */
export function spokenSeconds(text: string): number {
  const words = wordCount(text);
  return words ? Math.ceil(words / WORDS_PER_SECOND) : 0;
}

/** The most words that fit a video of `seconds` at WORDS_PER_SECOND. */
export function wordsFor(seconds: number): number {
  return Math.floor(seconds * WORDS_PER_SECOND);
}

/** Cuts text to at most `maxWords` words on a sentence boundary when one is close enough, else on a word. */
export function shortenToWords(text: string, maxWords: number): Shortened {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length <= maxWords) return { text: text.trim(), shortened: false };
  // The first maxWords words, as characters: the sentence rule above then picks the cut.
  return shortenToLimit(words.join(" "), charCount(words.slice(0, Math.max(0, maxWords)).join(" ")));
}
