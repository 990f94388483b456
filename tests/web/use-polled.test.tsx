// usePolled: the loader both report pages share (poll until done, keep what is shown on a failed poll).
import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { usePolled } from "../../web/lib/use-polled";

afterEach(() => vi.useRealTimers());

describe("usePolled", () => {
  it("polls until the value is done, then stops", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const values = [{ done: false }, { done: false }, { done: true }];
    const load = vi.fn(async () => values.shift() ?? { done: true });
    const { result } = renderHook(() => usePolled("r1", load, { isDone: (v) => v.done, pollMs: 1000 }));
    await waitFor(() => expect(result.current).toEqual({ phase: "loaded", data: { done: false } }));
    await act(async () => vi.advanceTimersByTimeAsync(2100));
    await waitFor(() => expect(result.current).toEqual({ phase: "loaded", data: { done: true } }));
    await act(async () => vi.advanceTimersByTimeAsync(5000));
    expect(load).toHaveBeenCalledTimes(3);
  });

  it("keeps what is shown when a later poll fails, and reports an error that stops polling", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const gone = new Error("gone");
    const answers: Array<() => Promise<{ done: boolean }>> = [
      async () => ({ done: false }),
      async () => Promise.reject(new Error("network")),
      async () => Promise.reject(gone),
    ];
    const load = vi.fn(() => answers.shift()!());
    const { result } = renderHook(() =>
      usePolled("r2", load, { isDone: (v) => v.done, pollMs: 100, keepPolling: (e) => e !== gone }),
    );
    await waitFor(() => expect(result.current.phase).toBe("loaded"));
    await act(async () => vi.advanceTimersByTimeAsync(150));
    expect(result.current).toEqual({ phase: "loaded", data: { done: false } });
    await act(async () => vi.advanceTimersByTimeAsync(250));
    await waitFor(() => expect(result.current).toEqual({ phase: "error", error: gone }));
  });

  it("answers an error at once when there is nothing to load", async () => {
    const load = vi.fn();
    const { result } = renderHook(() => usePolled(undefined, load, { isDone: () => true, pollMs: 100 }));
    await waitFor(() => expect(result.current).toEqual({ phase: "error", error: null }));
    expect(load).not.toHaveBeenCalled();
  });
});
