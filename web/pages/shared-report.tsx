// /shared/reports/:id: the public report a prospect opens (spec part 2 §2) — no sign-in, no phone, printable.
import { useQuery } from "@tanstack/react-query";
import { useState, type MouseEvent } from "react";
import { Link, useParams } from "react-router";
import { formatLongUsDate } from "../../worker/domain/report-format";
import type { ReportViewContent, SharedReportResponse } from "../../worker/domain/report-view";
import { rankingLabel } from "../../worker/domain/seo-potential";
import { BrandMark } from "../components/brand";
import {
  BookIcon,
  CalendarIcon,
  KeyIcon,
  MapPinIcon,
  MegaphoneIcon,
  PrinterIcon,
  ReportSearchIcon,
  StoreIcon,
  ThumbsUpIcon,
  TrendingUpIcon,
} from "../components/icons";
import { ReportSections, SECTION_IDS } from "../components/report-sections";
import { isNotFound, sharedReportQuery } from "../queries/reports";
import "../report.css";

export const NOT_FOUND_TITLE = "Report Not Found";
export const NOT_FOUND_TEXT = "The report you are looking for does not exist or has been removed.";
export const LOAD_FAILED_TITLE = "Report Unavailable";
export const LOAD_FAILED_TEXT = "We could not load this report just now. Please check your connection and try again.";
type State =
  | { phase: "loading" }
  | { phase: "missing" }
  | { phase: "failed"; retry: () => void }
  | { phase: "loaded"; data: SharedReportResponse };

/**
 * The report, asked for again every SHARED_REPORT_POLL_MS while it is being prepared. Only a 404 is
 * "not found"; a time-out or a server error is a retry message (a failed poll keeps what is shown).
 */
function useSharedReport(id: string | undefined): State {
  const query = useQuery({ ...sharedReportQuery(id ?? ""), enabled: id !== undefined });
  if (id === undefined || isNotFound(query.error)) return { phase: "missing" };
  if (query.data) return { phase: "loaded", data: query.data };
  if (query.isError) return { phase: "failed", retry: () => void query.refetch() };
  return { phase: "loading" };
}

function scrollToSection(event: MouseEvent<HTMLAnchorElement>, id: string) {
  const target = document.getElementById(id);
  if (!target) return;
  event.preventDefault();
  const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  target.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
  target.focus({ preventScroll: true });
  history.replaceState(null, "", `#${id}`);
}

function Overview({ content }: { content: ReportViewContent }) {
  const score = Math.round(content.seoPotential.score);
  const cards = [
    { id: SECTION_IDS.potential, icon: TrendingUpIcon, value: `${score}%`, label: "SEO Potential", note: `${rankingLabel(score)} ranking potential` },
    { id: SECTION_IDS.ads, icon: MegaphoneIcon, value: "1", label: "Google Ad", note: "Written for your keyword" },
    { id: SECTION_IDS.meta, icon: ReportSearchIcon, value: "2", label: "Meta Tags", note: "Title and description" },
    { id: SECTION_IDS.gmb, icon: StoreIcon, value: String(content.gmbArticles.length), label: "GMB Articles", note: "Google Business posts" },
    { id: SECTION_IDS.blog, icon: BookIcon, value: String(content.blogStructures.length), label: "Blog Outlines", note: "Ready to write" },
    { id: SECTION_IDS.facebook, icon: ThumbsUpIcon, value: String(content.facebookPosts.length), label: "Facebook Posts", note: "Educational posts" },
  ];
  return (
    <nav className="overview" aria-label="Report overview">
      <h2 className="overview-title">What's inside</h2>
      <ul className="overview-grid">
        {cards.map(({ id, icon: Icon, value, label, note }) => (
          <li key={id}>
            <a className="overview-card" href={`#${id}`} onClick={(e) => scrollToSection(e, id)}>
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
  const name = sender?.company_name?.trim() || "Porchlight";
  const [logoFailed, setLogoFailed] = useState(false);
  return (
    <div className="shared-sender">
      {sender?.logo_url && !logoFailed ? (
        <img className="shared-sender-logo" src={sender.logo_url} alt="" onError={() => setLogoFailed(true)} />
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

function SharedReport({ data }: { data: SharedReportResponse }) {
  const { report, prospect, sender } = data;
  const ready = report.status === "ready" && report.content;
  const agency = sender?.company_name?.trim() || "Porchlight";
  return (
    <div className="shared">
      <title>{`${prospect.name} · SEO Report`}</title>
      <header className="shared-hero">
        <div className="shared-hero-inner">
          <div className="shared-hero-top">
            <Sender sender={sender} />
            {ready ? (
              <button type="button" className="shared-print" onClick={() => window.print()}>
                <PrinterIcon size="sm" />
                Save as PDF
              </button>
            ) : null}
          </div>
          <p className="shared-eyebrow">SEO &amp; Marketing Report</p>
          <h1 className="shared-name">{prospect.name}</h1>
          {prospect.company_name ? <p className="shared-company">{prospect.company_name}</p> : null}
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

      <main className="shared-main">
        {ready ? (
          <>
            <Overview content={report.content!} />
            <ReportSections content={report.content!} description={prospect.description} variant="shared" />
          </>
        ) : (
          <section className="card shared-preparing" aria-live="polite">
            <span className="spinner" aria-hidden="true" />
            <h2>Your report is being prepared</h2>
            <p>
              {agency} is putting the finishing touches on this report. This page updates by itself as soon as it is ready.
            </p>
          </section>
        )}
      </main>

      <footer className="shared-footer">
        {ready ? <p>Generated on {formatLongUsDate(report.generated_at ?? report.created_at)}</p> : null}
        <p className="shared-footer-by">Prepared for {prospect.name} by {agency}</p>
      </footer>
    </div>
  );
}

export default function SharedReportPage() {
  const { id } = useParams();
  const state = useSharedReport(id);

  if (state.phase === "loading") {
    return (
      <div className="loading-screen is-fullscreen" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <span>Loading report...</span>
      </div>
    );
  }
  if (state.phase === "failed") {
    return (
      <div className="shared-missing">
        <title>{`${LOAD_FAILED_TITLE} · Porchlight`}</title>
        <section className="card shared-missing-card">
          <BrandMark className="shared-missing-mark" />
          <h1>{LOAD_FAILED_TITLE}</h1>
          <p>{LOAD_FAILED_TEXT}</p>
          <button type="button" className="btn btn-primary" onClick={state.retry}>
            Try again
          </button>
        </section>
      </div>
    );
  }
  if (state.phase === "missing") {
    return (
      <div className="shared-missing">
        <title>{`${NOT_FOUND_TITLE} · Porchlight`}</title>
        <section className="card shared-missing-card">
          <BrandMark className="shared-missing-mark" />
          <h1>{NOT_FOUND_TITLE}</h1>
          <p>{NOT_FOUND_TEXT}</p>
          <Link className="btn btn-primary" to="/">
            Go to Homepage
          </Link>
        </section>
      </div>
    );
  }
  return <SharedReport data={state.data} />;
}
