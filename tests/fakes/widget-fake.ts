// A loopback third-party chat widget script (CHAT_WIDGET_SRC) for the journeys: it adds a visible chat bubble.
import { listen } from './http-helpers';

export interface WidgetFake {
  /** The script URL, for CHAT_WIDGET_SRC. */
  src: string;
  /** How many times the script was fetched. */
  loads: () => number;
  close(): Promise<void>;
}

/** The id of the element the fake widget adds to the page. */
export const FAKE_WIDGET_ID = 'fake-chat-widget';

// Like a CSP-friendly real widget, it styles itself with a stylesheet from its own origin (no inline styles).
const SCRIPT = (origin: string) => `(() => {
  if (document.getElementById('${FAKE_WIDGET_ID}')) return;
  const css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = '${origin}/widget.css';
  document.head.appendChild(css);
  const bubble = document.createElement('div');
  bubble.id = '${FAKE_WIDGET_ID}';
  bubble.textContent = 'Chat with us';
  document.body.appendChild(bubble);
})();`;
const CSS = `#${FAKE_WIDGET_ID}{position:fixed;right:16px;bottom:16px;padding:12px 16px;border-radius:999px;background:#1f5fa6;color:#fff;font:600 14px sans-serif;z-index:50}`;

export async function startWidgetFake(port = 0): Promise<WidgetFake> {
  let loads = 0;
  let origin = '';
  const running = await listen(port, (req, res) => {
    if (req.url?.startsWith('/widget.js')) {
      loads += 1;
      res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' });
      res.end(SCRIPT(origin));
      return;
    }
    if (req.url?.startsWith('/widget.css')) {
      res.writeHead(200, { 'content-type': 'text/css', 'access-control-allow-origin': '*' });
      res.end(CSS);
      return;
    }
    res.writeHead(404).end();
  });
  origin = running.origin;
  return { src: `${running.origin}/widget.js`, loads: () => loads, close: running.close };
}
