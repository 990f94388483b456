// Copy-to-clipboard without React: the text lives in the button's data-copy attribute, so server-rendered
// buttons (the shared report) and SPA ones (the admin report) work through one delegated click handler.

/** Copy confirmation (spec §9). */
export const COPIED_MS = 2000;

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

const timers = new WeakMap<Element, ReturnType<typeof setTimeout>>();

/** Shows the button's copied label (data-copied-label) for COPIED_MS, then its own label again. */
function flash(button: HTMLElement) {
  const label = button.querySelector<HTMLElement>("[data-copy-label]");
  if (!label) return;
  const idle = button.dataset.label ?? label.textContent ?? "";
  button.dataset.label = idle;
  label.textContent = button.dataset.copiedLabel ?? "Copied";
  button.setAttribute("data-copied", "");
  clearTimeout(timers.get(button));
  timers.set(
    button,
    setTimeout(() => {
      label.textContent = idle;
      button.removeAttribute("data-copied");
    }, COPIED_MS),
  );
}

/**
 * A click handler for a whole document or container: a click on a `[data-copy]` button copies its
 * text and confirms. Resolves true when something was copied. A failed copy is only logged (spec §8).
 */
export async function onCopyClick(event: Event): Promise<boolean> {
  const target = event.target as Element | null;
  const button = target?.closest?.<HTMLElement>("[data-copy]");
  if (!button) return false;
  const ok = await copyText(button.dataset.copy ?? "");
  if (ok) flash(button);
  return ok;
}
