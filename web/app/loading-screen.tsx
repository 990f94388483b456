// 'Loading...' (spec §2), and the page <title> the app shell can give before the app's server state is here.
import type { ReactNode } from "react";
import { servedPageTitle } from "../lib/served-brand";

type LoadingScreenProps =
  | { fullscreen?: false }
  /** Full screen nothing else is shown, so the page's own <title> is not there yet: `title` gives it one. */
  | { fullscreen: true; title: ReactNode };

export function LoadingScreen(props: LoadingScreenProps) {
  return (
    <div className={props.fullscreen ? "loading-screen is-fullscreen" : "loading-screen"} role="status" aria-live="polite">
      {props.fullscreen ? props.title : null}
      <span className="spinner" aria-hidden="true" />
      <span>Loading...</span>
    </div>
  );
}

/** A page's <title> with the brand the page was served with (the live brand, PageTitle, comes with the server state). */
export function ServedPageTitle({ children }: { children?: string }) {
  return <title>{servedPageTitle(children)}</title>;
}
