// A message that clears itself after a while (spec §9: success messages last 3 seconds).
import { useCallback, useEffect, useRef, useState } from "react";

export const SUCCESS_MESSAGE_MS = 3_000;

export function useTimedMessage(ms = SUCCESS_MESSAGE_MS): [string | null, (message: string | null) => void] {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const show = useCallback(
    (next: string | null) => {
      clearTimeout(timer.current);
      setMessage(next);
      if (next !== null) timer.current = setTimeout(() => setMessage(null), ms);
    },
    [ms],
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return [message, show];
}

/** `value`, once it has stopped changing for `ms` (search boxes ask the server after a pause). */
export function useDebounced<T>(value: T, ms = 250): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}
