// Loads one resource and, until it is done, asks for it again on a timer; a failed poll keeps what is shown.
import { useEffect, useRef, useState } from "react";

export type Polled<T> =
  | { phase: "loading" }
  | { phase: "error"; error: unknown }
  | { phase: "loaded"; data: T };

export interface PollOptions<T> {
  /** When the loaded value needs no further polling. */
  isDone: (data: T) => boolean;
  pollMs: number;
  /** Whether a poll that fails after something was shown should try again (default: always). */
  keepPolling?: (error: unknown) => boolean;
}

/**
 * `key` names the resource (undefined: nothing to load, an error at once). A failed poll after a
 * successful load retries at twice the interval unless `keepPolling` says otherwise.
 */
export function usePolled<T>(
  key: string | undefined,
  load: (signal: AbortSignal) => Promise<T>,
  options: PollOptions<T>,
): Polled<T> {
  const [state, setState] = useState<Polled<T>>({ phase: "loading" });
  // The latest callbacks, so a new closure each render does not restart the polling.
  const latest = useRef({ load, options });
  latest.current = { load, options };

  useEffect(() => {
    if (key === undefined) {
      setState({ phase: "error", error: null });
      return;
    }
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let shown = false;
    setState({ phase: "loading" });

    const run = async () => {
      const { load: fetchIt, options: opts } = latest.current;
      try {
        const data = await fetchIt(controller.signal);
        if (controller.signal.aborted) return;
        shown = true;
        setState({ phase: "loaded", data });
        if (!opts.isDone(data)) timer = setTimeout(run, opts.pollMs);
      } catch (error) {
        if (controller.signal.aborted) return;
        if (shown && (opts.keepPolling?.(error) ?? true)) {
          timer = setTimeout(run, opts.pollMs * 2);
          return;
        }
        setState({ phase: "error", error });
      }
    };
    void run();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [key]);

  return state;
}
