// Copy-to-clipboard buttons for the report screens: a confirmation for a while, failures only logged (spec §8).
import { useEffect, useRef, useState } from "react";
import { Button, type ButtonVariant } from "./button";
import { CheckIcon, CopyIcon } from "./icons";

/** Copy confirmation (spec §9). */
export const COPIED_MS = 2000;
/** 'Link copied to clipboard!' notice (spec §9). */
export const LINK_COPIED_MS = 3000;

/** Writes text to the clipboard; falls back to a hidden textarea where the async API is missing. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (error) {
    console.warn("Clipboard write failed", error);
  }
  try {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  } catch (error) {
    console.warn("Clipboard fallback failed", error);
    return false;
  }
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
