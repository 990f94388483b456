// Shown when a page fails to load or render (e.g. a stale chunk after a deploy). Part of the app shell, so it shows
// even when the app's server state could not load: its title names the brand the page was served with.
import { Component, type ReactNode } from "react";
import { Link, type Location } from "react-router";
import { Button } from "../design/button";
import { ServedPageTitle } from "./loading-screen";

export function RouteErrorPage() {
  return (
    <div className="error-page">
      <div className="card card-pad auth-card">
        <ServedPageTitle>Something went wrong</ServedPageTitle>
        <h1 className="auth-title">Something went wrong</h1>
        <p className="auth-subtitle">The page could not be shown. Reloading usually fixes it.</p>
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

type BoundaryState = { failed: boolean; location: Location };

/** Shows RouteErrorPage instead of the routes below it when one throws; going to another address tries again. */
export class RouteErrorBoundary extends Component<{ location: Location; children: ReactNode }, BoundaryState> {
  state: BoundaryState = { failed: false, location: this.props.location };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: { location: Location }, state: BoundaryState): Partial<BoundaryState> | null {
    return props.location === state.location ? null : { failed: false, location: props.location };
  }

  render() {
    return this.state.failed ? <RouteErrorPage /> : this.props.children;
  }
}
