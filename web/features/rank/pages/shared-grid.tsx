// /shared/grids/:token: a grid scan shared by its link (issue 19). Public, signed out, phone-friendly: the heat map,
// the figures and the competitors; nothing private (the scan's public view has no ids, costs or share path).
import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { PageTitle } from "../../brand";
import { BrandContact, BrandLogo } from "../../../design/brand-mark";
import { useBrand } from "../../brand";
import { CalendarIcon, KeyIcon } from "../../../design/icons";
import { GridScanResult, scanSubtitle } from "../rank-figures";
import { isNotFound } from "../../reports";
import { sharedGridQuery } from "../queries";
import "../../../design/public-page.css";
import "../../../design/scan-results.css";
import "../rank.css";

export const GRID_NOT_FOUND_TITLE = "Scan Not Found";
export const GRID_NOT_FOUND_TEXT = "The grid scan you are looking for does not exist or is no longer shared.";

function Missing({ title, text, retry }: { title: string; text: string; retry?: () => void }) {
  const brand = useBrand();
  return (
    <div className="shared-missing">
      <PageTitle>{title}</PageTitle>
      <main className="card shared-missing-card">
        <BrandLogo brand={brand} className="shared-missing-mark" />
        <h1>{title}</h1>
        <p>{text}</p>
        {retry ? (
          <button type="button" className="btn btn-primary" onClick={retry}>
            Try again
          </button>
        ) : (
          <a className="btn btn-primary" href="/">
            Go to Homepage
          </a>
        )}
      </main>
    </div>
  );
}

export default function SharedGridPage() {
  const brand = useBrand();
  const { token = "" } = useParams();
  const query = useQuery({ ...sharedGridQuery(token), enabled: token !== "" });
  if (token === "" || isNotFound(query.error)) return <Missing title={GRID_NOT_FOUND_TITLE} text={GRID_NOT_FOUND_TEXT} />;
  if (query.isError) return <Missing title="Scan Unavailable" text="We could not load this scan just now. Please check your connection and try again." retry={() => void query.refetch()} />;
  if (!query.data) {
    return (
      <div className="loading-screen is-fullscreen" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <span>Loading scan...</span>
      </div>
    );
  }
  const scan = query.data;
  return (
    <div className="shared">
      <title>{`${scan.business.name} · Local Search Grid`}</title>
      <header className="shared-hero">
        <div className="shared-hero-inner">
          <p className="shared-eyebrow">Local Search Grid</p>
          <h1 className="shared-name">{scan.business.name}</h1>
          <ul className="shared-facts">
            <li>
              <KeyIcon size="sm" />
              {scan.keyword}
            </li>
            <li>
              <CalendarIcon size="sm" />
              {scanSubtitle(scan)}
            </li>
          </ul>
        </div>
      </header>
      <main className="shared-main">
        <section className="card card-pad audit-block" aria-label="Grid scan">
          <p className="audit-muted">
            Where {scan.business.name} shows in the Google Maps results for “{scan.keyword}” when people search from each point of the grid.
          </p>
          {scan.status !== "done" ? <p className="audit-muted">This scan is still running: the points not searched yet are grey.</p> : null}
          <GridScanResult scan={scan} />
        </section>
      </main>
      <footer className="shared-footer">
        <p className="shared-footer-by">Prepared by {brand.name}</p>
        <BrandContact brand={brand} />
      </footer>
    </div>
  );
}
