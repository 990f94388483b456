// The public shared report's markup (spec part 2 §2): rendered to HTML by the worker and by the SPA alike.
// Pure: no hooks, no DOM, no router. Interactivity (copy, overview scrolling, print, view beacons) is
// attached by web/features/reports/shared-page/main.ts through the data-* attributes set here.
import { companyBesideName, formatLongUsDate } from "../../../worker/features/reports/rules/format";
import { NOT_FOUND_TITLE, senderName, type ReportViewContent, type SharedReportResponse } from "../../../worker/features/reports/rules/view";
import { rankingLabel } from "../../../worker/features/reports/rules/seo-potential";
import { DEFAULT_BRAND, type PublicBrand } from "../../../worker/platform/brand/rules/brand";
import { BrandContact, BrandLogo, BrandMark } from "../../design/brand-mark";
import {
  BookIcon,
  CalendarIcon,
  ChatIcon,
  KeyIcon,
  MapPinIcon,
  MegaphoneIcon,
  PrinterIcon,
  ReportSearchIcon,
  StoreIcon,
  ThumbsUpIcon,
  TrendingUpIcon,
} from "../../design/icons";
import { WhatWeFoundSection } from "../audits/ssr";
import { LocalVisibilitySection } from "../rank/ssr";
import { AiVisibilitySection } from "./report-ai-visibility";
import { ListingsSection } from "./report-listings";
import { ReportSections, SECTION_IDS } from "./report-sections";

export { NOT_FOUND_TITLE };
export const NOT_FOUND_TEXT = "The report you are looking for does not exist or has been removed.";
export const PREPARING_TITLE = "Your report is being prepared";

/** Public path of a report's chat (spec: /shared/chat/{id}, the id is the report id). */
export function sharedChatPath(id: string): string {
  return `/shared/chat/${encodeURIComponent(id)}`;
}

function Overview({ content }: { content: ReportViewContent }) {
  const score = content.seoPotential ? Math.round(content.seoPotential.score) : null;
  const cards = [
    // Without a figure (an audit with no data) there is no card: "What we found" says "No data" once (issue 39).
    ...(score === null ? [] : [{ id: SECTION_IDS.potential, icon: TrendingUpIcon, value: `${score}%`, label: "SEO Potential", note: `${rankingLabel(score)} ranking potential` }]),
    { id: SECTION_IDS.ads, icon: MegaphoneIcon, value: "1", label: "Google Ad", note: "Written for your keyword" },
    { id: SECTION_IDS.meta, icon: ReportSearchIcon, value: "2", label: "Meta Tags", note: "Title and description" },
    { id: SECTION_IDS.gmb, icon: StoreIcon, value: String(content.gmbArticles.length), label: "GMB Articles", note: "Google Business posts" },
    { id: SECTION_IDS.blog, icon: BookIcon, value: String(content.blogStructures.length), label: "Blog Outlines", note: "Ready to write" },
    { id: SECTION_IDS.facebook, icon: ThumbsUpIcon, value: String(content.facebookPosts.length), label: "Facebook Posts", note: "Educational posts" },
  ];
  return (
    <nav className="overview" aria-label="Report overview">
      <h2 className="caps-label overview-title">What's inside</h2>
      <ul className="overview-grid">
        {cards.map(({ id, icon: Icon, value, label, note }) => (
          <li key={id}>
            <a className="overview-card" href={`#${id}`} data-scroll-to={id}>
              <span className="overview-icon">
                <Icon size="sm" />
              </span>
              <span className="overview-value">{value}</span>
              <span className="overview-label">{label}</span>
              <span className="overview-note">{note}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Sender({ sender }: { sender: SharedReportResponse["sender"] }) {
  const name = senderName(sender);
  return (
    <div className="shared-sender">
      {sender?.logo_url ? (
        <img className="shared-sender-logo" src={sender.logo_url} alt={`${name} logo`} width={40} height={40} />
      ) : sender?.company_name ? (
        <span className="shared-sender-logo is-initial" aria-hidden="true">
          {name[0]!.toUpperCase()}
        </span>
      ) : (
        <BrandMark className="shared-sender-logo" />
      )}
      <span className="shared-sender-text">
        <span>Prepared by</span>
        <strong>{name}</strong>
      </span>
    </div>
  );
}

function Hero({ data, printable }: { data: SharedReportResponse; printable: boolean }) {
  const { report, prospect, sender } = data;
  const company = companyBesideName(prospect.name, prospect.company_name);
  return (
    <header className="shared-hero">
      <div className="shared-hero-inner">
        <div className="shared-hero-top">
          <Sender sender={sender} />
          {printable ? (
            // Hidden until the page's script runs: without JavaScript there is nothing for it to do.
            <button type="button" className="shared-print" data-print hidden>
              <PrinterIcon size="sm" />
              Save as PDF
            </button>
          ) : null}
        </div>
        <p className="shared-eyebrow">SEO &amp; Marketing Report</p>
        <h1 className="shared-name">{prospect.name}</h1>
        {company ? <p className="shared-company">{company}</p> : null}
        <ul className="shared-facts">
          {prospect.keyword ? (
            <li>
              <KeyIcon size="sm" />
              {prospect.keyword}
            </li>
          ) : null}
          {prospect.area ? (
            <li>
              <MapPinIcon size="sm" />
              {prospect.area}
            </li>
          ) : null}
          <li>
            <CalendarIcon size="sm" />
            {formatLongUsDate(report.created_at)}
          </li>
        </ul>
      </div>
    </header>
  );
}

function ChatInvite({ id, agency }: { id: string; agency: string }) {
  return (
    <section className="card shared-chat" aria-labelledby="shared-chat-title">
      <div>
        <h2 id="shared-chat-title">Meet your customers' assistant</h2>
        <p>A preview of the AI assistant {agency} can set up for your customers: it answers as your business would answer a homeowner.</p>
      </div>
      <a className="btn btn-primary" href={sharedChatPath(id)} data-event="chat_started">
        <ChatIcon size="sm" />
        Try the assistant
      </a>
    </section>
  );
}

/** The whole page body: hero, then the report (or the preparing notice), then the footer. */
export function SharedReportView({ data }: { data: SharedReportResponse }) {
  const { report, prospect, sender } = data;
  // The report's audit, without admin-only data: the listing picker is never rendered here.
  const audit = data.audit ?? null;
  const visibility = data.localVisibility ?? null;
  // No prospect id here: the public section has no link to the tracker.
  const listings = data.listings ?? null;
  const ai = data.aiVisibility ?? null;
  const content = report.status === "ready" ? report.content : null;
  const agency = senderName(sender);
  return (
    <div className="shared" data-report-id={report.id}>
      <Hero data={data} printable={Boolean(content)} />
      <main className="shared-main">
        {content ? (
          <>
            <Overview content={content} />
            {audit ? <WhatWeFoundSection audit={audit} /> : null}
            {visibility ? <LocalVisibilitySection visibility={visibility} /> : null}
            {listings ? <ListingsSection listings={listings} /> : null}
            {ai ? <AiVisibilitySection ai={ai} /> : null}
            <ReportSections content={content} description={prospect.description} variant="shared" site={audit?.site ?? null} />
            <ChatInvite id={report.id} agency={agency} />
          </>
        ) : (
          <>
          <section className="card shared-preparing" aria-live="polite">
            <span className="spinner" aria-hidden="true" />
            <h2>{PREPARING_TITLE}</h2>
            <p>{agency} is putting the finishing touches on this report. This page updates by itself as soon as it is ready.</p>
          </section>
          {audit ? <WhatWeFoundSection audit={audit} /> : null}
          {visibility ? <LocalVisibilitySection visibility={visibility} /> : null}
          {listings ? <ListingsSection listings={listings} /> : null}
          {ai ? <AiVisibilitySection ai={ai} /> : null}
          </>
        )}
      </main>
      <footer className="shared-footer">
        {content ? <p>Generated on {formatLongUsDate(report.generated_at ?? report.created_at)}</p> : null}
        <p className="shared-footer-by">
          Prepared for {prospect.name} by {agency}
        </p>
        {data.brand ? <BrandContact brand={data.brand} /> : null}
      </footer>
    </div>
  );
}

/** The spec's 'Report Not Found' screen. */
export function ReportNotFoundView({ brand = DEFAULT_BRAND }: { brand?: PublicBrand }) {
  return (
    <div className="shared-missing">
      <main className="card shared-missing-card">
        <BrandLogo brand={brand} className="shared-missing-mark" />
        <h1>{NOT_FOUND_TITLE}</h1>
        <p>{NOT_FOUND_TEXT}</p>
        <a className="btn btn-primary" href="/">
          Go to Homepage
        </a>
      </main>
    </div>
  );
}
