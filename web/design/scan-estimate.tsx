// What a scan will cost before it runs (Local Search Grid, Citation Tracker): its searches, their price and what is
// left of the month's allowance; past the allowance, a warning that says what to do (the run button is disabled).
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatCost } from "../../worker/domain/usage-cost";
import { Alert } from "./alert";
import "./scan-results.css";

export type ScanCost = { searches: number; usd: number; allowanceLeftUsd: number | null; allowed: boolean };

/** "25 map searches · about $0.38 · $0.62 left of this month's allowance" */
export function scanCostLine(cost: ScanCost, searches: string): string {
  const left = cost.allowanceLeftUsd === null ? "no monthly cap" : `${formatCost(cost.allowanceLeftUsd)} left of this month's allowance`;
  return `${cost.searches} ${searches} · about ${formatCost(cost.usd)} · ${left}`;
}

/**
 * `searches` names them ("map searches"); `needs` the scan ("This grid"); `advice` what to do past the allowance
 * (by default: upgrade for more).
 */
export function ScanEstimate({ cost, error, searches, needs, advice }: { cost: ScanCost | undefined; error: Error | null; searches: string; needs: string; advice?: ReactNode }) {
  if (error) return <p className="audit-muted">Could not estimate the cost: {error.message}</p>;
  if (!cost) return <p className="audit-muted">Working out the cost…</p>;
  return (
    <>
      <p className="scan-estimate" role="status">
        {scanCostLine(cost, searches)}
      </p>
      {!cost.allowed ? (
        <Alert tone="warning" title="Over this month's allowance">
          <p>
            {needs} needs about {formatCost(cost.usd)} of searches and {cost.allowanceLeftUsd === null ? "nothing" : formatCost(cost.allowanceLeftUsd)} is left this month.{" "}
            {advice ?? (
              <>
                <Link to="/subscription">Upgrade your plan</Link> for more.
              </>
            )}
          </p>
        </Alert>
      ) : null}
    </>
  );
}
