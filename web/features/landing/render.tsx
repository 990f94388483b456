// Build-time pre-render of the landing page into landing.html (vite.config.ts calls it): the page is HTML at once.
import { renderToStaticMarkup } from "react-dom/server";
import { LandingMarkup } from "./markup";

export function renderLanding(): string {
  return renderToStaticMarkup(<LandingMarkup />);
}
