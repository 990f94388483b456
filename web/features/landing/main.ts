// Entry of landing.html: the pre-rendered page needs only its menu and the chat widget. No React, no app code.
import "../../design/styles.css";
import "../../design/plans.css";
import "./landing.css";
import { syncChatWidget } from "../../lib/chat-widget";
import { enhanceLanding } from "./enhance";

enhanceLanding(document);
syncChatWidget(location.pathname);
