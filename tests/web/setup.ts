// Web test setup: unmount between tests, empty storage, and no real network.
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";
import { DEFAULT_BRAND, publicBrand } from "../../worker/platform/brand/rules/brand";
import { BRAND_META } from "../../worker/platform/brand/rules/theme";
import { preloadsSettled } from "../../web/routes";

// A screen's first render also loads its lazy route module; on a busy machine that can pass findBy's default second.
configure({ asyncUtilTimeout: 3000 });

/** Where every test's window is: happy-dom's default URL, the origin the tests' snippets and links expect. */
const APP_URL = "http://localhost:3000/";

beforeEach(() => {
  // Files share one environment (vitest.web.config.ts): every test starts at the app's origin, whatever the last one
  // navigated to (a download link's blob: address, say).
  if (window.location.href !== APP_URL) (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(APP_URL);
  window.localStorage.clear();
  // The worker puts the public brand in every page it serves (worker/platform/brand/html.ts): the product's own, unbranded.
  if (!document.head.querySelector(`meta[name="${BRAND_META}"]`)) {
    document.head.insertAdjacentHTML("beforeend", `<meta name="${BRAND_META}" content='${JSON.stringify(publicBrand(DEFAULT_BRAND))}'>`);
  }
  // No test reaches the network: a request a test did not stub fails like an offline fetch.
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      throw new TypeError(`Unexpected fetch in a web test: ${String(input)}`);
    }),
  );
});

afterEach(async () => {
  // The screens' code a test's addresses asked for arrives before the test's environment goes (else the import lands
  // after teardown and fails the run).
  await preloadsSettled();
  cleanup();
  // What a test put in the page outside Testing Library (server-rendered markup, say) goes too.
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
