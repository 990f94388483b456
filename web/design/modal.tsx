// An accessible modal dialog: labelled, focus moved in and kept in, Escape and backdrop close, focus restored after.
import { useEffect, useId, useRef, type ReactNode, type RefObject } from "react";
import { createPortal } from "react-dom";
import { Button, buttonClass } from "./button";

type Props = {
  title: string;
  children: ReactNode;
  footer: ReactNode;
  onClose: () => void;
  /** While busy, Escape and the backdrop do nothing (the action is under way). */
  busy?: boolean;
  /** What gets focus first (defaults to the first focusable element). */
  initialFocus?: RefObject<HTMLElement | null>;
  tone?: "default" | "danger";
  icon?: ReactNode;
};

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Modal({ title, children, footer, onClose, busy = false, initialFocus, tone = "default", icon }: Props) {
  const titleId = useId();
  const bodyId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  const busyRef = useRef(busy);
  closeRef.current = onClose;
  busyRef.current = busy;

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = initialFocus?.current ?? panel.current?.querySelector<HTMLElement>(FOCUSABLE) ?? panel.current;
    first?.focus();
    document.body.classList.add("modal-open");

    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !busyRef.current) {
        e.stopPropagation();
        closeRef.current();
        return;
      }
      if (e.key !== "Tab" || !panel.current) return;
      const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (items.length === 0) return;
      const [head, tail] = [items[0]!, items[items.length - 1]!];
      if (e.shiftKey && document.activeElement === head) {
        e.preventDefault();
        tail.focus();
      } else if (!e.shiftKey && document.activeElement === tail) {
        e.preventDefault();
        head.focus();
      }
    };
    document.addEventListener("keydown", onKey, true);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      document.body.classList.remove("modal-open");
      previous?.focus?.();
    };
    // Runs once per opening: the dialog is mounted while open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return createPortal(
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget && !busy) onClose();
      }}
    >
      <div
        ref={panel}
        className={`modal card modal-${tone}`}
        role={tone === "danger" ? "alertdialog" : "dialog"}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        tabIndex={-1}
      >
        <div className="modal-head">
          {icon ? <span className="modal-icon">{icon}</span> : null}
          <h2 className="modal-title" id={titleId}>
            {title}
          </h2>
        </div>
        <div className="modal-body" id={bodyId}>
          {children}
        </div>
        <div className="modal-foot">{footer}</div>
      </div>
    </div>,
    document.body,
  );
}

/**
 * A question to confirm: Cancel, focused first so Enter never confirms by mistake and disabled while the action
 * runs, then the confirming button.
 */
export function ConfirmModal({
  confirmLabel,
  confirmVariant = "danger",
  onConfirm,
  busy = false,
  onClose,
  ...modal
}: Omit<Props, "footer" | "initialFocus"> & { confirmLabel: ReactNode; confirmVariant?: "primary" | "danger"; onConfirm: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      {...modal}
      busy={busy}
      onClose={onClose}
      initialFocus={cancel}
      footer={
        <>
          <button ref={cancel} type="button" className={buttonClass("secondary")} onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <Button variant={confirmVariant} onClick={onConfirm} busy={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    />
  );
}
