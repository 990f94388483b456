// Copy-to-clipboard buttons for the report screens: a confirmation for a while, failures only logged (spec §8).
import { useEffect, useRef, useState } from "react";
import { COPIED_MS, copyText, onCopyClick } from "../../lib/copy-buttons";
import type { ButtonVariant } from "../../design/button";
import { CopyButton as CopyButtonMarkup } from "./report-sections";

/** 'Link copied to clipboard!' notice (spec §9). */
export const LINK_COPIED_MS = 3000;

export { COPIED_MS, copyText };

/** Components asking for the document's copy handler; one listener serves them all. */
let copyHandlerUsers = 0;
const copyHandler = (event: Event) => void onCopyClick(event);

/** Makes every `[data-copy]` button of the page copy (the report sections render them without handlers). */
export function useCopyButtons() {
  useEffect(() => {
    if (copyHandlerUsers++ === 0) document.addEventListener("click", copyHandler);
    return () => {
      if (--copyHandlerUsers === 0) document.removeEventListener("click", copyHandler);
    };
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

/** A copy button with its behaviour: the data-copy markup of report-sections plus the page's delegated handler. */
export function CopyButton(props: { text: string; label: string; copiedLabel?: string; variant?: ButtonVariant }) {
  useCopyButtons();
  return <CopyButtonMarkup {...props} />;
}
