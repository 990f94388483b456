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

const SCRIPT = `(() => {
  if (document.getElementById('${FAKE_WIDGET_ID}')) return;
  const bubble = document.createElement('div');
  bubble.id = '${FAKE_WIDGET_ID}';
  bubble.textContent = 'Chat with us';
  bubble.setAttribute('style', 'position:fixed;right:16px;bottom:16px;padding:12px 16px;border-radius:999px;background:#1f5fa6;color:#fff;font:600 14px sans-serif;z-index:50');
  document.body.appendChild(bubble);
})();`;

export async function startWidgetFake(port = 0): Promise<WidgetFake> {
  let loads = 0;
  const running = await listen(port, (req, res) => {
    if (req.url?.startsWith('/widget.js')) {
      loads += 1;
      res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' });
      res.end(SCRIPT);
      return;
    }
    res.writeHead(404).end();
  });
  return { src: `${running.origin}/widget.js`, loads: () => loads, close: running.close };
}
