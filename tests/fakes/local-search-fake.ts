// The audit's SerpAPI answers (served by the search fake, tests/fakes/search-fake.ts), in the shapes SerpAPI documents:
// `google_maps` (local_results with position, title, place_id, data_id, gps_coordinates, rating, reviews, type/types,
// address, phone, website, operating_hours; `place_results` for a place_id, in its own form: `type` a list, hours an
// array) and `google` with num=100 (organic_results). The documented examples are in tests/fakes/fixtures/serpapi.
//
// The audit searches a business by "<Name> <City, ST>" and a keyword by "<keyword> <City, ST>". The fake tells them
// apart as people write them: a business name has capitals, a keyword is lower case.
//   - a name search answers the business (first) and two look-alikes with other phones; a name containing "Nomatch"
//     answers three unrelated businesses (no confident match: the admin picks); "Joe's Plumbing" is the fake website's
//     business (tests/fakes/website-fake.ts), with its real phone, suite address and website.
//   - a keyword search answers the map pack: three competitors, then Joe's Plumbing (4th), then others, 20 in all.
//   - `google` with num=100 answers 100 organic results; the fake website is 7th when its origin is known.
//
// The Local Search Grid and the rank tracker (issue 19) search a keyword seen from a point (`ll=@lat,lng,{zoom}z`): the
// answer depends on the point, deterministically (`gridRank`): Joe's Plumbing is at 1–20 or missing, among competitors
// that change from point to point. Chosen points fail (`gridPointFails`), picked by a word in the keyword:
//   - 'flaky': about a quarter of the points answer 500 to their first search and 200 afterwards (a retry succeeds);
//   - 'deadpoint': the same points answer 429 to every search (they end failed, through the dead-letter queue).
import { FAKE_COMPETITORS, FAKE_SITE_BUSINESS, gridRank, hash } from './audit-data';

export { gridPointFails, gridRank } from './audit-data';

export interface LocalSearchConfig {
  /** The fake website's origin (Joe's Plumbing's website), or null. */
  siteUrl: string | null;
  /** Added before each audit answer (the benchmark's 2 s). */
  latencyMs: number;
  /** Every Nth audit call answers 429 (20 → 5%); 0 never. */
  every429: number;
  /** Added before each AI Overview / AI Mode answer (AI Visibility's benchmark: 2 s). */
  aiLatencyMs?: number;
}

/** The map pack seen from `ll`: 20 listings, Joe's Plumbing at gridRank(ll) when that is ≤ 20, competitors rotating. */
export function fakeGridAnswer(q: string, ll: string, config: LocalSearchConfig) {
  const own = gridRank(ll);
  const rivals = [...FAKE_COMPETITORS.map((c) => c.title), 'Hill Country Drain Pros', 'Bluebonnet Pipe Works', 'Riverside Rooter & Sons'];
  const shift = hash(`shift:${ll}`) % rivals.length;
  const results = [];
  let r = 0;
  for (let position = 1; position <= 20; position++) {
    if (position === own) {
      results.push(joes(position, config));
      continue;
    }
    const title = r < rivals.length ? rivals[(r + shift) % rivals.length]! : `Austin Plumbing Service ${r}`;
    r++;
    results.push(place(position, { title, address: `${100 + r * 11} Congress Ave, Austin, TX`, phone: `(512) 555-03${10 + r}`, rating: 4 + (r % 10) / 10, reviews: 10 + r * 7 }));
  }
  return { search_metadata: { status: 'Success' }, search_parameters: { engine: 'google_maps', type: 'search', q, ll }, local_results: results };
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'x';


const HOURS = { monday: '8 AM–6 PM', tuesday: '8 AM–6 PM', wednesday: '8 AM–6 PM', thursday: '8 AM–6 PM', friday: '8 AM–6 PM', saturday: '9 AM–2 PM', sunday: 'Closed' };

function place(position: number, p: { title: string; phone?: string | null; address: string; website?: string | null; rating: number; reviews: number; placeId?: string; hours?: boolean }) {
  const h = hash(p.title);
  return {
    position,
    title: p.title,
    place_id: p.placeId ?? `ChIJfake-${slug(p.title)}`,
    data_id: `0x8644b5${(h % 0xffff).toString(16)}:0x${h.toString(16)}`,
    data_cid: String(h),
    gps_coordinates: { latitude: 30.2672 + (h % 100) / 10_000, longitude: -97.7431 - (h % 77) / 10_000 },
    rating: p.rating,
    reviews: p.reviews,
    type: 'Plumber',
    types: ['Plumber', 'Water heater installation service'],
    address: p.address,
    ...(p.phone ? { phone: p.phone } : {}),
    ...(p.website ? { website: p.website } : {}),
    ...(p.hours === false ? {} : { operating_hours: HOURS, hours: 'Open ⋅ Closes 6 PM' }),
    thumbnail: `https://lh5.googleusercontent.com/p/fake-${slug(p.title)}=w80-h106-k-no`,
  };
}

/**
 * A listing as SerpAPI's single-place answer gives it (fixtures/serpapi/google-maps-place.json): `type` is the list of
 * categories and there is no `types`; the hours are an array of one-day objects; no list position.
 */
function asPlaceResult(listing: ReturnType<typeof place>) {
  const { types, operating_hours, hours, position: _position, ...rest } = listing as ReturnType<typeof place> & { operating_hours?: Record<string, string>; hours?: string };
  void _position;
  return {
    ...rest,
    type: types,
    type_ids: types.map((t) => t.toLowerCase().replace(/\W+/g, '_')),
    ...(operating_hours ? { open_state: hours, hours: Object.entries(operating_hours).map(([day, time]) => ({ [day]: time })) } : {}),
  };
}

function joes(position: number, config: LocalSearchConfig) {
  return place(position, {
    title: FAKE_SITE_BUSINESS.name,
    phone: FAKE_SITE_BUSINESS.listingPhone,
    address: FAKE_SITE_BUSINESS.address,
    website: config.siteUrl ? `${config.siteUrl}/site/` : null,
    rating: 4.3,
    reviews: 38,
    placeId: FAKE_SITE_BUSINESS.placeId,
  });
}

/** "Joe's Plumbing Austin, TX" → name and place; a query without ", ST" is all name. */
export function splitQuery(q: string): { name: string; location: string } {
  const m = /^(.*)\s+([A-Z][\w.'-]*,\s*[A-Z]{2})$/.exec(q.trim());
  return m ? { name: m[1]!.trim(), location: m[2]!.trim() } : { name: q.trim(), location: 'Austin, TX' };
}

function mapPack(location: string, config: LocalSearchConfig) {
  const results = FAKE_COMPETITORS.map((c, i) => place(i + 1, { ...c, address: `${100 + i * 11} Congress Ave, ${location}`, phone: `(512) 555-01${10 + i}` }));
  results.push(joes(4, config));
  for (let i = 5; i <= 20; i++) {
    results.push(place(i, { title: `${location.split(',')[0]} Plumbing Service ${i}`, address: `${i * 100} Lamar Blvd, ${location}`, phone: `(512) 555-02${10 + i}`, rating: 4 + (i % 10) / 10, reviews: 5 + i * 3 }));
  }
  return results;
}

export function fakeMapsAnswer(params: URLSearchParams, config: LocalSearchConfig) {
  const metadata = { search_metadata: { status: 'Success', google_maps_url: 'https://www.google.com/maps/search/' } };
  const placeId = params.get('place_id');
  if (placeId) {
    const all = [...mapPack('Austin, TX', config), ...nameSearch('Nomatch', 'Austin, TX', config)];
    const found = all.find((p) => p.place_id === placeId) ?? place(1, { title: `Business ${placeId}`, address: `1 Main St, Austin, TX`, rating: 4.1, reviews: 12, placeId });
    return { ...metadata, search_parameters: { engine: 'google_maps', type: 'place', place_id: placeId }, place_results: asPlaceResult(found) };
  }
  const q = params.get('q') ?? '';
  const { name, location } = splitQuery(q);
  const isKeyword = name === name.toLowerCase();
  return {
    ...metadata,
    search_parameters: { engine: 'google_maps', type: 'search', q },
    local_results: isKeyword ? mapPack(location, config) : nameSearch(name, location, config),
  };
}

function nameSearch(name: string, location: string, config: LocalSearchConfig) {
  if (/nomatch/i.test(name)) {
    return [
      place(1, { title: 'Hill Country Drain Pros', address: `12 Oak St, ${location}`, phone: '(512) 555-0301', rating: 4.5, reviews: 61 }),
      place(2, { title: 'Bluebonnet Pipe Works', address: `900 Elm Ave, ${location}`, phone: '(512) 555-0302', rating: 4.2, reviews: 23 }),
      place(3, { title: 'Riverside Rooter & Sons', address: `77 River Rd, ${location}`, phone: '(512) 555-0303', rating: 3.9, reviews: 11 }),
    ];
  }
  const own =
    name.toLowerCase().includes(FAKE_SITE_BUSINESS.name.toLowerCase())
      ? joes(1, config)
      : place(1, { title: name, address: `${100 + (hash(name) % 800)} Main St, ${location}`, rating: 4.2, reviews: 18 });
  return [
    own,
    place(2, { title: `${name} Supply`, address: `5 Industrial Blvd, ${location}`, phone: '(512) 555-0401', rating: 4.0, reviews: 9 }),
    place(3, { title: `${name.split(' ')[0]} Home Services`, address: `61 Pine St, ${location}`, phone: '(512) 555-0402', rating: 4.7, reviews: 140 }),
  ];
}

export function fakeOrganicAnswer(q: string, location: string, config: LocalSearchConfig) {
  const results = Array.from({ length: 100 }, (_, i) => {
    const position = i + 1;
    const link = position === 7 && config.siteUrl ? `${config.siteUrl}/site/` : `https://www.${slug(q)}-${position}.example.com/`;
    return { position, title: `${q} - result ${position}`, link, displayed_link: link, snippet: `Result ${position} for ${q} in ${location}.` };
  });
  return { search_metadata: { status: 'Success' }, search_parameters: { engine: 'google', q, location, num: '100' }, organic_results: results };
}
