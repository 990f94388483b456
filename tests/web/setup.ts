// Web test setup: unmount between tests, empty storage, and no real network.
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";

// A screen's first render also loads its lazy route module; on a busy machine that can pass findBy's default second.
configure({ asyncUtilTimeout: 3000 });

beforeEach(() => {
  window.localStorage.clear();
  // No test reaches the network: a request a test did not stub fails like an offline fetch.
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      throw new TypeError(`Unexpected fetch in a web test: ${String(input)}`);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
