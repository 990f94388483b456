// The monthly AI allowance as the meter enforces it: used (settled + in progress), left, the renewal day, and past
// it the ai_budget_exceeded message with the upgrade (usage panel and Subscription).
import { Link } from "react-router";
import { formatCost } from "../../../worker/domain/usage-cost";
import { budgetExceededMessage, type BudgetState } from "../../../worker/features/usage/rules/usage-stats";
import { Alert } from "../../design/alert";
import { Badge } from "../../design/badge";
import { buttonClass } from "../../design/button";

/** Dollars as people read them: the app's one money format (cents, "< $0.01"). */
export const dollars = formatCost;

/** From this share of the Free allowance on, the upgrade is offered. */
const UPGRADE_FROM_SHARE = 0.9;

function renewal(resetsAt: string): string {
  return new Date(resetsAt).toLocaleDateString("en-US", { month: "long", day: "numeric", timeZone: "UTC" });
}

function sourceLabel(budget: BudgetState): string {
  if (budget.override_usd !== null) return "Set by your administrator";
  return budget.plan === "Self Service" ? "Self Service plan" : "Free plan";
}

export function AllowanceMeter({ budget, offerUpgrade = true }: { budget: BudgetState; offerUpgrade?: boolean }) {
  const limit = budget.monthly_usd;
  const share = limit === null ? 0 : limit > 0 ? Math.min(1, budget.used_usd / limit) : 1;
  // Offered once the Free allowance is nearly used (the last cents may not fit one more call) and past it.
  const canUpgrade = offerUpgrade && budget.plan === "Free" && budget.override_usd === null && share >= UPGRADE_FROM_SHARE;
  const upgrade = (
    <Link className={buttonClass("primary", "sm")} to="/subscription">
      Upgrade to Self Service
    </Link>
  );
  return (
    <section className="card card-pad allowance" aria-labelledby="allowance-title" data-testid="allowance">
      <div className="allowance-head">
        <h3 className="allowance-title" id="allowance-title">
          Monthly AI allowance
        </h3>
        <Badge tone={budget.over ? "soon" : "new"}>{sourceLabel(budget)}</Badge>
      </div>
      {limit === null ? (
        <p className="plan-note">No monthly allowance applies to your account; the service's daily limit still does.</p>
      ) : (
        <div
          className={budget.over ? "usage-meter is-over" : "usage-meter"}
          role="meter"
          aria-label="Monthly AI allowance used"
          aria-valuemin={0}
          aria-valuemax={limit}
          aria-valuenow={Math.min(budget.used_usd, limit)}
          aria-valuetext={`${dollars(budget.used_usd)} of ${dollars(limit)} used`}
        >
          <span style={{ width: `${(share * 100).toFixed(1)}%` }} />
        </div>
      )}
      <dl className="allowance-figures">
        <div>
          <dt>Used</dt>
          <dd>
            {dollars(budget.used_usd)}
            {limit !== null ? ` of ${dollars(limit)}` : ""}
          </dd>
        </div>
        <div>
          <dt>Left</dt>
          <dd>{budget.left_usd === null ? "No limit" : dollars(budget.left_usd)}</dd>
        </div>
        <div>
          <dt>Renews</dt>
          <dd>{renewal(budget.resets_at)}</dd>
        </div>
      </dl>
      {budget.reserved_usd > 0 ? <p className="plan-note">{dollars(budget.reserved_usd)} of it is for requests still running.</p> : null}
      {budget.over ? (
        <Alert tone="warning">
          {budgetExceededMessage(budget)} Until then, each tool answers from its templates or sample data.
          {canUpgrade ? <> {upgrade}</> : null}
        </Alert>
      ) : canUpgrade ? (
        <p className="allowance-upgrade">
          Your Free allowance is nearly used: AI tools switch to templates when a request no longer fits. {upgrade}
        </p>
      ) : null}
    </section>
  );
}
