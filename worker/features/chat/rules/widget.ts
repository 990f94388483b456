// The live chat widget's rules shared by the worker (CSP, meta tag) and the pages (loader): spec part 2 §9, except
// the admin pages, where a third-party script would see prospects and leads.
/** The meta tag carrying CHAT_WIDGET_SRC into the page. */
export const CHAT_WIDGET_META = "chat-widget";
const HIDDEN_ON = new Set(["/login", "/signup"]);

/** The widget shows on every page except /login, /signup and the admin pages (a third party never sees them). */
export function chatWidgetHidden(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, "") || "/";
  return HIDDEN_ON.has(path) || isAdminPage(path);
}

/** Admin pages: the worker leaves the widget out of them altogether (no meta tag, its origin not in their CSP). */
export function isAdminPage(pathname: string): boolean {
  return pathname === "/admin" || pathname.startsWith("/admin/");
}
