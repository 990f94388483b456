// Shown when a page fails to load or render (e.g. a stale chunk after a deploy).
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { Alert } from "../design/alert";
import { Button } from "../design/button";
import { PageTitle } from "../features/brand";

export default function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <div className="error-page">
      <div className="card card-pad auth-card">
        <PageTitle>Something went wrong</PageTitle>
        <h1 className="auth-title">Something went wrong</h1>
        <p className="auth-subtitle">The page could not be shown. Reloading usually fixes it.</p>
        {detail ? <Alert tone="error">{detail}</Alert> : null}
        <div className="hero-actions">
          <Button variant="primary" onClick={() => window.location.reload()}>
            Reload the page
          </Button>
          <Link className="btn btn-secondary" to="/dashboard">
            Go to the dashboard
          </Link>
        </div>
      </div>
    </div>
  );
}
