// The monthly client report (issue 30) as a complete HTML document, rendered at the edge from the report's frozen
// payload: the agency's brand, the headline figures, every section the payload has (a null one is left out), a print
// stylesheet, and Open Graph tags. No inline script or style (the shared pages' CSP): charts are SVG attributes.
import { renderToStaticMarkup } from "react-dom/server";
import type { ReactNode } from "react";
import type {
  ClientReportPayload,
  Compared,
  HeadlineFigure,
  ReportAiVisibilitySection,
  ReportCitationsSection,
  ReportGoogleSection,
  ReportGridMap,
  ReportGridSection,
  ReportPostsSection,
  ReportReviewsSection,
  ReportTrackerSection,
} from "./rules/client-report";
import {
  GOOGLE_PART_UNAVAILABLE_TEXT,
  GOOGLE_STATUS_TEXT,
  GRID_BAND_COLORS,
  GRID_BAND_LABELS,
  CLIENT_REPORT_HEADINGS,
  changeText,
  figure,
  gridBand,
  gridFigures,
  oneDecimal,
  percentFigure,
  rankMove,
  rankText,
  ratePercent,
  reportDate,
  reportDescription,
  reportTitle,
  trendOf,
  type GridBand,
  type Trend,
} from "./rules/format";
import type { PublicBrand } from "../../platform/brand/rules/brand";
import { headTags, themeTags, type PageMeta } from "../reports";

/** Section ids (anchors, and what the print stylesheet keeps whole). */
export const CLIENT_REPORT_SECTIONS = {
  summary: "summary",
  google: "google",
  grid: "local-grid",
  tracker: "keywords",
  aiVisibility: "ai-visibility",
  citations: "citations",
  reviews: "reviews",
  posts: "posts",
  whatWeDid: "what-we-did",
  whatsNext: "whats-next",
} as const;


function TrendText({ trend, good = true, children }: { trend: Trend; good?: boolean; children: ReactNode }) {
  const tone = trend === null || trend === "flat" ? "flat" : (trend === "up") === good ? "good" : "bad";
  return <span className={`cr-change is-${tone}`}>{children}</span>;
}

function Headline({ figures }: { figures: HeadlineFigure[] }) {
  if (figures.length === 0) return null;
  return (
    <section className="cr-headline" aria-label="This month's headline figures">
      {figures.slice(0, 3).map((f) => (
        <div className="cr-stat" key={f.key}>
          <p className="cr-stat-label">{f.label}</p>
          <p className="cr-stat-value">{f.value}</p>
          {f.change ? (
            <TrendText trend={f.direction} good={f.higherIsBetter}>
              {f.change}
            </TrendText>
          ) : (
            <span className="cr-change is-flat">First month</span>
          )}
        </div>
      ))}
    </section>
  );
}

function Section({ id, title, children, note }: { id: string; title: string; children: ReactNode; note?: string }) {
  return (
    <section className="cr-section" id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {note ? <p className="cr-note">{note}</p> : null}
      {children}
    </section>
  );
}

/** A figure with its change vs the month before. */
function ComparedFigure({ label, value, unit = "", good = true }: { label: string; value: Compared; unit?: string; good?: boolean }) {
  const change = changeText(value, unit);
  return (
    <div className="cr-figure">
      <dt>{label}</dt>
      <dd>
        <span className="cr-figure-value">
          {figure(value.current)}
          {value.current !== null ? unit : ""}
        </span>
        {change ? (
          <TrendText trend={trendOf(value)} good={good}>
            {change}
          </TrendText>
        ) : null}
      </dd>
    </div>
  );
}

function PlainFigure({ label, value, detail }: { label: string; value: string; detail?: string | null }) {
  return (
    <div className="cr-figure">
      <dt>{label}</dt>
      <dd>
        <span className="cr-figure-value">{value}</span>
        {detail ? <span className="cr-change is-flat">{detail}</span> : null}
      </dd>
    </div>
  );
}

function GoogleSection({ google }: { google: ReportGoogleSection }) {
  if (google.status !== "ok") {
    const words = GOOGLE_STATUS_TEXT[google.status];
    return (
      <Section id={CLIENT_REPORT_SECTIONS.google} title={CLIENT_REPORT_HEADINGS.google}>
        <div className={`cr-notice is-${google.status}`}>
          <p className="cr-notice-title">{words.title}</p>
          <p>{words.body}</p>
        </div>
      </Section>
    );
  }
  const missing = google.unavailable ?? [];
  return (
    <Section id={CLIENT_REPORT_SECTIONS.google} title={CLIENT_REPORT_HEADINGS.google} note={`How people found and contacted ${google.locationTitle} on Google.`}>
      {missing.includes("figures") ? (
        <div className="cr-notice is-unavailable">
          <p>{GOOGLE_PART_UNAVAILABLE_TEXT.figures}</p>
        </div>
      ) : (
        <dl className="cr-figures">
          <ComparedFigure label="Calls" value={google.calls} />
          <ComparedFigure label="Website clicks" value={google.websiteClicks} />
          <ComparedFigure label="Direction requests" value={google.directions} />
          <ComparedFigure label="Views on Google Search" value={google.impressions.search} />
          <ComparedFigure label="Views on Google Maps" value={google.impressions.maps} />
          <ComparedFigure label="Views in total" value={google.impressions.total} />
        </dl>
      )}
      {missing.includes("keywords") ? (
        <div className="cr-notice is-unavailable">
          <p>{GOOGLE_PART_UNAVAILABLE_TEXT.keywords}</p>
        </div>
      ) : google.keywords.length > 0 ? (
        <table className="cr-table">
          <caption>Searches that found your profile</caption>
          <thead>
            <tr>
              <th scope="col">Search</th>
              <th scope="col" className="cr-num">
                Views
              </th>
            </tr>
          </thead>
          <tbody>
            {google.keywords.map((k) => (
              <tr key={k.keyword}>
                <td>{k.keyword}</td>
                <td className="cr-num">{k.impressions !== null ? figure(k.impressions) : k.threshold !== null ? `fewer than ${figure(k.threshold)}` : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Section>
  );
}

const CELL = 10;

/** A size × size grid of rank cells, coloured by band (no map tiles): small enough to sit beside last month's. */
function GridMap({ map, title }: { map: ReportGridMap; title: string }) {
  const side = map.size * CELL;
  const { solv, atrp } = gridFigures(map);
  return (
    <figure className="cr-grid-map">
      <svg viewBox={`0 0 ${side} ${side}`} role="img" aria-label={`${title}: share of local voice ${solv}, average rank ${atrp}`}>
        {map.ranks.map((rank, i) => {
          const row = Math.floor(i / map.size);
          const col = i % map.size;
          const band = gridBand(rank);
          const centre = row === Math.floor(map.size / 2) && col === Math.floor(map.size / 2);
          return (
            <g key={i}>
              <rect x={col * CELL + 0.5} y={row * CELL + 0.5} width={CELL - 1} height={CELL - 1} rx={1.5} fill={GRID_BAND_COLORS[band]} stroke={centre ? "#141b26" : "none"} strokeWidth={centre ? 0.8 : 0} />
              <text x={col * CELL + CELL / 2} y={row * CELL + CELL / 2 + 1.6} textAnchor="middle" fontSize={rank === null || rank > 9 ? 3.6 : 4.4} fontWeight={600} fill={band === "top10" ? "#141b26" : "#ffffff"}>
                {rank === null ? "20+" : rank}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        <span className="cr-grid-title">{title}</span>
        <span>
          SoLV <strong>{solv}</strong> · ATRP <strong>{atrp}</strong>
        </span>
      </figcaption>
    </figure>
  );
}

function GridLegend() {
  const bands: GridBand[] = ["top3", "top10", "top20", "not_found"];
  return (
    <ul className="cr-legend" aria-label="Rank colours">
      {bands.map((b) => (
        <li key={b}>
          <svg viewBox="0 0 10 10" aria-hidden="true" className="cr-swatch">
            <rect width="10" height="10" rx="2" fill={GRID_BAND_COLORS[b]} />
          </svg>
          {GRID_BAND_LABELS[b]}
        </li>
      ))}
    </ul>
  );
}

function GridSection({ grids, monthLabel, timeZone }: { grids: ReportGridSection[]; monthLabel: string; timeZone: string }) {
  return (
    <Section
      id={CLIENT_REPORT_SECTIONS.grid}
      title={CLIENT_REPORT_HEADINGS.grid}
      note="Where you show in Google's map results across your area, this month beside last month. SoLV is the share of the grid where you are in the top 3; ATRP is your average position (lower is better)."
    >
      {grids.map((g) => (
        <div className="cr-grid" key={g.keyword}>
          <h3>“{g.keyword}”</h3>
          <div className="cr-grid-pair">
            <GridMap map={g.current} title={`${monthLabel} (${reportDate(g.current.finishedAt, timeZone)})`} />
            {g.previous ? (
              <GridMap map={g.previous} title={`Last month (${reportDate(g.previous.finishedAt, timeZone)})`} />
            ) : (
              <div className="cr-grid-empty">No scan last month to compare with.</div>
            )}
          </div>
        </div>
      ))}
      <GridLegend />
    </Section>
  );
}

function RankCell({ value }: { value: Compared }) {
  const move = rankMove(value);
  return (
    <td className="cr-num">
      <span className="cr-rank">{rankText(value.current)}</span>
      <TrendText trend={move.trend}>{move.text}</TrendText>
    </td>
  );
}

function TrackerSection({ tracker }: { tracker: ReportTrackerSection }) {
  return (
    <Section
      id={CLIENT_REPORT_SECTIONS.tracker}
      title={CLIENT_REPORT_HEADINGS.tracker}
      note={`${tracker.improved} moved up, ${tracker.declined} moved down, ${tracker.unchanged} held their place.`}
    >
      <table className="cr-table">
        <thead>
          <tr>
            <th scope="col">Keyword</th>
            <th scope="col" className="cr-num">
              Google Maps
            </th>
            <th scope="col" className="cr-num">
              Google Search
            </th>
          </tr>
        </thead>
        <tbody>
          {tracker.keywords.map((k) => (
            <tr key={k.keyword}>
              <td>{k.keyword}</td>
              <RankCell value={k.mapRank} />
              <RankCell value={k.organicRank} />
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

/** The mention rate's 95% interval as a band on 0–100 %, the rate as a dot. */
function IntervalRange({ rate, low, high, label }: { rate: number; low: number; high: number; label: string }) {
  const x = (v: number) => Math.min(100, Math.max(0, v * 100));
  return (
    <svg className="cr-interval" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label={label}>
      <rect x="0" y="4" width="100" height="2" rx="1" fill="#d9dee5" />
      <rect x={x(low)} y="2" width={Math.max(1, x(high) - x(low))} height="6" rx="2" className="cr-interval-band" />
      {/* A tick, not a dot: the bar stretches to its width (preserveAspectRatio none), which would squash a circle. */}
      <rect x={Math.min(99, Math.max(0, x(rate) - 0.5))} y="0" width="1" height="10" fill="#141b26" />
    </svg>
  );
}

function AiVisibilitySection({ ai, timeZone }: { ai: ReportAiVisibilitySection; timeZone: string }) {
  const range = (r: { mentionRate: number; low: number; high: number }) => `${ratePercent(r.mentionRate)} (95% range ${ratePercent(r.low)}–${ratePercent(r.high)})`;
  return (
    <Section
      id={CLIENT_REPORT_SECTIONS.aiVisibility}
      title={CLIENT_REPORT_HEADINGS.aiVisibility}
      note={`How often AI assistants (${ai.engines.join(", ")}) name you when asked ${ai.questions} ${ai.questions === 1 ? "question" : "questions"} customers ask. Checked ${reportDate(ai.scannedAt, timeZone)}, ${ai.answers} answers.`}
    >
      <dl className="cr-figures">
        <PlainFigure label="Named in answers" value={ratePercent(ai.mentionRate)} detail={`likely between ${ratePercent(ai.low)} and ${ratePercent(ai.high)}`} />
        <PlainFigure label="Share of voice" value={ai.shareOfVoice === null ? "—" : ratePercent(ai.shareOfVoice)} detail="of all businesses named" />
        {ai.previous ? <PlainFigure label="Last month" value={ratePercent(ai.previous.mentionRate)} detail={`likely between ${ratePercent(ai.previous.low)} and ${ratePercent(ai.previous.high)}`} /> : null}
      </dl>
      <div className="cr-interval-rows">
        <div className="cr-interval-row">
          <span>This month</span>
          <IntervalRange rate={ai.mentionRate} low={ai.low} high={ai.high} label={`This month: ${range(ai)}`} />
        </div>
        {ai.previous ? (
          <div className="cr-interval-row">
            <span>Last month</span>
            <IntervalRange rate={ai.previous.mentionRate} low={ai.previous.low} high={ai.previous.high} label={`Last month: ${range(ai.previous)}`} />
          </div>
        ) : null}
      </div>
    </Section>
  );
}

function CitationsSection({ citations, timeZone }: { citations: ReportCitationsSection; timeZone: string }) {
  const change =
    citations.consistencyPercent !== null && citations.previousPercent !== null
      ? changeText({ current: citations.consistencyPercent, previous: citations.previousPercent, delta: Math.round((citations.consistencyPercent - citations.previousPercent) * 10) / 10, percent: null }, " pts")
      : null;
  return (
    <Section
      id={CLIENT_REPORT_SECTIONS.citations}
      title={CLIENT_REPORT_HEADINGS.citations}
      note={`Whether your name, address and phone match across ${citations.checked} directories. Checked ${reportDate(citations.scannedAt, timeZone)}.`}
    >
      <dl className="cr-figures">
        <PlainFigure label="Consistency" value={percentFigure(citations.consistencyPercent)} detail={change} />
        <PlainFigure label="Consistent" value={figure(citations.consistent)} />
        <PlainFigure label="Need fixing" value={figure(citations.inconsistent)} />
        <PlainFigure label="Duplicates" value={figure(citations.duplicate)} />
        <PlainFigure label="Not listed" value={figure(citations.notFound)} />
      </dl>
    </Section>
  );
}

function ReviewsSection({ reviews }: { reviews: ReportReviewsSection }) {
  return (
    <Section id={CLIENT_REPORT_SECTIONS.reviews} title={CLIENT_REPORT_HEADINGS.reviews}>
      <dl className="cr-figures">
        <ComparedFigure label="New reviews" value={reviews.newReviews} />
        <PlainFigure label="Average this month" value={reviews.monthAverage === null ? "—" : `${oneDecimal(reviews.monthAverage)} ★`} />
        <PlainFigure label="Average overall" value={reviews.overallAverage === null ? "—" : `${oneDecimal(reviews.overallAverage)} ★`} detail={`${figure(reviews.totalReviews)} reviews in all`} />
        <PlainFigure label="Replied to" value={percentFigure(reviews.replyRate)} detail="of this month's reviews" />
        <PlainFigure label="Review requests sent" value={figure(reviews.requestsSent)} />
      </dl>
    </Section>
  );
}

function PostsSection({ posts, timeZone }: { posts: ReportPostsSection; timeZone: string }) {
  return (
    <Section id={CLIENT_REPORT_SECTIONS.posts} title={CLIENT_REPORT_HEADINGS.posts}>
      <dl className="cr-figures">
        <ComparedFigure label="Posts published" value={posts.published} />
      </dl>
      {posts.items.length > 0 ? (
        <ul className="cr-posts">
          {posts.items.map((p, i) => (
            <li key={`${p.publishedAt}-${i}`}>
              <time dateTime={p.publishedAt}>{reportDate(p.publishedAt, timeZone)}</time>
              <span>{p.excerpt}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}

function BrandHeader({ brand, pdfHref }: { brand: PublicBrand; pdfHref: string }) {
  return (
    <header className="cr-top">
      <div className="cr-brand">
        {brand.logoUrl ? <img className="cr-logo" src={brand.logoUrl} alt="" width="40" height="40" /> : null}
        <span className="cr-brand-name">{brand.name}</span>
      </div>
      <a className="cr-pdf-link" href={pdfHref}>
        Download PDF
      </a>
    </header>
  );
}

function BrandFooter({ brand, payload }: { brand: PublicBrand; payload: ClientReportPayload }) {
  const contact = [brand.supportEmail, brand.supportPhone].filter(Boolean) as string[];
  const website = brand.website ? (/^https?:\/\//i.test(brand.website) ? brand.website : `https://${brand.website}`) : null;
  return (
    <footer className="cr-footer">
      <p>
        Prepared by {brand.name} · figures as of {reportDate(payload.builtAt, payload.timeZone)} · dates in {payload.timeZone.replace(/_/g, " ")}
      </p>
      {contact.length || website ? (
        <p>
          {contact.join(" · ")}
          {contact.length && website ? " · " : ""}
          {website ? (
            <a href={website} rel="noopener">
              {brand.website}
            </a>
          ) : null}
        </p>
      ) : null}
      {brand.footerLine ? <p>{brand.footerLine}</p> : null}
    </footer>
  );
}

export function ClientReportView({ payload, brand, token }: { payload: ClientReportPayload; brand: PublicBrand; token: string }) {
  const p = payload;
  const place = [p.business.category, p.business.location].filter(Boolean).join(" · ");
  return (
    <div className="cr-page" data-client-report={token}>
      <BrandHeader brand={brand} pdfHref={clientReportPdfPath(token)} />
      <main className="cr-main">
        <div className="cr-hero">
          <p className="cr-kicker">Monthly results · {p.monthLabel}</p>
          <h1>{p.business.name}</h1>
          {place ? <p className="cr-place">{place}</p> : null}
        </div>
        <Headline figures={p.headline} />
        <Section id={CLIENT_REPORT_SECTIONS.summary} title={CLIENT_REPORT_HEADINGS.summary}>
          <p className="cr-summary">{p.summary.text}</p>
        </Section>
        <GoogleSection google={p.google} />
        {p.grid && p.grid.length > 0 ? <GridSection grids={p.grid} monthLabel={p.monthLabel} timeZone={p.timeZone} /> : null}
        {p.tracker && p.tracker.keywords.length > 0 ? <TrackerSection tracker={p.tracker} /> : null}
        {p.aiVisibility ? <AiVisibilitySection ai={p.aiVisibility} timeZone={p.timeZone} /> : null}
        {p.citations ? <CitationsSection citations={p.citations} timeZone={p.timeZone} /> : null}
        {p.reviews ? <ReviewsSection reviews={p.reviews} /> : null}
        {p.posts ? <PostsSection posts={p.posts} timeZone={p.timeZone} /> : null}
        {p.whatWeDid.length > 0 ? (
          <Section id={CLIENT_REPORT_SECTIONS.whatWeDid} title={CLIENT_REPORT_HEADINGS.whatWeDid}>
            <ul className="cr-did">
              {p.whatWeDid.map((w) => (
                <li key={w.key}>
                  <strong>{figure(w.count)}</strong> {w.label}
                </li>
              ))}
            </ul>
          </Section>
        ) : null}
        {p.whatsNext.length > 0 ? (
          <Section id={CLIENT_REPORT_SECTIONS.whatsNext} title={CLIENT_REPORT_HEADINGS.whatsNext}>
            <ol className="cr-next">
              {p.whatsNext.map((w, i) => (
                <li key={i}>{w.text}</li>
              ))}
            </ol>
          </Section>
        ) : null}
      </main>
      <BrandFooter brand={brand} payload={p} />
    </div>
  );
}

export function clientReportPath(token: string): string {
  return `/shared/client-reports/${encodeURIComponent(token)}`;
}

export function clientReportPdfPath(token: string): string {
  return `${clientReportPath(token)}.pdf`;
}

export function clientReportMeta(p: ClientReportPayload, brand: PublicBrand, urls: { page: string; image: string | null }): PageMeta {
  return {
    title: reportTitle(p),
    description: reportDescription(p, brand.name),
    url: urls.page,
    image: urls.image,
    imageAlt: `${p.business.name}: ${p.monthLabel} results, prepared by ${brand.name}`,
    siteName: brand.name,
  };
}

export function renderClientReportPage(
  payload: ClientReportPayload,
  brand: PublicBrand,
  opts: { token: string; pageUrl: string; imageUrl: string | null; assets: string[]; theme?: string[] },
): string {
  const meta = clientReportMeta(payload, brand, { page: opts.pageUrl, image: opts.imageUrl });
  const body = renderToStaticMarkup(<ClientReportView payload={payload} brand={brand} token={opts.token} />);
  // The shared report's head (noindex, Open Graph), the page's own assets, then the brand's accent (the route's
  // inline <style>, else its stylesheet).
  return `<!doctype html><html lang="en"><head>${headTags(meta, meta.title, [...opts.assets, ...(opts.theme ?? themeTags(brand))], null)}</head><body>${body}</body></html>`;
}
