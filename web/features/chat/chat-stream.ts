// Reads the chat reply's server-sent events (POST .../messages with Accept: text/event-stream) as typed events.
import type { ChatStreamEvent } from "../../../worker/features/chat/rules/chat";

/** Yields each `data:` payload of the stream as a ChatStreamEvent, as soon as its block is complete. */
export async function* readChatStream(res: Response): AsyncGenerator<ChatStreamEvent> {
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n");
      if (!data) continue;
      const event = JSON.parse(data) as ChatStreamEvent | { message?: string };
      if (!("type" in event)) throw new Error(event.message ?? "The reply stream failed.");
      yield event;
    }
  }
}
