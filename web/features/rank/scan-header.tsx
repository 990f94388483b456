// The head of a scan's result (Local Search Grid, Citation Tracker): its title and subtitle, the progress line while
// the scan runs, and once it is done Export CSV beside the screen's own actions; an export that fails says so below.
import { useState, type ReactNode } from "react";
import { downloadText } from "../../lib/download";
import { fetchCsv } from "./queries";
import { Alert } from "../../design/alert";
import { Button } from "../../design/button";
import { DownloadIcon } from "../../design/icons";
import "../../design/scan-results.css";
import "./rank.css";

/** Saves a CSV export (it needs the bearer header, so no plain link); `error` is what to show when it failed. */
export function useCsvExport(path: string, filename: string, failure = "Could not export the scan.") {
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setError(null);
    try {
      downloadText(await fetchCsv(path), filename);
    } catch (err) {
      setError(err instanceof Error ? err.message : failure);
    }
  };
  return { run, error };
}

/** "⟳ Searching point by point: 12 of 25 done" — announced as it changes. */
export function ScanProgress({ children }: { children: ReactNode }) {
  return (
    <p className="scan-progress" role="status">
      <span className="spinner" aria-hidden="true" /> {children}
    </p>
  );
}

export function ExportCsvButton({ onClick, disabled }: { onClick: () => void; disabled?: boolean }) {
  return (
    <Button size="sm" onClick={onClick} disabled={disabled}>
      <DownloadIcon size="sm" />
      Export CSV
    </Button>
  );
}

/**
 * `progress` is the running scan's line (null once it is done); `csv` the export's path and file name; `actions` the
 * screen's other buttons, shown with Export CSV when the scan is done.
 */
export function ScanHeader({
  titleId,
  title,
  subtitle,
  progress,
  csv,
  actions = null,
}: {
  titleId: string;
  title: ReactNode;
  subtitle: ReactNode;
  progress: ReactNode | null;
  csv: { path: string; filename: string };
  actions?: ReactNode;
}) {
  const exporter = useCsvExport(csv.path, csv.filename);
  return (
    <>
      <header className="audit-result-head">
        <div>
          <h2 id={titleId}>{title}</h2>
          <p className="audit-muted">{subtitle}</p>
          {progress !== null ? <ScanProgress>{progress}</ScanProgress> : null}
        </div>
        {progress === null ? (
          <div className="audit-actions">
            <ExportCsvButton onClick={() => void exporter.run()} />
            {actions}
          </div>
        ) : null}
      </header>
      {exporter.error ? <Alert tone="error">{exporter.error}</Alert> : null}
    </>
  );
}
