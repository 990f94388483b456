// /shared/chat/:id: the public chat for one prospect (spec part 2 §2): only the prospect's name, voice, chips, reset.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useParams } from "react-router";
import { CHAT_TEXT, sharedChatPreviewText } from "../../../../worker/features/chat/rules/chat";
import { Button } from "../../../design/button";
import { ChatError } from "../chat-error";
import { ChatPanel } from "../chat-panel";
import { ChatTool } from "../chat-tool";
import { VoiceControls } from "../voice-controls";
import { LightbulbIcon, RefreshIcon } from "../../../design/icons";
import { LoadingScreen } from "../../../app/route-guards";
import { ApiError } from "../../../lib/api";
import { useChat } from "../use-chat";
import { useVoice } from "../use-voice";
import { PageTitle } from "../../brand";
import { sharedChatQuery, type SharedChatData } from "../queries";
import "../chat.css";

export default function SharedChatPage() {
  const { id = "" } = useParams();
  const query = useQuery(sharedChatQuery(id));
  return (
    <div className="public-frame chat-public">
      <PageTitle>{query.data ? `Chat with ${query.data.prospect.name}` : "Chat"}</PageTitle>
      {query.isPending ? <LoadingScreen /> : null}
      {query.isError ? (
        <ChatError
          title={query.error instanceof ApiError && query.error.status > 0 && query.error.status < 500 ? query.error.message : CHAT_TEXT.loadFailed}
          action={
            query.error instanceof ApiError && (query.error.status === 0 || query.error.status >= 500) ? (
              <Button onClick={() => void query.refetch()}>Try again</Button>
            ) : null
          }
        >
          {CHAT_TEXT.sharedLoadError}
        </ChatError>
      ) : null}
      {query.isSuccess ? <SharedChat key={id} id={id} data={query.data} /> : null}
    </div>
  );
}

function SharedChat({ id, data }: { id: string; data: SharedChatData }) {
  const voice = useVoice({ reportId: id, signedIn: false });
  const chat = useChat({
    endpoint: `/api/shared/chat/${encodeURIComponent(id)}/messages`,
    greeting: data.greeting,
    initialFallback: !data.ai_configured ? "not_configured" : data.daily_cap_reached ? "daily_cap" : null,
    visitorSessions: true,
    anonymous: true,
    onReplace: voice.stop,
    onDone: voice.speak,
  });
  const [showChips, setShowChips] = useState(true);
  return (
    <div className="chat-page">
      <header className="chat-head">
        <div className="chat-title">
          <h1>{data.prospect.name}</h1>
          <p className="chat-preview-note">{sharedChatPreviewText(data.prospect.name)}</p>
        </div>
      </header>
      <div className="chat-toolbar" role="toolbar" aria-label="Chat actions">
        <VoiceControls voice={voice} />
        <ChatTool icon={LightbulbIcon} label={showChips ? "Hide questions" : "Show questions"} pressed={showChips} onClick={() => setShowChips(!showChips)} />
        <ChatTool
          icon={RefreshIcon}
          label="Reset"
          onClick={() => {
            voice.stop();
            chat.reset();
          }}
        />
      </div>
      <div className="chat-layout">
        <ChatPanel chat={chat} voice={voice} assistantName={data.prospect.name} questions={data.questions} showChips={showChips} />
      </div>
    </div>
  );
}
