// The fake directory web for the Citation Tracker (issue 27): SerpAPI-shaped answers to `site:<domain> …` searches
// (the shape of tests/fakes/fixtures/serpapi-organic-results.json: position, title, link, displayed_link, snippet) and
// the listing pages they link to, served under /dir/<host>/<path> by the search fake (the worker's
// CITATIONS_WEB_BASE_URL points there in tests). Plain data and pure functions, so worker tests in workerd import it.
//
// The business is Joe's Plumbing (tests/fakes/audit-data.ts): 1200 Main St, Suite 300, Austin, TX 78701,
// (512) 555-0142. Its map-pack competitors are Austin Pro Plumbing (512) 555-0110 and Capital City Plumbers
// (512) 555-0111. Each source carries one trap:
import { FAKE_COMPETITORS } from './audit-data';

export type TrapPage = {
  path: string;
  title: string;
  snippet: string;
  /** Answered by the phone search, the name search, or both. */
  on: 'phone' | 'name' | 'both';
  /** The page: HTML, a status, or a redirect (Location as written). */
  html?: string;
  status?: number;
  location?: string;
};

export type Trap = { source: string; domain: string; trap: string; expect: 'consistent' | 'inconsistent' | 'duplicate' | 'not_found' | 'unknown'; pages: TrapPage[] };

export const CITATION_BUSINESS = {
  name: "Joe's Plumbing",
  address: '1200 Main St, Suite 300, Austin, TX 78701',
  phone: '(512) 555-0142',
  website: 'https://joesplumbing.example',
} as const;

export const CITATION_COMPETITORS = FAKE_COMPETITORS.slice(0, 2).map((c, i) => ({ name: c.title, phone: `(512) 555-01${10 + i}` }));

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A directory listing page with LocalBusiness JSON-LD, a tel: link and the address in its visible text. */
export function listingPage(l: { name: string; street: string; city: string; zip: string; phone: string; website?: string; extra?: string; jsonLd?: boolean }): string {
  const ld = {
    '@context': 'https://schema.org',
    '@type': 'Plumber',
    name: l.name,
    telephone: l.phone,
    address: { '@type': 'PostalAddress', streetAddress: l.street, addressLocality: l.city, addressRegion: 'TX', postalCode: l.zip },
    ...(l.website ? { url: l.website } : {}),
  };
  return `<!doctype html><html lang="en"><head><title>${esc(l.name)} - ${esc(l.city)}, TX</title>${l.jsonLd === false ? '' : `<script type="application/ld+json">${JSON.stringify(ld)}</script>`}</head>
<body><h1>${esc(l.name)}</h1><p>${esc(l.street)}, ${esc(l.city)}, TX ${l.zip}</p><p><a href="tel:${l.phone.replace(/\D/g, '')}">${esc(l.phone)}</a></p>${l.website ? `<p>Website: ${esc(l.website)}</p>` : ''}${l.extra ?? ''}</body></html>`;
}

const JOES = { name: "Joe's Plumbing", street: '1200 Main St, Suite 300', city: 'Austin', zip: '78701', phone: '(512) 555-0142', website: CITATION_BUSINESS.website };

const competitorPage = (i: number, domain: string): TrapPage => {
  const c = CITATION_COMPETITORS[i]!;
  return {
    path: `/biz/${c.name.toLowerCase().replace(/[^a-z]+/g, '-')}`,
    title: `${c.name} - Austin, TX - ${domain}`,
    snippet: `${c.name}, ${100 + i * 11} Congress Ave, Austin, TX 78701. Call ${c.phone}.`,
    on: 'phone',
    html: listingPage({ name: c.name, street: `${100 + i * 11} Congress Ave`, city: 'Austin', zip: '78701', phone: c.phone }),
  };
};

export const CITATION_TRAPS: readonly Trap[] = [
  {
    source: 'yelp', domain: 'yelp.com', trap: '"Ste 300" on the listing, "Suite 300" in the profile', expect: 'consistent',
    pages: [{ path: '/biz/joes-plumbing-austin', title: "Joe's Plumbing - Austin, TX - Yelp", snippet: "Joe's Plumbing, 1200 Main St Ste 300, Austin, TX 78701. (512) 555-0142.", on: 'both', html: listingPage({ ...JOES, street: '1200 Main St Ste 300' }) }],
  },
  {
    source: 'facebook', domain: 'facebook.com', trap: '"#300" and a dotted phone format', expect: 'consistent',
    pages: [{ path: '/joesplumbingatx', title: "Joe's Plumbing | Facebook", snippet: 'Plumber in Austin, Texas. 512.555.0142.', on: 'both', html: listingPage({ ...JOES, street: '1200 Main Street #300', phone: '512.555.0142' }) }],
  },
  {
    source: 'bbb', domain: 'bbb.org', trap: 'the same phone on another business\'s page', expect: 'consistent',
    pages: [
      { path: '/us/tx/austin/profile/roofing/smith-roofing', title: 'Smith Roofing Co | BBB Business Profile', snippet: 'Smith Roofing Co, 55 Oak Hill Dr, Austin, TX 78749. (512) 555-0142.', on: 'phone', html: listingPage({ name: 'Smith Roofing Co', street: '55 Oak Hill Dr', city: 'Austin', zip: '78749', phone: '(512) 555-0142' }) },
      { path: '/us/tx/austin/profile/plumber/joes-plumbing', title: "Joe's Plumbing LLC | BBB Business Profile", snippet: 'Plumber in Austin, TX.', on: 'name', html: listingPage({ ...JOES, name: "Joe's Plumbing LLC" }) },
    ],
  },
  {
    source: 'manta', domain: 'manta.com', trap: 'the same name in another city (another business)', expect: 'not_found',
    pages: [{ path: '/c/joes-plumbing-dallas', title: "Joe's Plumbing - Dallas, TX - Manta", snippet: "Joe's Plumbing, 45 Elm St, Dallas, TX 75201. (214) 555-0100.", on: 'name', html: listingPage({ name: "Joe's Plumbing", street: '45 Elm St', city: 'Dallas', zip: '75201', phone: '(214) 555-0100' }) }],
  },
  {
    source: 'yellowpages', domain: 'yellowpages.com', trap: 'an old address', expect: 'inconsistent',
    pages: [{ path: '/austin-tx/mip/joes-plumbing-1', title: "Joe's Plumbing - Austin, TX - Yellowpages", snippet: "Joe's Plumbing, 900 Old Mill Rd, Austin, TX 78745.", on: 'both', html: listingPage({ ...JOES, street: '900 Old Mill Rd', zip: '78745' }) }],
  },
  {
    source: 'superpages', domain: 'superpages.com', trap: 'an old phone next to the new one (two listings)', expect: 'duplicate',
    pages: [
      { path: '/austin-tx/bpp/joes-plumbing-1', title: "Joe's Plumbing - Austin, TX - Superpages", snippet: "Joe's Plumbing, Austin, TX.", on: 'both', html: listingPage(JOES) },
      { path: '/austin-tx/bpp/joes-plumbing-2', title: "Joe's Plumbing - Austin, TX - Superpages", snippet: "Joe's Plumbing, Austin, TX.", on: 'name', html: listingPage({ ...JOES, phone: '(512) 555-0100' }) },
    ],
  },
  {
    source: 'foursquare', domain: 'foursquare.com', trap: 'an old phone number', expect: 'inconsistent',
    pages: [{ path: '/v/joes-plumbing/4b1234', title: "Joe's Plumbing - Austin, TX", snippet: "Joe's Plumbing, 1200 Main St, Austin, TX 78701.", on: 'name', html: listingPage({ ...JOES, phone: '(512) 555-0100' }) }],
  },
  {
    source: 'angi', domain: 'angi.com', trap: 'a call-tracking number Angi assigns', expect: 'consistent',
    pages: [{ path: '/companylist/us/tx/austin/joes-plumbing-reviews-1.htm', title: "Joe's Plumbing | Austin, TX | Angi", snippet: "Joe's Plumbing in Austin, TX.", on: 'name', html: listingPage({ ...JOES, phone: '(512) 555-0777' }) }],
  },
  {
    source: 'homeadvisor', domain: 'homeadvisor.com', trap: 'a page that answers 403', expect: 'unknown',
    pages: [{ path: '/rated.JoesPlumbing.123.html', title: "Joe's Plumbing | HomeAdvisor", snippet: 'Plumbing contractor serving Austin.', on: 'both', status: 403 }],
  },
  {
    source: 'porch', domain: 'porch.com', trap: 'a page that redirects to a private address', expect: 'unknown',
    pages: [{ path: '/austin-tx/plumbers/joes-plumbing/pp', title: "Joe's Plumbing - Porch", snippet: 'Plumbers near Austin.', on: 'both', status: 302, location: 'http://10.1.2.3/internal' }],
  },
  {
    source: 'nextdoor', domain: 'nextdoor.com', trap: 'a listing only visible in the search snippet', expect: 'consistent',
    pages: [{ path: '/pages/joes-plumbing-austin-tx/', title: "Joe's Plumbing - Austin, TX - Nextdoor", snippet: "Joe's Plumbing, 1200 Main St Ste 300, Austin, TX 78701 · (512) 555-0142 · Plumber.", on: 'both', html: '<!doctype html><html><head><title>Nextdoor</title></head><body><div id="root"></div><script>window.__app=1</script></body></html>' }],
  },
  {
    source: 'houzz', domain: 'houzz.com', trap: 'two competitors listed, the business not (a gap)', expect: 'not_found',
    pages: [competitorPage(0, 'Houzz'), competitorPage(1, 'Houzz')],
  },
  {
    source: 'thumbtack', domain: 'thumbtack.com', trap: 'two competitors listed, the business not (a gap)', expect: 'not_found',
    pages: [competitorPage(0, 'Thumbtack'), competitorPage(1, 'Thumbtack')],
  },
];

/** The phones a `site:` query asks for, as 10 digits each. */
function phonesInQuery(q: string): string[] {
  return [...q.matchAll(/\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}/g)].map((m) => m[0].replace(/\D/g, ''));
}

/**
 * The answer to `site:<domain> …`: the trap pages on that domain the query finds (the phone search finds the pages
 * showing one of its phones, the name search those of the name), in SerpAPI's organic_results shape. `origin` is not
 * used in links: they are the directories' own URLs, as Google answers them.
 */
export function fakeCitationSearch(q: string): { organic_results: Array<Record<string, unknown>> } | null {
  const site = /site:(\S+)/.exec(q)?.[1]?.toLowerCase();
  if (!site) return null;
  const trap = CITATION_TRAPS.find((t) => t.domain === site);
  const phones = phonesInQuery(q);
  const isPhone = phones.length > 0;
  const pages = (trap?.pages ?? []).filter((p) => {
    if (p.on === 'both') return true;
    if (isPhone && p.on === 'phone') return phones.some((d) => p.snippet.replace(/\D/g, '').includes(d) || (p.html ?? '').replace(/\D/g, '').includes(d));
    return !isPhone && p.on === 'name';
  });
  return {
    organic_results: pages.map((p, i) => {
      const link = `https://www.${site}${p.path}`;
      return { position: i + 1, title: p.title, link, displayed_link: `https://www.${site} › ${p.path.split('/').filter(Boolean).join(' › ')}`, snippet: p.snippet };
    }),
  };
}

/** The page behind a listing URL (`/dir/<host>/<path>`), or null for a page the fake does not have (404). */
export function fakeCitationPage(hostAndPath: string): TrapPage | null {
  const [host, ...rest] = hostAndPath.split('/');
  const path = `/${rest.join('/')}`;
  const domain = (host ?? '').replace(/^www\./, '');
  return CITATION_TRAPS.find((t) => t.domain === domain)?.pages.find((p) => p.path === path) ?? null;
}
