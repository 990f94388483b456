// scripts/shell-size.ts: the app shell's initial JavaScript is the entry script and the chunks index.html preloads.
import { describe, expect, it } from "vitest";
import { initialScripts } from "../../scripts/shell-size";

describe("shell size", () => {
  it("counts the entry script and its modulepreloads once each, not stylesheets or icons", () => {
    const html = `<link rel="icon" href="/favicon.svg" />
      <script type="module" crossorigin src="/assets/index-A.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/vendor-B.js">
      <link rel="modulepreload" crossorigin href="/assets/index-A.js">
      <link rel="stylesheet" crossorigin href="/assets/styles-C.css">`;
    expect(initialScripts(html)).toEqual(["/assets/index-A.js", "/assets/vendor-B.js"]);
  });
});
