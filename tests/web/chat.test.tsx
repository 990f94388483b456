// The public chat page: load errors, chips, Enter to send, a streamed reply shown as it arrives, the fallback notices.
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import SharedChatPage from "../../web/features/chat/pages/shared-chat";
import { sharedChatPreviewText, CHAT_TEXT } from "../../worker/features/chat/rules/chat";
import { fakeAuth, json, renderAt, stubFetch } from "./helpers";

const REPORT = "7b0c2f4e-2d7a-4a57-9d55-2f0a3c1e9b11";

const bootstrap = {
  report_id: REPORT,
  greeting: "Hi! I'm the assistant for Ridge Roofing. How can we help you today?",
  questions: ["Is your project located in or near Austin, TX?", "What is your budget?"],
  ai_configured: true,
  tts_configured: false,
  voices: [{ id: "v1", name: "Rachel" }],
  default_voice_id: "v1",
  prospect: { name: "Ridge Roofing" },
  daily_cap_reached: false,
};

/** A streamed reply whose events arrive one by one when `next()` is called. */
function sseStream() {
  let push!: (text: string | null) => void;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const enc = new TextEncoder();
      push = (text) => (text === null ? controller.close() : controller.enqueue(enc.encode(text)));
    },
  });
  const send = (event: object) => push(`event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`);
  return {
    response: new Response(stream, { status: 200, headers: { "Content-Type": "text/event-stream" } }),
    send,
    end: () => push(null),
  };
}

function renderChat() {
  return renderAt(
    `/shared/chat/${REPORT}`,
    fakeAuth(),
    <Routes>
      <Route path="/shared/chat/:id" element={<SharedChatPage />} />
    </Routes>,
  );
}

afterEach(() => vi.useRealTimers());

describe("shared chat page", () => {
  it("shows the spec's error view for a removed chat", async () => {
    stubFetch(() => json({ error: { code: "not_found", message: "Chat not found" } }, 404));
    renderChat();
    expect(await screen.findByRole("heading", { name: "Chat not found" })).toBeTruthy();
    expect(screen.getByText(CHAT_TEXT.sharedLoadError)).toBeTruthy();
  });

  it("says on the page that it is a preview of the assistant the business's customers would talk to (issue 26)", async () => {
    stubFetch(() => json(bootstrap));
    renderChat();
    await screen.findByRole("heading", { name: "Ridge Roofing" });
    expect(screen.getByText(sharedChatPreviewText("Ridge Roofing"))).toBeTruthy();
  });

  it("fills the input from a chip, sends on Enter (not Shift+Enter), and shows the reply as it streams", async () => {
    const reply = sseStream();
    const fetch = stubFetch((url, init) => (init.method === "POST" ? reply.response : json(bootstrap)));
    renderChat();
    await screen.findByRole("heading", { name: "Ridge Roofing" });
    const input = screen.getByLabelText("Message") as HTMLTextAreaElement;
    const send = screen.getByRole("button", { name: "Send message" }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);

    fireEvent.click(screen.getByRole("button", { name: "What is your budget?" }));
    expect(input.value).toBe("What is your budget?");
    fireEvent.keyDown(input, { key: "Enter", shiftKey: true });
    expect(fetch.mock.calls.filter(([, i]) => i?.method === "POST")).toHaveLength(0);
    fireEvent.keyDown(input, { key: "Enter" });

    await waitFor(() => expect(fetch.mock.calls.filter(([, i]) => i?.method === "POST")).toHaveLength(1));
    const [url, init] = fetch.mock.calls.find(([, i]) => i?.method === "POST")!;
    expect(url).toBe(`/api/shared/chat/${REPORT}/messages`);
    const sent = JSON.parse(String(init!.body));
    expect(sent.messages.map((m: { role: string }) => m.role)).toEqual(["assistant", "user"]);
    expect(sent.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Headers(init!.headers).get("Authorization")).toBeNull();
    expect(screen.getByText("Ridge Roofing is typing…")).toBeTruthy();
    expect(input.disabled).toBe(true);

    await act(async () => {
      reply.send({ type: "start", mode: "ai" });
      reply.send({ type: "delta", text: "We work with " });
    });
    await screen.findByText("We work with");
    await act(async () => {
      reply.send({ type: "delta", text: "every budget." });
      reply.send({ type: "done", mode: "ai", content: "We work with every budget." });
      reply.end();
    });
    await screen.findByText("We work with every budget.");
    await waitFor(() => expect(input.disabled).toBe(false));
    expect(screen.queryByText(CHAT_TEXT.fallbackNotice)).toBeNull();
  });

  it("switches to the fallback when the AI fails: both notices, then they go after 4 s and 3 s", async () => {
    const reply = sseStream();
    stubFetch((_url, init) => (init.method === "POST" ? reply.response : json(bootstrap)));
    renderChat();
    await screen.findByRole("heading", { name: "Ridge Roofing" });
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "price?" } });
    fireEvent.click(screen.getByRole("button", { name: "Send message" }));
    await act(async () => {
      reply.send({ type: "start", mode: "ai" });
      reply.send({ type: "replace", text: "Local answer with 15% off.", reason: "ai_failed" });
      reply.send({ type: "done", mode: "fallback", reason: "ai_failed", content: "Local answer with 15% off." });
      reply.end();
    });
    await screen.findByText("Local answer with 15% off.");
    expect(screen.getByText(CHAT_TEXT.fallbackNotice)).toBeTruthy();
    expect(screen.getByText(CHAT_TEXT.sendFailed)).toBeTruthy();
    expect(screen.getByText("Local fallback")).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(CHAT_TEXT.sendFailed)).toBeNull(), { timeout: 3_500 });
    expect(screen.queryByText(CHAT_TEXT.fallbackNotice)).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(CHAT_TEXT.fallbackNotice)).toBeNull(), { timeout: 1_500 });
  });

  it("shows a refusal (429) and gives the question back", async () => {
    stubFetch((_url, init) =>
      init.method === "POST" ? json({ error: { code: "rate_limited", message: "Too many messages. Please wait a moment and try again." } }, 429) : json(bootstrap),
    );
    renderChat();
    await screen.findByRole("heading", { name: "Ridge Roofing" });
    const input = screen.getByLabelText("Message") as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "hello?" } });
    fireEvent.click(screen.getByRole("button", { name: "Send message" }));
    await screen.findByText("Too many messages. Please wait a moment and try again.");
    expect(input.value).toBe("hello?");
    expect(screen.queryAllByTestId("chat-user")).toHaveLength(0);
  });
});
