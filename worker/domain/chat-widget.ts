// The live chat widget's rules shared by the worker (CSP, meta tag) and the pages (loader): spec part 2 §9.
/** The meta tag carrying CHAT_WIDGET_SRC into the page. */
export const CHAT_WIDGET_META = "porchlight-chat-widget";
const HIDDEN_ON = new Set(["/login", "/signup"]);

/** The widget shows on every page except /login and /signup. */
export function chatWidgetHidden(pathname: string): boolean {
  return HIDDEN_ON.has(pathname.replace(/\/+$/, "") || "/");
}
