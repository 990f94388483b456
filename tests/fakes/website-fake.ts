// A loopback small-business website for the audit (issue 18) with every trap an audit must not flag wrongly, or must
// survive: a DBA/legal name, a suite number, a formatted and a call-tracking phone, a host-changing (www→non-www style)
// redirect, a redirect loop, a page over 2 MB, a slow page, invalid JSON-LD, two H1s, noindex, a windows-1252 page,
// and a redirect to a private address (which the audit must refuse before requesting it).
//
// Pages (each under its own path; the site's "home" is /site/):
//   /site/            the business's home page: DBA name, suite number, tel: link + call-tracking number, LocalBusiness JSON-LD
//   /www/             301 → /site/ on 127.0.0.1 (ask for it as http://localhost:PORT/www/: the host changes, like www→non-www)
//   /loop/            302 → /loop-b/ → /loop/ …
//   /chain/N/         N redirects in a row, then /site/ (6 is one too many)
//   /big/             a 2.5 MB page (its head comes first, so its title is read)
//   /slow/?ms=        answers after `ms` (default 15 s)
//   /bad-jsonld/      JSON-LD that does not parse
//   /two-h1/          two H1s
//   /noindex/         robots noindex
//   /latin1/          windows-1252 bytes, declared in the Content-Type ("Café Plómeros")
//   /private/         302 → http://10.1.2.3/ (must be refused before any request)
//   /bare/            a page with almost nothing (no title, description, viewport, lang, phone)
// GET /__requests lists every request received (path and host), for tests in another process.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen, sendJson, waitUnlessClosed } from './http-helpers';
import { FAKE_SITE_BUSINESS, FAKE_SITE_DESCRIPTION, FAKE_SITE_TITLE } from './audit-data';

export interface WebsiteRequest {
  path: string;
  host: string;
}

export interface WebsiteFake {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** The business's home page. */
  home: string;
  requests: WebsiteRequest[];
  reset(): void;
  close(): Promise<void>;
}

function homePage(origin: string): string {
  return `<!doctype html>
<html lang="en-US">
<head>
<meta charset="utf-8">
<title>${FAKE_SITE_TITLE.replace('&', '&amp;')}</title>
<meta name="description" content="${FAKE_SITE_DESCRIPTION}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="canonical" href="${origin}/site/">
<meta property="og:title" content="Joe's Plumbing">
<meta property="og:description" content="Austin's friendly plumbers">
<meta property="og:image" content="${origin}/og.png">
<meta property="og:site_name" content="Joe's Plumbing">
<script async src="https://www.googletagmanager.com/gtag/js?id=G-FAKE123456"></script>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','G-FAKE123456');</script>
<script type="application/ld+json">
{"@context":"https://schema.org","@type":"Plumber","name":"Joe's Plumbing LLC","telephone":"512.555.0142",
 "address":{"@type":"PostalAddress","streetAddress":"1200 Main St., Suite 300","addressLocality":"Austin","addressRegion":"TX","postalCode":"78701"}}
</script>
<style>body{font-family:sans-serif}</style>
</head>
<body>
<header><a href="/site/">Joe's Plumbing</a> <a href="tel:+15125550142">Call (512) 555-0142</a></header>
<h1>Austin's friendly plumbers</h1>
<p>Leaks, clogs and water heaters fixed the same day. Text our booking line at ${FAKE_SITE_BUSINESS.trackingPhone}.</p>
<p>Visit us at 1200 Main St., Suite 300, Austin, TX 78701.</p>
<footer>&copy; 2026 ${FAKE_SITE_BUSINESS.legalName}</footer>
</body>
</html>`;
}

function simplePage(title: string, head: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="description" content="A simple test page of the fake website, long enough to count as a real meta description for the check.">
<meta name="viewport" content="width=device-width">${head}</head><body>${body}<p>Call <a href="tel:5125550142">512-555-0142</a></p></body></html>`;
}

/** Windows-1252 bytes of a string of Latin-1 characters and the en dash (0x96, outside Latin-1). */
function latin1(text: string): Buffer {
  return Buffer.from(Array.from(text, (ch) => (ch === '–' ? 0x96 : ch.charCodeAt(0) & 0xff)));
}

export async function startWebsiteFake(port = 0): Promise<WebsiteFake> {
  const requests: WebsiteRequest[] = [];
  let origin = '';

  /** Within the 2 MB the reader takes: a 300 kB title, 300 JSON-LD blocks, 5,000 tel: links, 500 Open Graph tags. */
  function hostilePage(): string {
    const jsonLd = Array.from({ length: 300 }, (_, i) => `<script type="application/ld+json">{"@type":"LocalBusiness","name":"Block ${i}","description":"${'x'.repeat(1500)}"}</script>`).join('');
    const og = Array.from({ length: 500 }, (_, i) => `<meta property="og:x${i}" content="${'y'.repeat(200)}">`).join('');
    const tel = Array.from({ length: 5000 }, (_, i) => `<a href="tel:+1512555${String(i).padStart(4, '0')}">call</a>`).join('');
    return `<!doctype html><html lang="en"><head><title>${'T'.repeat(300_000)}</title><meta property="og:title" content="${'o'.repeat(300_000)}">${og}${jsonLd}</head><body><h1>Hostile</h1>${tel}</body></html>`;
  }

  function html(res: ServerResponse, body: string | Buffer, type = 'text/html; charset=utf-8', status = 200, extra: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...extra });
    res.end(body);
  }

  function redirect(res: ServerResponse, status: number, location: string) {
    res.writeHead(status, { location, 'content-length': '0' });
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.local');
    const path = url.pathname;
    if (path === '/__requests') return sendJson(res, 200, { requests });
    requests.push({ path: `${path}${url.search}`, host: req.headers.host ?? '' });
    if (path === '/site/' || path === '/') return html(res, homePage(origin));
    if (path === '/www/') return redirect(res, 301, `${origin}/site/`);
    if (path === '/loop/') return redirect(res, 302, '/loop-b/');
    if (path === '/loop-b/') return redirect(res, 302, '/loop/');
    const chain = /^\/chain\/(\d+)\/$/.exec(path);
    if (chain) {
      const n = Number(chain[1]);
      return redirect(res, 302, n <= 1 ? '/site/' : `/chain/${n - 1}/`);
    }
    if (path === '/private/') return redirect(res, 302, 'http://10.1.2.3/admin');
    if (path === '/metadata/') return redirect(res, 302, 'http://169.254.169.254/latest/meta-data/');
    // A redirect to a NAME that resolves to the metadata address (the fake resolver answers it; issue 26).
    if (path === '/rebind/') return redirect(res, 302, 'http://metadata.rebind.example/latest/meta-data/');
    if (path === '/hostile/') return html(res, hostilePage());
    if (path === '/slow/') {
      const ms = Number(url.searchParams.get('ms') ?? 15_000);
      if (!(await waitUnlessClosed(res, ms))) return;
      return html(res, simplePage('A slow page that took its time to answer', '', '<h1>Slow</h1>'));
    }
    if (path === '/big/') {
      // Head first (as real pages), then 2.5 MB of body text, streamed.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write(`<!doctype html><html lang="en"><head><title>A very long page of plumbing articles</title></head><body><h1>Articles</h1>`);
      const para = `<p>${'Plumbing tips for Austin homeowners. '.repeat(50)}</p>\n`;
      let sent = 0;
      while (sent < 2.5 * 1024 * 1024) {
        if (res.destroyed) return;
        const ok = res.write(para);
        sent += para.length;
        if (!ok) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end('</body></html>');
      return;
    }
    if (path === '/bad-jsonld/') {
      return html(res, simplePage('A page whose structured data is broken', '<script type="application/ld+json">{"@type": "Plumber", "name": "Joe\'s Plumbing",</script>', '<h1>Broken schema</h1>'));
    }
    if (path === '/two-h1/') return html(res, simplePage('A page with two main headings on it', '', '<h1>First heading</h1><h1>Second heading</h1>'));
    if (path === '/noindex/') return html(res, simplePage('A page that asks not to be indexed', '<meta name="robots" content="noindex, nofollow">', '<h1>Hidden</h1>'));
    if (path === '/latin1/') {
      const page = simplePage('Café Plómeros – fontanería en Austin', '', '<h1>Café Plómeros</h1><p>Señor Núñez arregla tuberías.</p>').replace('<meta charset="utf-8">', '');
      return html(res, latin1(page), 'text/html; charset=windows-1252');
    }
    if (path === '/bare/') return html(res, '<html><body><p>Welcome.</p></body></html>');
    html(res, simplePage('Not found', '', '<h1>Not found</h1>'), 'text/html; charset=utf-8', 404);
  }

  const running = await listen(port, handle);
  origin = running.origin;
  return {
    url: running.origin,
    port: running.port,
    home: `${running.origin}/site/`,
    requests,
    reset() {
      requests.length = 0;
    },
    close: running.close,
  };
}
