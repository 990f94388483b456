// The video script's teleprompter: the spoken lines in large text on a dark screen, scrolling at an adjustable
// speed; Space plays or pauses, Escape closes.
import { useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { Button, buttonClass } from "../../design/button";
import { CloseIcon } from "../../design/icons";
import "./content.css";

export const SPEED_MIN = 10;
export const SPEED_MAX = 120;

export function Teleprompter({ title, lines, onClose }: { title: string; lines: string[]; onClose: () => void }) {
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(40);
  const scroller = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const speedId = useId();

  useEffect(() => {
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
      if (e.key === " " && (e.target as HTMLElement).tagName !== "BUTTON" && (e.target as HTMLElement).tagName !== "INPUT") {
        e.preventDefault();
        setPlaying((p) => !p);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let frame = requestAnimationFrame(function step(now) {
      const el = scroller.current;
      if (el) {
        el.scrollTop += ((now - last) / 1000) * speed;
        if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) setPlaying(false);
      }
      last = now;
      frame = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, speed]);

  return createPortal(
    <div className="teleprompter" role="dialog" aria-modal="true" aria-labelledby={titleId}>
      <div className="teleprompter-bar">
        <h2 id={titleId} className="teleprompter-title">
          {title}
        </h2>
        <Button size="sm" variant="primary" onClick={() => setPlaying(!playing)}>
          {playing ? "Pause" : "Play"}
        </Button>
        <label htmlFor={speedId} className="teleprompter-speed">
          Speed
          <input id={speedId} type="range" min={SPEED_MIN} max={SPEED_MAX} step={5} value={speed} onChange={(e) => setSpeed(Number(e.target.value))} />
        </label>
        <button type="button" className={buttonClass("dark", "sm")} ref={closeRef} onClick={onClose} aria-label="Close teleprompter">
          <CloseIcon size="sm" />
        </button>
      </div>
      <div className="teleprompter-text" ref={scroller} tabIndex={0} aria-label="Script">
        {lines.map((line, i) => (
          <p key={i}>{line}</p>
        ))}
      </div>
    </div>,
    document.body,
  );
}
