// The HTML shell shows the app's 'Loading...' before the bundle has run (issue 26), the same markup React renders.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LoadingScreen, ServedPageTitle } from "../../web/app/loading-screen";

const html = readFileSync(resolve(process.cwd(), "web/index.html"), "utf8");

describe("web/index.html", () => {
  it("ships #root with the full-screen 'Loading...' that LoadingScreen renders, so a slow phone never sees a blank page", () => {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const root = doc.getElementById("root");
    expect(root?.textContent).toBe("Loading...");
    // LoadingScreen's markup without the <title> React hoists into <head>.
    const rendered = renderToStaticMarkup(<LoadingScreen fullscreen title={<ServedPageTitle />} />).replace(/<title>[^<]*<\/title>/, "");
    const normalise = (markup: string) => new DOMParser().parseFromString(markup, "text/html").body.innerHTML;
    expect(normalise(root!.innerHTML)).toBe(normalise(rendered));
  });
});
