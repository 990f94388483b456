// The skeleton shown while a generator writes: progress creeps towards 90 % until the answer lands.
import { useEffect, useRef, useState } from "react";
import "./content.css";

export function GeneratingSkeleton({ label, status }: { label: string; status: string }) {
  const [progress, setProgress] = useState(8);
  const started = useRef(Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      const seconds = (Date.now() - started.current) / 1000;
      setProgress(Math.min(90, 8 + 82 * (1 - Math.exp(-seconds / 6))));
    }, 250);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="card card-pad fb-skeleton" role="status" aria-label={label}>
      <div className="fb-skeleton-head">
        <span className="skeleton is-circle" />
        <div className="fb-skeleton-lines">
          <span className="skeleton" style={{ width: "40%" }} />
          <span className="skeleton" style={{ width: "25%" }} />
        </div>
      </div>
      <span className="skeleton" style={{ width: "70%" }} />
      <span className="skeleton" />
      <span className="skeleton" />
      <span className="skeleton" style={{ width: "85%" }} />
      <span className="skeleton is-image" />
      <div className="usage-meter" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress)} aria-label="Progress">
        <span style={{ width: `${progress}%` }} />
      </div>
      <p className="muted">{status}</p>
    </div>
  );
}
