// The third-party live chat widget (spec part 2 §9): loaded on every page except /login and /signup.
// The worker puts the configured script URL (CHAT_WIDGET_SRC) in a meta tag and allows its origin in the
// page's CSP; without configuration there is no tag and nothing loads.
import { CHAT_WIDGET_META, chatWidgetHidden } from "../../worker/features/chat/rules/widget";

/**
 * Loads the widget once on a page that shows it; on /login and /signup marks the document so the
 * stylesheet hides whatever the widget added (a third-party script cannot be unloaded).
 */
export function syncChatWidget(pathname: string): void {
  const src = document.querySelector<HTMLMetaElement>(`meta[name="${CHAT_WIDGET_META}"]`)?.content;
  if (!src) return;
  const hidden = chatWidgetHidden(pathname);
  document.documentElement.toggleAttribute("data-chat-widget-hidden", hidden);
  if (hidden || document.querySelector("script[data-chat-widget]")) return;
  const script = document.createElement("script");
  script.src = src;
  script.async = true;
  script.dataset.chatWidget = "";
  document.head.append(script);
}
