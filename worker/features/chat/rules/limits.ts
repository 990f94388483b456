// Every limit of the prospect chat in one place: message and conversation size, rate limits, the daily AI cap, voice.

/** Longest chat message a client may send (characters). Longer: 413. */
export const CHAT_MESSAGE_MAX_CHARS = 2_000;
/** Most user + assistant turns one request may carry. More: 422. */
export const CHAT_MAX_TURNS = 40;
/** The whole POST body; far above 40 turns of 2,000 characters as JSON. */
export const CHAT_BODY_MAX_BYTES = 256 * 1024;

/**
 * Public chat: what the system prompt (the business, its questions, the audit's block) is reserved as in the
 * request's first batch, before it is built; a prompt that turns out longer is reserved again before the call.
 */
export const CHAT_SYSTEM_PROMPT_RESERVE_CHARS = 8_000;

/** Public chat: messages per client address per minute. */
export const PUBLIC_CHAT_PER_IP = { max: 12, windowSeconds: 60 } as const;
/** Public chat: messages per report per hour, across every visitor. */
export const PUBLIC_CHAT_PER_REPORT = { max: 200, windowSeconds: 3_600 } as const;
/** Public chat: AI spend per report per UTC day, in dollars; after it the chat answers with the local fallback. */
export const REPORT_DAILY_AI_BUDGET_USD = 0.5;
/** The spend counter keeps millionths of a dollar (D1 integers). */
export const MICRO_USD = 1_000_000;

/** Text to speech: longest text per request (the client sends one sentence at a time). */
export const TTS_MAX_CHARS = 1_000;
/** Text to speech for the shared chat (no sign-in): requests per client address per minute. */
export const PUBLIC_TTS_PER_IP = { max: 40, windowSeconds: 60 } as const;

/** The public assistant asks for the visitor's contact details once, after this many answers. */
export const LEAD_ASK_AFTER_ANSWERS = 3;
/** Conversations per page of the admin's Conversations list (those with contact details first, then newest). */
export const CONVERSATIONS_LIST_LIMIT = 50;

/** The chat model's settings (spec part 2 §7, §9). */
export const CHAT_MAX_TOKENS = 1_000;
export const CHAT_TEMPERATURE = 0.7;
