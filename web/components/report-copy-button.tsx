// Copy-to-clipboard buttons for the report screens: a confirmation for a while, failures only logged (spec §8).
import { useEffect, useRef, useState } from "react";
import { COPIED_MS, copyText, onCopyClick } from "../lib/copy-buttons";
import { Button, type ButtonVariant } from "./button";
import { CheckIcon, CopyIcon } from "./icons";

/** 'Link copied to clipboard!' notice (spec §9). */
export const LINK_COPIED_MS = 3000;

export { COPIED_MS, copyText };

/** Makes every `[data-copy]` button of the page copy (the report sections render them without handlers). */
export function useCopyButtons() {
  useEffect(() => {
    const handler = (event: Event) => void onCopyClick(event);
    document.addEventListener("click", handler);
    return () => document.removeEventListener("click", handler);
  }, []);
}

/** True for `ms` after `flash()` is called. */
export function useFlag(ms: number): [boolean, () => void] {
  const [on, setOn] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return [
    on,
    () => {
      clearTimeout(timer.current);
      setOn(true);
      timer.current = setTimeout(() => setOn(false), ms);
    },
  ];
}

export function CopyButton({
  text,
  label,
  copiedLabel = "Copied",
  variant = "secondary",
}: {
  text: string;
  label: string;
  copiedLabel?: string;
  variant?: ButtonVariant;
}) {
  const [copied, flash] = useFlag(COPIED_MS);
  return (
    <Button
      variant={variant}
      size="sm"
      className="report-copy"
      onClick={async () => {
        // A failed copy is only logged (spec §8).
        if (await copyText(text)) flash();
      }}
      aria-live="polite"
    >
      {copied ? <CheckIcon size="sm" /> : <CopyIcon size="sm" />}
      {copied ? copiedLabel : label}
    </Button>
  );
}
