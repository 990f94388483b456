// /admin/prospect-chat/:id: the admin's AI sales assistant for one prospect (spec part 2 §2, dark theme).
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { CHAT_TEXT } from "../../../../worker/features/chat/rules/chat";
import { companyBesideName } from "../../../../worker/features/reports/rules/format";
import { Badge } from "../../../design/badge";
import { Button, buttonClass } from "../../../design/button";
import { ChatError } from "../chat-error";
import { ChatPanel } from "../chat-panel";
import { ChatTool } from "../chat-tool";
import { ConversationList } from "../conversation-list";
import { ProspectSwitcher } from "../prospect-switcher";
import { VoiceControls } from "../voice-controls";
import { ArrowLeftIcon, CodeIcon, InboxIcon, LinkIcon, RefreshIcon, SwitchIcon } from "../../../design/icons";
import { LINK_COPIED_MS, copyText, useFlag } from "../../reports";
import { LoadingScreen } from "../../../app/route-guards";
import { ApiError } from "../../../lib/api";
import { useChat } from "../use-chat";
import { useVoice } from "../use-voice";
import { adminChatQuery, type AdminChatData } from "../queries";
import "../chat.css";
import { PageTitle } from "../../brand";

const REPORTS_PATH = "/admin/report-generator";

export default function AdminProspectChatPage() {
  const { id = "" } = useParams();
  const query = useQuery(adminChatQuery(id));
  if (query.isPending) {
    return (
      <div className="chat-page is-dark">
        <PageTitle>AI Chat</PageTitle>
        <LoadingScreen />
      </div>
    );
  }
  if (query.isError) {
    const message = query.error instanceof ApiError && query.error.status > 0 && query.error.status < 500 ? query.error.message : CHAT_TEXT.loadFailed;
    return (
      <div className="chat-page is-dark">
        <PageTitle>AI Chat</PageTitle>
        <ChatError
          title={message}
          note="Open a prospect's chat from its card on the Prospects screen."
          action={
            <div className="banner-actions">
              <Link to={REPORTS_PATH} className={buttonClass("primary")}>
                <ArrowLeftIcon size="sm" />
                Back to Reports
              </Link>
              {message === CHAT_TEXT.loadFailed ? (
                <Button onClick={() => void query.refetch()}>Try again</Button>
              ) : null}
            </div>
          }
        />
      </div>
    );
  }
  // A new chat state per prospect: switching never carries one conversation into another.
  return <AdminChat key={id} id={id} data={query.data} />;
}

type Panel = "none" | "prompt" | "switch" | "conversations";

function AdminChat({ id, data }: { id: string; data: AdminChatData }) {
  const navigate = useNavigate();
  const voice = useVoice({ signedIn: true });
  const chat = useChat({
    endpoint: `/api/chat/${encodeURIComponent(id)}/messages`,
    greeting: data.greeting,
    initialFallback: data.ai_configured ? null : "not_configured",
    visitorSessions: false,
    onReplace: voice.stop,
    onDone: voice.speak,
  });
  const [panel, setPanel] = useState<Panel>("none");
  const [copied, flashCopied] = useFlag(LINK_COPIED_MS);
  const toggle = (p: Panel) => setPanel((current) => (current === p ? "none" : p));
  const { prospect } = data;
  const facts = [companyBesideName(prospect.name, prospect.company_name), prospect.keyword, prospect.area].filter(Boolean);

  function reset() {
    voice.stop();
    chat.reset();
  }

  async function share() {
    if (await copyText(`${location.origin}/shared/chat/${id}`)) flashCopied();
  }

  return (
    <div className="chat-page is-dark">
      <PageTitle>{`AI Chat: ${prospect.name}`}</PageTitle>
      <header className="chat-head">
        <Link to={REPORTS_PATH} className="chat-back" aria-label="Back to Reports">
          <ArrowLeftIcon />
        </Link>
        <div className="chat-title">
          <h1>{prospect.name}</h1>
          <p className="chat-facts">
            {facts.map((f) => (
              <span key={f}>{f}</span>
            ))}
            {prospect.tag ? <Badge tone="new">{prospect.tag}</Badge> : null}
          </p>
        </div>
      </header>

      <div className="chat-toolbar" role="toolbar" aria-label="Chat actions">
        <VoiceControls voice={voice} />
        <ChatTool icon={CodeIcon} label={panel === "prompt" ? "Hide system prompt" : "Show system prompt"} pressed={panel === "prompt"} onClick={() => toggle("prompt")} />
        <ChatTool icon={SwitchIcon} label="Switch prospect" pressed={panel === "switch"} onClick={() => toggle("switch")} />
        <ChatTool icon={InboxIcon} label="Conversations" pressed={panel === "conversations"} onClick={() => toggle("conversations")} />
        <ChatTool icon={LinkIcon} label="Share" onClick={share} />
        <ChatTool icon={RefreshIcon} label="Reset" onClick={reset} />
        {copied ? (
          <span className="chat-copied" role="status">
            {CHAT_TEXT.linkCopied}
          </span>
        ) : null}
      </div>

      <div className={panel === "switch" || panel === "conversations" ? "chat-layout has-side" : "chat-layout"}>
        <ChatPanel chat={chat} voice={voice} assistantName={prospect.name} questions={data.questions} showChips>
          {panel === "prompt" ? (
            <details className="chat-prompt" open>
              <summary>System prompt</summary>
              <pre>{data.system_prompt}</pre>
            </details>
          ) : null}
        </ChatPanel>
        {panel === "switch" ? (
          <ProspectSwitcher
            currentId={id}
            onPick={(reportId) => {
              voice.stop();
              setPanel("none");
              navigate(`/admin/prospect-chat/${reportId}`);
            }}
          />
        ) : null}
        {panel === "conversations" ? <ConversationList reportId={id} /> : null}
      </div>
    </div>
  );
}
